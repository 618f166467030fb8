package io.macrodb.e2e;

import io.macrodb.api.MacroCluster;
import io.macrodb.api.MacroSqlState;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * One database, one cluster, however its URL is spelt. Found by a review (2026-11-23): the cluster was named by the
 * URL's text, so {@code h2:file:/d/db} and {@code h2:file:/d/./db} (or {@code h2:/d/db}, or settings in another order)
 * started two clusters over one master, each with slaves the other's commits never reached: a read-only transaction
 * read rows older than a commit the application had seen. Or the second one failed to start ("table already exists":
 * its slaves had the first one's names).
 */
class ClusterIdentityTest {

    @TempDir
    Path dir;

    /** {@code {dir}} stands for a fresh directory. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "h2:file:{dir}/db | h2:file:{dir}/./db",
            "h2:file:{dir}/db | h2:{dir}/db",
            "hsqldb:file:{dir}/db | hsqldb:file:{dir}/sub/../db",
            "h2:mem:identity-order;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=5000 | "
                    + "h2:mem:identity-order;lock_timeout=5000;DB_CLOSE_DELAY=-1",
            "h2:mem:identity-case | H2:mem:identity-case"})
    void twoSpellingsOfOneDatabaseAreOneCluster(String first, String second) throws Exception {
        try (Connection a = Engine.connect(url(first)); Connection b = Engine.connect(url(second))) {
            MacroCluster cluster = a.unwrap(MacroCluster.class);
            assertSame(cluster, b.unwrap(MacroCluster.class));
            Engine.execute(a, "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES (1)");
            Engine.execute(b, "INSERT INTO t VALUES (2)");
            for (Connection reader : List.of(a, b)) {
                reader.setReadOnly(true);
                assertEquals(List.of("2"), Engine.rows(reader, "SELECT COUNT(*) FROM t"));
                reader.setReadOnly(false);
            }
            Engine.assertIdenticalAndNoneFailed(cluster);
            cluster.shutdown();
        }
    }

    /** Other engine settings for a database whose cluster runs are refused, as other MacroDB options are. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "h2:mem:identity-settings;DB_CLOSE_DELAY=-1 | h2:mem:identity-settings",
            "h2:file:{dir}/db | h2:file:{dir}/./db;LOCK_TIMEOUT=5000"})
    void otherSettingsForARunningDatabaseAreRefused(String first, String second) throws Exception {
        try (Connection a = Engine.connect(url(first))) {
            SQLException refused = assertThrows(SQLException.class, () -> Engine.connect(url(second)).close());
            assertEquals(MacroSqlState.INVALID_OPTION, refused.getSQLState(), refused::getMessage);
            a.unwrap(MacroCluster.class).shutdown();
        }
    }

    private String url(String engineUrl) {
        return "jdbc:macrodb:" + engineUrl.replace("{dir}", dir.toString()) + ";macrodb.replicas=2";
    }
}
