package io.macrodb.e2e;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.macrodb.api.MacroCluster;
import io.macrodb.api.MacroSqlState;
import io.macrodb.api.ReplicaStatus;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MacroDB behind HikariCP, configured both ways a pool takes a driver (jdbcUrl, dataSourceClassName). Borrowers switch
 * read-only on and off; the pool resets the state between them; reads still go to slaves, writes to the master, and
 * the replicas stay exact.
 */
class HikariPoolTest {

    @ParameterizedTest
    @EnumSource(Engine.class)
    void pooledConnectionsRouteByReadOnlyAndKeepReplicasExact(Engine engine) throws Exception {
        String url = engine.rowLockingUrl(3);
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setMaximumPoolSize(4);
        config.setAutoCommit(true);
        try (HikariDataSource pool = new HikariDataSource(config)) {
            try (Connection c = pool.getConnection()) {
                Engine.execute(c, "CREATE TABLE counter (id INT PRIMARY KEY, n BIGINT)",
                        "INSERT INTO counter VALUES (1, 0)");
            }
            ExecutorService threads = Executors.newFixedThreadPool(6);
            List<Future<?>> work = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                int worker = t;
                work.add(threads.submit(() -> {
                    for (int i = 0; i < 100; i++) {
                        boolean reader = (i + worker) % 2 == 0;
                        try (Connection c = pool.getConnection()) {
                            assertFalse(c.isReadOnly(), "the pool resets read-only between borrowers");
                            c.setReadOnly(reader);
                            if (reader) {
                                try (ResultSet rows = c.createStatement().executeQuery("SELECT n FROM counter")) {
                                    assertTrue(rows.next());
                                }
                            } else {
                                c.setAutoCommit(false);
                                Engine.execute(c, "UPDATE counter SET n = n + 1 WHERE id = 1");
                                c.commit();
                            }
                        } catch (SQLException e) {
                            if (!"40001".equals(e.getSQLState())) {
                                throw new AssertionError(e);
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : work) {
                f.get();
            }
            threads.shutdown();
            MacroCluster cluster;
            try (Connection c = pool.getConnection()) {
                cluster = c.unwrap(MacroCluster.class);
                long slaveVersions = cluster.replicas().stream().skip(1).mapToLong(ReplicaStatus::version).sum();
                assertTrue(slaveVersions > 0, "slaves applied the writes");
                c.setReadOnly(true);
                try (ResultSet rows = c.createStatement().executeQuery("SELECT n FROM counter")) {
                    rows.next();
                    assertTrue(rows.getLong(1) > 0);
                }
            }
            pool.close();
            assertTrue(cluster.verify().identical(), () -> "replicas differ after pooled use");
            cluster.shutdown();
        }
    }

    /**
     * HikariCP evicts a connection whose statement fails with SQLState 0A000 (it takes it for a broken one). A
     * statement MacroDB refuses must leave the borrowed connection usable: the refusal says what to do instead, the
     * application goes on.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aRefusedStatementLeavesThePooledConnectionUsable(Engine engine) throws SQLException {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(engine.url(2));
        config.setMaximumPoolSize(1);
        MacroCluster cluster;
        try (HikariDataSource pool = new HikariDataSource(config); Connection c = pool.getConnection()) {
            Engine.execute(c, "CREATE TABLE t (id INT PRIMARY KEY)");
            SQLException refused = assertThrows(SQLException.class, () -> Engine.execute(c,
                    "ALTER TABLE t ADD COLUMN at TIMESTAMP DEFAULT CURRENT_TIMESTAMP UNIQUE")); // more than it splits
            assertEquals(MacroSqlState.NOT_REPLICABLE, refused.getSQLState(), refused::toString);
            Engine.execute(c, "INSERT INTO t VALUES (1)"); // the same borrowed connection goes on
            cluster = c.unwrap(MacroCluster.class);
            assertEquals(1, pool.getHikariPoolMXBean().getTotalConnections(), "the pool kept its connection");
        }
        Engine.assertIdenticalAndShutdown(cluster);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void dataSourceClassNameConfiguration(Engine engine) throws SQLException {
        HikariConfig config = new HikariConfig();
        config.setDataSourceClassName("io.macrodb.jdbc.MacroDataSource");
        config.addDataSourceProperty("url", engine.url(2));
        config.setMaximumPoolSize(2);
        MacroCluster cluster;
        try (HikariDataSource pool = new HikariDataSource(config); Connection c = pool.getConnection()) {
            Engine.execute(c, "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES (1)");
            cluster = c.unwrap(MacroCluster.class);
            assertEquals(2, cluster.replicas().size());
        }
        assertTrue(cluster.verify().identical());
        cluster.shutdown();
    }
}
