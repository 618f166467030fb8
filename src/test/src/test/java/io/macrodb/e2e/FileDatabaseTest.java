package io.macrodb.e2e;

import io.macrodb.api.MacroCluster;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A file database that already holds data opens through MacroDB: the master is the file, each slave an in-memory
 * copy seeded at start (schema, rows, counters); reads on slaves see the file's data, writes reach the file and every
 * slave, and after the cluster shuts down the file holds every committed write.
 */
class FileDatabaseTest {

    @ParameterizedTest
    @EnumSource(Engine.class)
    void fileMasterWithExistingDataSeedsItsSlaves(Engine engine, @TempDir Path dir) throws SQLException {
        String engineUrl = engine.name + ":file:" + dir.resolve("shop").toAbsolutePath();
        try (Connection plain = DriverManager.getConnection("jdbc:" + engineUrl)) {
            Engine.execute(plain, "CREATE TABLE product (id INT PRIMARY KEY, name VARCHAR(20))",
                    "CREATE SEQUENCE product_id START WITH 100",
                    "INSERT INTO product VALUES (1, 'pen'), (2, 'ink')");
            plain.commit();
            Engine.execute(plain, "SHUTDOWN");
        }
        String url = "jdbc:macrodb:" + engineUrl + ";macrodb.replicas=3";
        try (Connection c = DriverManager.getConnection(url)) {
            c.setReadOnly(true);
            try (ResultSet rows = c.createStatement().executeQuery("SELECT COUNT(*) FROM product")) {
                rows.next();
                assertEquals(2, rows.getInt(1), "a slave seeded from the file serves the file's rows");
            }
            c.setReadOnly(false);
            Engine.execute(c, "INSERT INTO product VALUES (NEXT VALUE FOR product_id, 'paper')");
            MacroCluster cluster = c.unwrap(MacroCluster.class);
            assertEquals(true, cluster.verify().identical(), () -> "differences: " + safeDifferences(cluster));
            cluster.shutdown();
        }
        try (Connection plain = DriverManager.getConnection("jdbc:" + engineUrl);
             ResultSet rows = plain.createStatement().executeQuery("SELECT name FROM product WHERE id = 100")) {
            rows.next();
            assertEquals("paper", rows.getString(1), "the file holds the committed write");
            Engine.execute(plain, "SHUTDOWN");
        }
    }

    private static Object safeDifferences(MacroCluster cluster) {
        try {
            return cluster.verify().differences();
        } catch (SQLException e) {
            return e;
        }
    }
}
