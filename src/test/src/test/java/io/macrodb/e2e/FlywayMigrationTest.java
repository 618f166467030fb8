package io.macrodb.e2e;

import com.zaxxer.hikari.HikariDataSource;
import io.macrodb.api.MacroCluster;
import io.macrodb.api.ReplicaResult;
import io.macrodb.jdbc.MacroDataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfoService;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Flyway migrates a MacroDB database given a DataSource (a HikariCP pool or {@link MacroDataSource}): its migrations
 * (src/test/resources/db/flyway: CREATE TABLE, CREATE SEQUENCE, INSERT, ALTER TABLE ADD COLUMN, CREATE INDEX, UPDATE)
 * and its schema history table reach every replica, a second migrate finds nothing to do, and rows written afterwards
 * replicate exactly.
 *
 * <p>Two things in Flyway's own schema history table needed MacroDB fixes, both covered by {@code ExactnessTest}: on
 * H2 Flyway creates it with {@code CREATE TABLE ... AS SELECT ... CURRENT_TIMESTAMP} (once refused as
 * non-deterministic DDL), on HSQLDB its {@code success} column is a BIT (whose values slaves once failed to apply).
 */
class FlywayMigrationTest {

    private static final String MIGRATIONS = "classpath:db/flyway";

    @ParameterizedTest
    @EnumSource(Engine.class)
    void migratesThroughAPoolAndEveryReplicaHasTheSchema(Engine engine) throws SQLException {
        MacroCluster cluster;
        try (HikariDataSource pool = Pools.hikari(engine.url(3), 2)) {
            Flyway flyway = Flyway.configure().dataSource(pool).locations(MIGRATIONS).load();
            MigrateResult first = flyway.migrate();
            assertEquals(2, first.migrationsExecuted);
            assertEquals("2", first.targetSchemaVersion);

            MigrationInfoService info = flyway.info();
            assertEquals(2, info.applied().length);
            assertEquals(0, info.pending().length);
            assertTrue(flyway.validateWithResult().validationSuccessful, "checksums match what was applied");
            assertEquals(0, flyway.migrate().migrationsExecuted, "a second migrate has nothing to do");

            try (Connection c = pool.getConnection()) {
                Engine.execute(c, "INSERT INTO product (id, name, price, stock) VALUES (NEXT VALUE FOR product_seq, "
                        + "'cocoa', 2.10, 5)");
                cluster = c.unwrap(MacroCluster.class);
                c.setReadOnly(true); // a slave (or the idle, current master) sees the migrated schema and the new row
                assertEquals(15, queryLong(c, "SELECT SUM(stock) FROM product"));
            }
        }
        assertEveryReplicaMigrated(cluster);
        Engine.assertIdenticalAndShutdown(cluster); // tables and the sequence, on every replica
    }

    /**
     * Flyway picks its database support (and the JDBC driver) from the URL's prefix, so it refuses a
     * {@code jdbc:macrodb:} URL before connecting: give it a DataSource instead, which it identifies from the
     * connection's metadata (the engine's product name).
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aRawMacroDbUrlIsRefusedButTheSameUrlAsADataSourceMigrates(Engine engine) throws SQLException {
        String url = engine.url(2);
        FlywayException refused = assertThrows(FlywayException.class,
                () -> Flyway.configure().dataSource(url, null, null).locations(MIGRATIONS).load());
        assertTrue(refused.getMessage().startsWith("No Flyway database plugin found to handle " + url),
                refused::getMessage);

        MacroDataSource dataSource = new MacroDataSource();
        dataSource.setUrl(url);
        assertEquals(2, Flyway.configure().dataSource(dataSource).locations(MIGRATIONS).load().migrate()
                .migrationsExecuted);
        try (Connection c = dataSource.getConnection()) {
            Engine.assertIdenticalAndShutdown(c);
        }
    }

    /** Each replica, read on its own connection at one version: both migrations recorded, the column and the index. */
    private static void assertEveryReplicaMigrated(MacroCluster cluster) throws SQLException {
        List<ReplicaResult<String>> replicas = cluster.queryEachReplica(c -> queryLong(
                c, "SELECT COUNT(*) FROM \"flyway_schema_history\" WHERE \"type\" = 'SQL'") + " migrations, stock "
                + queryLong(c, "SELECT SUM(stock) FROM product") + ", index " + hasIndex(c, "PRODUCT", "PRODUCT_NAME"));
        assertEquals(3, replicas.size());
        for (ReplicaResult<String> replica : replicas) {
            assertEquals("2 migrations, stock 15, index true", replica.value(), "replica " + replica.replica());
        }
    }

    private static boolean hasIndex(Connection c, String table, String index) throws SQLException {
        try (ResultSet indexes = c.getMetaData().getIndexInfo(null, null, table, false, false)) {
            while (indexes.next()) {
                if (index.equals(indexes.getString("INDEX_NAME"))) {
                    return true;
                }
            }
            return false;
        }
    }

    private static long queryLong(Connection c, String sql) throws SQLException {
        try (ResultSet rows = c.createStatement().executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
