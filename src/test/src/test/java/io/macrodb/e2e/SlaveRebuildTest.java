package io.macrodb.e2e;

import io.macrodb.api.MacroCluster;
import io.macrodb.api.MacroSqlState;
import io.macrodb.api.ReplicaHealth;
import io.macrodb.api.ReplicaStatus;
import io.macrodb.api.VerificationReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Contract section 4 for slaves: a failed slave leaves routing at once, the transactions on it fail retryably, and a
 * new slave is built from a healthy replica while the cluster keeps serving, then joins when it has caught up.
 */
class SlaveRebuildTest {

    // replicas=2: the only slave fails, the new one is copied from the master with update transactions held;
    // replicas=3: it is copied from the other slave, paused, while commits go on.
    @ParameterizedTest(name = "{0}, replicas={1}")
    @MethodSource("io.macrodb.e2e.Engine#withTwoAndThreeReplicas")
    void aFailedSlaveIsRebuiltWhileWritersAndReadersRun(Engine engine, int replicas) throws Exception {
        String url = engine.url(replicas);
        try (Connection admin = Engine.connect(url)) {
            TransferWorkload.load(admin, engine);
            MacroCluster cluster = admin.unwrap(MacroCluster.class);
            try (TransferWorkload.Running clients = TransferWorkload.start(url, 4, 2)) {
                Thread.sleep(300);
                String failedDatabase = cluster.replicas().get(1).database();
                cluster.failReplica(1);
                long commitsAtFailure = clients.commits();
                assertTrue(cluster.replicas().get(1).health() != ReplicaHealth.HEALTHY,
                        "the failed slave leaves routing at once");
                List<ReplicaStatus> rebuilt = Engine.awaitAllHealthy(cluster, replicas);
                assertTrue(clients.commits() > commitsAtFailure, "update transactions went on through the rebuild");
                assertTrue(!rebuilt.get(1).database().equals(failedDatabase),
                        "slave 1 was replaced by a new database: " + rebuilt);

                long routedBefore = routedTo(cluster, 1);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10); // a loaded machine is slow to route
                while (routedTo(cluster, 1) == routedBefore && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                clients.stopAndCheckNoneLost(admin);
                assertTrue(routedTo(cluster, 1) > routedBefore, "the new slave serves read-only transactions");
            }
            TransferWorkload.assertIntactAfterOneFailure(admin);
        }
    }

    /**
     * The new slave is copied from a slave whose applier is paused; the write sets queued for that slave and not yet
     * applied must reach the new one too. Made deterministic: the source's applier is stalled behind a row lock on
     * its own database while ten more commits queue up, and applies one write set per commit (applyBatch=1), so when
     * the lock goes it applies the stalled one and stops for the copy with the ten still queued.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aSlaveCopiedFromAPausedSlaveAlsoGetsWhatWasQueuedForIt(Engine engine) throws Exception {
        // H2's applier must wait for the row lock below longer than H2's default 2 s on a loaded machine (else slave 2
        // fails, and the new slave is copied from the master at once)
        String lockTimeout = engine == Engine.H2 ? ";DEFAULT_LOCK_TIMEOUT=30000" : "";
        try (Connection writer = Engine.connect(engine.url(3) + lockTimeout + ";macrodb.applyBatch=1")) {
            Engine.execute(writer, "CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (0, 0)");
            MacroCluster cluster = writer.unwrap(MacroCluster.class);
            cluster.verify();
            try (Connection source = Engine.behindMacroDbsBack(cluster, 2, "UPDATE t SET v = v WHERE id = 0")) {
                Engine.execute(writer, "UPDATE t SET v = 1 WHERE id = 0"); // slave 2's applier blocks on this one
                Engine.awaitApplierBlocked();
                for (int i = 1; i <= 10; i++) {
                    Engine.execute(writer, "INSERT INTO t VALUES (" + i + ", " + i + ")");
                }
                cluster.failReplica(1); // the only healthy slave left to copy from is slave 2
                Thread.sleep(500); // the rebuild asks slave 2's applier to pause: it will, once unblocked
                // By index, not by position: until the new slave takes its place, the list may not hold index 1.
                ReplicaHealth health = cluster.replicas().stream().filter(r -> r.index() == 1)
                        .map(ReplicaStatus::health).findFirst().orElse(null);
                assertNotEquals(ReplicaHealth.HEALTHY, health, "no new slave in routing while its source is stalled");
                source.rollback();
            }
            Engine.awaitAllHealthy(cluster, 3);
            assertEquals(11, TransferWorkload.count(writer, "SELECT COUNT(*) FROM t"));
            Engine.assertIdenticalAndShutdown(writer);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aReadOnlyTransactionOnAFailedSlaveFailsRetryably(Engine engine) throws Exception {
        String url = engine.url(2);
        try (Connection writer = Engine.connect(url); Connection reader = Engine.connect(url)) {
            Engine.execute(writer, "CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (1, 10)");
            MacroCluster cluster = writer.unwrap(MacroCluster.class);
            cluster.verify(); // the slave has caught up, so the reader is sent to it
            reader.setReadOnly(true);
            reader.setAutoCommit(false);
            assertEquals(10, value(reader));
            assertEquals(1, cluster.replicas().get(1).activeTransactions(), "the reader runs on the slave");

            cluster.failReplica(1);
            SQLException lost = assertThrows(SQLException.class, () -> value(reader));
            assertEquals(MacroSqlState.REPLICA_LOST, lost.getSQLState(), lost::toString);
            assertTrue(MacroSqlState.isRetryable(lost));
            reader.rollback();

            Engine.execute(writer, "UPDATE t SET v = 11 WHERE id = 1");
            assertEquals(11, value(reader), "the next read-only transaction runs elsewhere, and sees the last commit");
            reader.commit();
            Engine.awaitAllHealthy(cluster, 2);
            Engine.assertIdenticalAndShutdown(writer);
        }
    }

    /**
     * H2 checks its session on every call on a result, so reading a result from a slave whose database is gone
     * fails there; MacroDB turns that into the retryable 40M01 for each call, cursor moves and getters alike.
     * (HSQLDB hands over the rows it fetched and keeps reading them.)
     */
    @Test
    void readingAResultFromAFailedSlaveFailsRetryably() throws Exception {
        String url = Engine.H2.url(2);
        try (Connection writer = Engine.connect(url); Connection reader = Engine.connect(url)) {
            Engine.execute(writer, "CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (1, 10)",
                    "INSERT INTO t VALUES (2, 20)");
            MacroCluster cluster = writer.unwrap(MacroCluster.class);
            cluster.verify(); // the slave has caught up, so the reader is sent to it
            reader.setReadOnly(true);
            reader.setAutoCommit(false);
            ResultSet rows = reader.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_READ_ONLY)
                    .executeQuery("SELECT v FROM t ORDER BY id");
            assertTrue(rows.next());

            cluster.failReplica(1);
            Engine.awaitAllHealthy(cluster, 2); // the new slave is in: the failed one's database is shut down
            List<Executable> moves = List.of(rows::next, rows::previous, rows::first, rows::last,
                    () -> rows.absolute(2), () -> rows.relative(-1), () -> rows.getInt(1), () -> rows.getString("v"),
                    () -> rows.getObject(1), rows::wasNull);
            for (Executable move : moves) {
                SQLException lost = assertThrows(SQLException.class, move);
                assertEquals(MacroSqlState.REPLICA_LOST, lost.getSQLState(), lost::toString);
            }
            reader.rollback();
            Engine.assertIdenticalAndShutdown(writer);
        }
    }

    /**
     * A slave copied after {@code ALTER TABLE} has working views. H2's script lists a view before the table the ALTER
     * re-created, so the copy created the view before its table and it stayed invalid: every read of it on the rebuilt
     * slave failed, and {@code DROP TABLE ... CASCADE} then left it there, on that slave only (found by a review,
     * 2026-11-23; the same for a file master's slaves at start).
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aRebuiltSlavesViewsWorkAfterTheirTableWasAltered(Engine engine) throws Exception {
        try (Connection c = Engine.connect(engine.url(2))) {
            MacroCluster cluster = c.unwrap(MacroCluster.class);
            Engine.execute(c, "CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (1, 10), (2, 20)",
                    "CREATE VIEW big AS SELECT * FROM t WHERE v > 15",
                    "ALTER TABLE t ADD COLUMN w VARCHAR(10) DEFAULT 'x' NOT NULL");
            cluster.rebuildReplica(1);
            long failures = cluster.metrics().failures(); // the rebuild's own
            assertEquals(List.of("1"), cluster.queryEachReplica(r -> Engine.rows(r, "SELECT COUNT(*) FROM big"))
                    .stream().map(result -> result.value().get(0)).distinct().toList());
            Engine.execute(c, "DROP TABLE t CASCADE");
            Engine.assertIdentical(cluster);
            assertEquals(failures, cluster.metrics().failures(), "no replica failed after the rebuild");
            cluster.shutdown();
        }
    }

    /**
     * A slave copied from a database holding a schema and a domain but no table nor sequence gets them. The copy
     * copied nothing then, and the next {@code CREATE TABLE} in that schema failed the new slave (found 2026-11-28;
     * the same for a file master's slaves at start).
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aSlaveRebuiltBeforeAnyTableGetsTheSchemaObjects(Engine engine) throws Exception {
        try (Connection c = Engine.connect(engine.url(2))) {
            MacroCluster cluster = c.unwrap(MacroCluster.class);
            Engine.execute(c, "CREATE SCHEMA s", "CREATE DOMAIN s.positive AS INT CHECK (VALUE > 0)");
            cluster.rebuildReplica(1);
            long failures = cluster.metrics().failures(); // the rebuild's own
            Engine.execute(c, "CREATE TABLE s.t (id s.positive PRIMARY KEY)", "INSERT INTO s.t VALUES (1)");
            Engine.assertIdentical(cluster);
            assertEquals(failures, cluster.metrics().failures(), "no replica failed after the rebuild");
            cluster.shutdown();
        }
    }

    /**
     * H2's linked table reads and writes a table of another database: its writes reach that database once, from the
     * master, and every replica, a rebuilt one too, reads it there. Its rows were captured, and every slave wrote each
     * one to the source again, which failed the slave (a key taken) or would have doubled the row (found 2026-11-28).
     */
    @Test
    void anH2LinkedTableIsWrittenOnceAndReadByEveryReplica() throws Exception {
        String sourceUrl = "jdbc:h2:mem:linked_source_" + System.nanoTime();
        try (Connection source = java.sql.DriverManager.getConnection(sourceUrl);
             Connection c = Engine.connect(Engine.H2.url(3))) {
            Engine.execute(source, "CREATE TABLE e (id INT PRIMARY KEY, v INT)");
            MacroCluster cluster = c.unwrap(MacroCluster.class);
            Engine.execute(c, "CREATE LINKED TABLE l('org.h2.Driver', '" + sourceUrl + "', '', '', 'E')",
                    "CREATE TABLE local (id INT PRIMARY KEY)", "INSERT INTO l VALUES (1, 1), (2, 2)",
                    "UPDATE l SET v = v + 10", "DELETE FROM l WHERE id = 2", "INSERT INTO local VALUES (1)");
            assertEquals(List.of("1 11"), Engine.rows(source, "SELECT id, v FROM e"));
            cluster.rebuildReplica(1);
            assertEquals(List.of(List.of("1 11")), cluster.queryEachReplica(r -> Engine.rows(r, "SELECT id, v FROM l"))
                    .stream().map(result -> result.value()).distinct().toList());
            Engine.assertIdentical(cluster);
            assertEquals(1, cluster.metrics().failures(), "no replica failed but by the rebuild");
            cluster.shutdown();
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void verifyFailsASlaveThatDiffersAndRebuildReplicaReplacesIt(Engine engine) throws Exception {
        try (Connection writer = Engine.connect(engine.url(3))) {
            Engine.execute(writer, "CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (1, 10)");
            MacroCluster cluster = writer.unwrap(MacroCluster.class);
            cluster.verify();
            try (Connection slave = Engine.behindMacroDbsBack(cluster, 2, "UPDATE t SET v = 99 WHERE id = 1")) {
                slave.commit(); // slave 2 now differs from the master
            }

            String diverged = cluster.replicas().get(2).database();
            VerificationReport report = cluster.verify();
            assertEquals(java.util.Set.of(2), report.differingReplicas(), report.differences()::toString);
            assertEquals(1, cluster.metrics().failures(), "verify() failed the slave that differs");
            Engine.awaitAllHealthy(cluster, 3); // and a new one was built in its place
            assertTrue(!cluster.replicas().get(2).database().equals(diverged), "slave 2 has a new database");
            assertTrue(cluster.verify().identical(), "the rebuilt slave is a copy again");

            String before = cluster.replicas().get(1).database();
            cluster.rebuildReplica(1); // a healthy slave can be replaced on purpose too
            assertTrue(!cluster.replicas().get(1).database().equals(before), "slave 1 has a new database");
            assertEquals(List.of(0, 1, 2), cluster.replicas().stream().map(ReplicaStatus::index).toList());
            assertEquals(2, cluster.metrics().failures());
            Engine.assertIdenticalAndShutdown(writer);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void unknownReplicasAndRebuildingTheMasterAreRefusedClearly(Engine engine) throws Exception {
        try (Connection connection = Engine.connect(engine.url(2))) {
            MacroCluster cluster = connection.unwrap(MacroCluster.class);
            SQLException master = assertThrows(SQLException.class, () -> cluster.rebuildReplica(0));
            assertEquals(MacroSqlState.FEATURE_NOT_SUPPORTED, master.getSQLState());
            assertTrue(master.getMessage().contains("failReplica(0)"), master.getMessage());
            SQLException unknown = assertThrows(SQLException.class, () -> cluster.failReplica(7));
            assertEquals(MacroSqlState.NO_SUCH_REPLICA, unknown.getSQLState());
            assertTrue(unknown.getMessage().contains("no slave 7"), unknown.getMessage());
            assertEquals(MacroSqlState.NO_SUCH_REPLICA,
                    assertThrows(SQLException.class, () -> cluster.rebuildReplica(7)).getSQLState());
            assertTrue(cluster.replicas().stream().allMatch(r -> r.health() == ReplicaHealth.HEALTHY));
            cluster.shutdown();
        }
    }

    private static int value(Connection c) throws SQLException {
        return (int) TransferWorkload.count(c, "SELECT v FROM t WHERE id = 1");
    }

    // ---- watching the cluster ----

    private static long routedTo(MacroCluster cluster, int index) {
        return cluster.metrics().replicas().stream().filter(r -> r.index() == index)
                .mapToLong(io.macrodb.api.ClusterMetrics.Replica::routedTransactions).sum();
    }


    /**
     * A slave is rebuilt from the other slave, which fails while the copy runs: the rebuild is tried again at once,
     * from the master, and the cluster is back to every replica healthy. It used to give up for good, its
     * place missing even from the listing (found by a stress review, 2026-11-23).
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aRebuildWhoseCopySourceFailsIsTriedAgain(Engine engine) throws Exception {
        try (Connection admin = Engine.connect(engine.url(3))) {
            TransferWorkload.load(admin, engine);
            for (int rows = TransferWorkload.FILLER_ROWS; rows < 8 * TransferWorkload.FILLER_ROWS; rows *= 2) {
                // enough rows for the copy to take a while
                Engine.execute(admin, "INSERT INTO filler SELECT id + " + rows + ", payload FROM filler");
            }
            MacroCluster cluster = admin.unwrap(MacroCluster.class);
            cluster.verify(); // every slave caught up: slave 1 is copied from slave 2
            cluster.failReplica(1);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (cluster.replicas().stream().noneMatch(r -> r.index() == 1 && r.health() == ReplicaHealth.CATCHING_UP)
                    && System.nanoTime() < deadline) {
                Thread.onSpinWait(); // until the new slave 1 exists
            }
            Thread.sleep(150); // its copy from slave 2 has begun, and runs for longer than that
            cluster.failReplica(2); // the copy's source
            Engine.awaitAllHealthy(cluster, 3);
            Engine.assertIdenticalAndShutdown(cluster);
        }
    }
}
