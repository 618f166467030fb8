package io.macrodb.e2e;

import io.macrodb.api.MacroCluster;
import io.macrodb.api.MacroSqlState;
import io.macrodb.api.ReplicaHealth;
import io.macrodb.api.ReplicaStatus;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A replica whose database is lost while nothing uses it (no write set for its applier, no reader on it) is found by
 * the probe ({@code macrodb.probeIntervalMs}) and replaced before any transaction meets it. The cluster is left idle
 * after the loss, so nothing but the probe can find it.
 */
class HealthProbeTest {

    private static final String FAST_PROBE = ";macrodb.probeIntervalMs=20";

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aSlaveLostWhileIdleIsReplacedBeforeAReaderMeetsIt(Engine engine) throws Exception {
        try (Connection c = Engine.connect(engine.url(2) + FAST_PROBE)) {
            MacroCluster cluster = loadOneRow(c);
            String lostDatabase = cluster.replicas().get(1).database();
            engine.shutDownBehindMacroDbsBack(lostDatabase);

            long deadline = System.nanoTime() + 60_000_000_000L;
            while (cluster.metrics().failures() == 0) {
                assertTrue(System.nanoTime() < deadline, "the loss was not found within 60 s: " + cluster.replicas());
                Thread.sleep(10);
            }
            List<ReplicaStatus> after = Engine.awaitAllHealthy(cluster, 2);
            assertNotEquals(lostDatabase, after.get(1).database(), "slave 1 is a new database");
            assertEquals(1, cluster.metrics().failures());
            assertEquals(1L, readOnlyCount(c), "a reader after the loss is served, by the new slave");
            Engine.assertIdenticalAndShutdown(c);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aMasterLostWhileIdleIsReplacedBeforeAWriterMeetsIt(Engine engine) throws Exception {
        try (Connection c = Engine.connect(engine.url(2) + FAST_PROBE)) {
            MacroCluster cluster = loadOneRow(c);
            engine.shutDownBehindMacroDbsBack(cluster.replicas().get(0).database());

            long deadline = System.nanoTime() + 60_000_000_000L;
            while (cluster.replicas().get(0).index() == 0) {
                assertTrue(System.nanoTime() < deadline, "no slave took over within 60 s: " + cluster.replicas());
                Thread.sleep(10);
            }
            Engine.awaitAllHealthy(cluster, 2);
            Engine.execute(c, "INSERT INTO t VALUES (2)"); // the first write after the loss: no 40M01 to retry
            assertEquals(1, cluster.metrics().failures());
            Engine.assertIdenticalAndShutdown(c);
        }
    }

    /** With the probe off, the loss stays unseen until a transaction meets it, and that transaction fails. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void withTheProbeOffTheFirstReaderMeetsTheLoss(Engine engine) throws Exception {
        try (Connection c = Engine.connect(engine.url(2) + ";macrodb.probeIntervalMs=0")) {
            MacroCluster cluster = loadOneRow(c);
            engine.shutDownBehindMacroDbsBack(cluster.replicas().get(1).database());
            Thread.sleep(200);
            assertEquals(ReplicaHealth.HEALTHY, cluster.replicas().get(1).health(), "nothing looked");

            SQLException met = assertThrows(SQLException.class, () -> readOnlyCount(c));
            assertEquals(MacroSqlState.REPLICA_LOST, met.getSQLState(), met::toString);
            c.rollback();
            c.setReadOnly(false);
            Engine.awaitAllHealthy(cluster, 2);
            Engine.assertIdenticalAndShutdown(c);
        }
    }

    private static MacroCluster loadOneRow(Connection c) throws SQLException {
        Engine.execute(c, "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES (1)");
        MacroCluster cluster = c.unwrap(MacroCluster.class);
        cluster.verify(); // every slave has applied both versions: from here on the cluster is idle
        return cluster;
    }

    private static long readOnlyCount(Connection c) throws SQLException {
        c.setReadOnly(true);
        try (ResultSet rows = c.createStatement().executeQuery("SELECT COUNT(*) FROM t")) {
            rows.next();
            return rows.getLong(1);
        } finally {
            if (c.getAutoCommit()) {
                c.setReadOnly(false);
            }
        }
    }
}
