package io.macrodb.e2e;

import io.macrodb.api.MacroCluster;
import io.macrodb.api.MacroSqlState;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * H2's {@code RUNSCRIPT} and its URL setting {@code INIT} run statements inside the engine, out of MacroDB's sight:
 * RUNSCRIPT was refused, and INIT ran on every replica's own sessions, so a slave's copy met tables it had made
 * itself and the cluster did not open ("Table already exists"). MacroDB now reads the script and runs its statements
 * one by one through the connection, and each MacroDB connection runs INIT's commands that way, as H2 runs them at
 * every connection it opens. Every replica then holds the master's rows, default timestamps included.
 */
class ScriptAndInitTest {

    private static final String SCRIPT = "classpath:macrodb-init-schema.sql";

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rows = s.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    @Test
    void runscriptRunsEachStatementThroughMacroDb() throws Exception {
        try (Connection c = Engine.connect(Engine.H2.url(3)); Statement s = c.createStatement()) {
            s.execute("RUNSCRIPT FROM '" + SCRIPT + "'");
            s.execute("RUNSCRIPT FROM '" + SCRIPT + "' CHARSET 'UTF-8'"); // again: the script is idempotent
            assertEquals(1, count(c, "SELECT COUNT(*) FROM customer WHERE name = 'ada;lovelace'"));
            s.execute("INSERT INTO customer (id, name) VALUES (NEXT VALUE FOR customer_ids, 'bob')");

            SQLException option = assertThrows(SQLException.class,
                    () -> s.execute("RUNSCRIPT FROM '" + SCRIPT + "' COMPRESSION ZIP"));
            assertEquals(MacroSqlState.NOT_REPLICABLE, option.getSQLState(), option::getMessage);
            SQLException missing = assertThrows(SQLException.class,
                    () -> s.execute("RUNSCRIPT FROM 'classpath:no-such-script.sql'"));
            assertEquals("90031", missing.getSQLState(), missing::getMessage);

            MacroCluster cluster = c.unwrap(MacroCluster.class);
            assertEquals(0, cluster.metrics().failures());
            Engine.assertIdenticalAndShutdown(c); // the timestamps the master's defaults gave, on every replica
        }
    }

    /**
     * A backup made through MacroDB with {@code SCRIPT} holds MacroDB's capture triggers; restored with RUNSCRIPT into
     * a new cluster, they were refused (their names are MacroDB's) and the restore failed (found by a review,
     * 2026-11-23). They are left out: the new cluster makes its own.
     */
    @Test
    void aBackupMadeWithScriptRestoresIntoANewCluster(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        String backup = dir.resolve("backup.sql").toString();
        try (Connection c = Engine.connect(Engine.H2.url(2)); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))");
            s.execute("INSERT INTO t VALUES (1, 'one'), (2, 'two')");
            s.execute("SCRIPT TO '" + backup + "'");
            Engine.assertIdenticalAndShutdown(c);
        }
        try (Connection c = Engine.connect(Engine.H2.url(2)); Statement s = c.createStatement()) {
            s.execute("RUNSCRIPT FROM '" + backup + "'");
            s.execute("INSERT INTO t VALUES (3, 'three')"); // captured by the new cluster's own trigger
            assertEquals(3, count(c, "SELECT COUNT(*) FROM t"));
            assertEquals(0, c.unwrap(MacroCluster.class).metrics().failures());
            Engine.assertIdenticalAndShutdown(c);
        }
    }

    @Test
    void initRunsAtEachConnectionThroughMacroDb() throws Exception {
        String url = Engine.H2.url(3) + ";INIT=RUNSCRIPT FROM '" + SCRIPT + "'\\;SET @greeting = 'hi'";
        try (Connection first = DriverManager.getConnection(url)) {
            MacroCluster cluster = first.unwrap(MacroCluster.class);
            try (Connection second = DriverManager.getConnection(url)) { // INIT again: idempotent, as on H2
                Engine.execute(second, "INSERT INTO customer (id, name) VALUES (2, 'bob')");
                try (Statement s = second.createStatement(); ResultSet rows = s.executeQuery("SELECT @greeting")) {
                    rows.next();
                    assertEquals("hi", rows.getString(1), "INIT's second command ran on this connection");
                }
            }
            assertEquals(2, count(first, "SELECT COUNT(*) FROM customer"));
            assertEquals(0, cluster.metrics().failures());
            Engine.assertIdenticalAndShutdown(first);
        }
    }
}
