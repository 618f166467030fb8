package io.macrodb.e2e;

import io.macrodb.api.MacroCluster;
import io.macrodb.api.MacroSqlState;
import io.macrodb.api.ReplicaHealth;
import io.macrodb.api.ReplicaRole;
import io.macrodb.api.ReplicaStatus;
import io.macrodb.api.VerificationReport;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Contract section 4 for the master: when it fails, update transactions in flight fail retryably, new ones wait, a
 * caught-up slave takes over after applying everything queued for it, and service resumes; no committed transaction
 * is lost and none is applied twice. A new slave is then built in the old master's place.
 */
class MasterPromotionTest {

    // replicas=2: the only slave takes over and the new slave is copied from it, the new master;
    // replicas=3: the slave furthest ahead takes over, the other goes on replaying, now the new master's commits.
    @ParameterizedTest(name = "{0}, replicas={1}")
    @MethodSource("io.macrodb.e2e.Engine#withTwoAndThreeReplicas")
    void aSlaveTakesOverWhileWritersAndReadersRun(Engine engine, int replicas) throws Exception {
        String url = engine.url(replicas);
        try (Connection admin = Engine.connect(url)) {
            TransferWorkload.load(admin, engine);
            MacroCluster cluster = admin.unwrap(MacroCluster.class);
            try (TransferWorkload.Running clients = TransferWorkload.start(url, 4, 2)) {
                Thread.sleep(300);
                cluster.failReplica(0); // returns once a slave has taken over
                long commitsAtTakeOver = clients.commits();
                ReplicaStatus master = cluster.replicas().get(0);
                assertEquals(ReplicaRole.MASTER, master.role());
                assertNotEquals(0, master.index(), "a slave took over");

                List<ReplicaStatus> after = Engine.awaitAllHealthy(cluster, replicas);
                assertTrue(after.stream().anyMatch(r -> r.index() == 0 && r.role() == ReplicaRole.SLAVE),
                        "a new slave was built in the old master's place: " + after);
                Thread.sleep(300);
                clients.stopAndCheckNoneLost(admin);
                assertTrue(clients.commits() > commitsAtTakeOver, "update transactions went on, on the new master");
            }
            TransferWorkload.assertIntactAfterOneFailure(admin);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void anUpdateTransactionInFlightFailsRetryablyAndRunsAgainOnTheNewMaster(Engine engine) throws Exception {
        String url = engine.url(3);
        try (Connection writer = Engine.connect(url)) {
            Engine.execute(writer, "CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (1, 10)",
                    "CREATE TABLE u (id INT PRIMARY KEY)"); // a table of its own: HSQLDB's default mode locks tables
            MacroCluster cluster = writer.unwrap(MacroCluster.class);
            writer.setAutoCommit(false);
            Engine.execute(writer, "UPDATE t SET v = 11 WHERE id = 1"); // in flight on the master
            try (Connection committer = Engine.connect(url)) {
                committer.setAutoCommit(false);
                Engine.execute(committer, "INSERT INTO u VALUES (3)"); // in flight too, about to commit

                cluster.failReplica(0);
                SQLException lost = assertThrows(SQLException.class,
                        () -> Engine.execute(writer, "UPDATE t SET v = v + 1 WHERE id = 1"));
                assertEquals(MacroSqlState.REPLICA_LOST, lost.getSQLState(), lost::toString);
                writer.rollback();
                SQLException notCommitted = assertThrows(SQLException.class, committer::commit);
                assertEquals(MacroSqlState.REPLICA_LOST, notCommitted.getSQLState(), notCommitted::toString);
                committer.rollback();
            }
            assertEquals(10, (int) TransferWorkload.count(writer, "SELECT v FROM t WHERE id = 1"), "not committed");
            assertEquals(0, TransferWorkload.count(writer, "SELECT COUNT(*) FROM u"), "not committed either");
            writer.commit();

            Engine.execute(writer, "UPDATE t SET v = 11 WHERE id = 1"); // run again: on the new master
            writer.commit();
            writer.setAutoCommit(true);
            writer.setReadOnly(true);
            assertEquals(11, (int) TransferWorkload.count(writer, "SELECT v FROM t WHERE id = 1"));
            writer.setReadOnly(false);
            Engine.execute(writer, "INSERT INTO t VALUES (2, 20)"); // foreign keys, triggers: a real master now
            Engine.awaitAllHealthy(cluster, 3);
            Engine.assertIdenticalAndShutdown(writer);
        }
    }

    /** Counters continue on the new master: no sequence value or identity already handed out is handed out again. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void sequencesAndIdentitiesContinueOnTheNewMaster(Engine engine) throws Exception {
        try (Connection c = Engine.connect(engine.url(2))) {
            Engine.execute(c, "CREATE SEQUENCE order_no START WITH 1",
                    "CREATE TABLE item (id " + engine.identityType + " PRIMARY KEY, v INT)");
            long lastDrawn = 0;
            for (int i = 0; i < 3; i++) {
                lastDrawn = TransferWorkload.count(c, engine.nextValue("order_no"));
                Engine.execute(c, "INSERT INTO item (v) VALUES (" + i + ")");
            }
            MacroCluster cluster = c.unwrap(MacroCluster.class);
            cluster.failReplica(0);
            assertEquals(lastDrawn + 1, TransferWorkload.count(c, engine.nextValue("order_no")),
                    "the new master's sequence goes on from the old master's");
            Engine.execute(c, "INSERT INTO item (v) VALUES (3)");
            assertEquals(4, TransferWorkload.count(c, "SELECT COUNT(DISTINCT id) FROM item"),
                    "the new master's identity does not hand out an id again");
            Engine.awaitAllHealthy(cluster, 2);
            Engine.assertIdenticalAndShutdown(c);
        }
    }

    /**
     * Writers drawing identity and sequence values without pause while a slave is rebuilt and then the master fails
     * over. Slaves set counters once per applied batch, so a slave taking over (or one copied) must have the counters
     * of the last write set it applied, never those of an earlier one in the same batch: a counter left behind would
     * hand out an id or number again, which the primary key and the unique column refuse (the writers would fail with
     * 23505). Every committed insert is there once, and every replica ends identical, counters included.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void countersDrawnUnderLoadSurviveARebuildAndAFailover(Engine engine) throws Exception {
        String url = engine.url(3);
        try (Connection c = Engine.connect(url)) {
            Engine.execute(c, "CREATE SEQUENCE order_no START WITH 1", "CREATE TABLE item (id " + engine.identityType
                    + " PRIMARY KEY, no BIGINT NOT NULL UNIQUE, writer INT)");
            MacroCluster cluster = c.unwrap(MacroCluster.class);
            var committed = new java.util.concurrent.atomic.AtomicLong();
            var failures = new java.util.concurrent.ConcurrentLinkedQueue<String>();
            var stop = new java.util.concurrent.atomic.AtomicBoolean();
            ExecutorService writers = Executors.newFixedThreadPool(4);
            for (int w = 0; w < 4; w++) {
                int writer = w;
                writers.submit(() -> {
                    String insert = "INSERT INTO item (no, writer) VALUES (NEXT VALUE FOR order_no, " + writer
                            + ")";
                    try (Connection own = Engine.connect(url)) {
                        while (!stop.get() && failures.isEmpty()) {
                            try {
                                Engine.execute(own, insert);
                                committed.incrementAndGet();
                            } catch (SQLException e) {
                                if (!List.of(MacroSqlState.REPLICA_LOST, MacroSqlState.UPDATES_HELD,
                                        MacroSqlState.SERIALIZATION_FAILURE).contains(e.getSQLState())) {
                                    failures.add(e.getSQLState() + " " + e.getMessage());
                                }
                            }
                        }
                    } catch (SQLException e) {
                        failures.add(e.toString());
                    }
                    return null;
                });
            }
            Thread.sleep(300);
            cluster.failReplica(1); // copied from the other slave while the writers go on
            Engine.awaitAllHealthy(cluster, 3);
            Thread.sleep(200);
            cluster.failReplica(0); // a slave takes over with the counters of the last write set it applied
            Engine.awaitAllHealthy(cluster, 3);
            Thread.sleep(300);
            stop.set(true);
            writers.shutdown();
            assertTrue(writers.awaitTermination(60, TimeUnit.SECONDS));
            assertTrue(failures.isEmpty(), () -> "a writer failed: " + failures);
            assertTrue(committed.get() > 0);
            assertEquals(committed.get(), TransferWorkload.count(c, "SELECT COUNT(*) FROM item"),
                    "every committed insert is there, once");
            Engine.execute(c, "INSERT INTO item (no, writer) VALUES (NEXT VALUE FOR order_no, -1)");
            assertEquals(TransferWorkload.count(c, "SELECT MAX(id) FROM item"),
                    TransferWorkload.count(c, "SELECT id FROM item WHERE writer = -1"), "ids go on after the highest");
            Engine.assertIdenticalAndShutdown(c);
        }
    }

    /**
     * A sequence value drawn by a transaction that never commits reaches no slave. When an operator fails the master
     * over, its database can still be read, and the new master must not hand that value out again (an application
     * may have used it already: sequences are not transactional). With 3 replicas the other slave must hold the
     * same counters too (verify compares them).
     */
    @ParameterizedTest(name = "{0}, replicas={1}")
    @MethodSource("io.macrodb.e2e.Engine#withTwoAndThreeReplicas")
    void aValueDrawnInFlightIsNotDrawnAgainAfterAnOperatorsFailover(Engine engine, int replicas) throws Exception {
        String url = engine.url(replicas);
        try (Connection drawer = Engine.connect(url); Connection c = Engine.connect(url)) {
            Engine.execute(c, "CREATE SEQUENCE order_no START WITH 1");
            MacroCluster cluster = c.unwrap(MacroCluster.class);
            drawer.setAutoCommit(false);
            long inFlight = 0;
            for (int i = 0; i < 3; i++) {
                inFlight = TransferWorkload.count(drawer, engine.nextValue("order_no")); // never committed
            }

            cluster.failReplica(0);
            SQLException lost = assertThrows(SQLException.class,
                    () -> TransferWorkload.count(drawer, engine.nextValue("order_no")));
            assertEquals(MacroSqlState.REPLICA_LOST, lost.getSQLState(), lost::toString);
            drawer.rollback();
            Engine.awaitAllHealthy(cluster, replicas);
            VerificationReport carried = cluster.verify(); // before any draw would bring the slaves' counters along
            assertTrue(carried.identical(), () -> "replicas differ: " + carried.differences());
            long next = TransferWorkload.count(c, engine.nextValue("order_no"));
            assertTrue(next > inFlight, "drew " + next + " again after " + inFlight + " was handed out");
            Engine.assertIdenticalAndShutdown(c);
        }
    }

    /**
     * The master's database is shut down behind MacroDB's back: the next transaction finds out, and a slave takes
     * over.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aMasterWhoseDatabaseDiesIsDetectedAndReplaced(Engine engine) throws Exception {
        try (Connection writer = Engine.connect(engine.url(2))) {
            Engine.execute(writer, "CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (1, 10)");
            MacroCluster cluster = writer.unwrap(MacroCluster.class);
            cluster.verify();
            engine.shutDownBehindMacroDbsBack(cluster.replicas().get(0).database());
            SQLException lost = assertThrows(SQLException.class,
                    () -> Engine.execute(writer, "INSERT INTO t VALUES (2, 20)"));
            assertEquals(MacroSqlState.REPLICA_LOST, lost.getSQLState(), lost::toString);

            ReplicaStatus first = cluster.replicas().get(0);
            assertTrue(first.health() != ReplicaHealth.HEALTHY || first.index() != 0,
                    "the master left routing at once (or was replaced already): " + first);
            awaitNewMaster(cluster);
            Engine.awaitAllHealthy(cluster, 2);
            Engine.execute(writer, "INSERT INTO t VALUES (2, 20)"); // run again: on the new master
            assertEquals(2, TransferWorkload.count(writer, "SELECT COUNT(*) FROM t"));
            assertEquals(1, cluster.metrics().failures());
            Engine.assertIdenticalAndShutdown(writer);
        }
    }

    /**
     * The master's database dies while a new slave is copied from the only other healthy slave, paused for the copy.
     * That slave takes over once the copy is done (the promotion waits for it on the recovery's thread); meanwhile
     * the transaction that met the loss gets the retryable 40M01, and a new update transaction waits at the gate
     * for the new master instead of failing. (Before: no slave counted as able to take over while the only one was
     * paused, and clients got the engine's own "database closed" error.)
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aMasterThatDiesWhileASlaveIsCopiedIsReplacedOnceTheCopyIsDone(Engine engine) throws Exception {
        // H2's applier must wait for the row lock below longer than H2's default 2 s on a loaded machine
        String url = engine.url(3) + (engine == Engine.H2 ? ";DEFAULT_LOCK_TIMEOUT=30000" : "");
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try (Connection writer = Engine.connect(url); Connection late = Engine.connect(url)) {
            Engine.execute(writer, "CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (0, 0)");
            MacroCluster cluster = writer.unwrap(MacroCluster.class);
            cluster.verify();
            Future<?> waiting;
            try (Connection source = Engine.behindMacroDbsBack(cluster, 2, "UPDATE t SET v = v WHERE id = 0")) {
                Engine.execute(writer, "UPDATE t SET v = 1 WHERE id = 0"); // slave 2's applier blocks on this one
                Engine.awaitApplierBlocked();
                cluster.failReplica(1); // rebuilt from slave 2, the only healthy slave: it pauses once unblocked
                Thread.sleep(300); // the rebuild has asked slave 2 to pause: it is out of routing from then on
                engine.shutDownBehindMacroDbsBack(cluster.replicas().get(0).database());

                SQLException lost = assertThrows(SQLException.class,
                        () -> Engine.execute(writer, "INSERT INTO t VALUES (1, 1)"));
                assertEquals(MacroSqlState.REPLICA_LOST, lost.getSQLState(), lost::toString);
                waiting = thread.submit(() -> {
                    Engine.execute(late, "INSERT INTO t VALUES (2, 2)");
                    return null;
                });
                Thread.sleep(300);
                assertFalse(waiting.isDone(), "a new update transaction waits for the new master");
                source.rollback(); // the copy goes on, then the promotion
            }
            waiting.get(60, TimeUnit.SECONDS);
            awaitNewMaster(cluster);
            Engine.execute(writer, "INSERT INTO t VALUES (1, 1)"); // run again
            Engine.awaitAllHealthy(cluster, 3);
            assertEquals(3, TransferWorkload.count(writer, "SELECT COUNT(*) FROM t"));
            assertEquals(1, (int) TransferWorkload.count(writer, "SELECT v FROM t WHERE id = 0"));
            Engine.assertIdenticalAndShutdown(writer);
        } finally {
            thread.shutdownNow();
        }
    }

    private static void awaitNewMaster(MacroCluster cluster) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (cluster.replicas().get(0).index() == 0) {
            assertTrue(System.nanoTime() < deadline, "no slave took over within 60 s: " + cluster.replicas());
            Thread.sleep(10);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aMasterWithNoSlaveOrOnAFileIsNotReplaced(Engine engine, @TempDir Path dir) throws Exception {
        try (Connection alone = Engine.connect(engine.url(1))) {
            SQLException refused = assertThrows(SQLException.class,
                    () -> alone.unwrap(MacroCluster.class).failReplica(0));
            assertEquals(MacroSqlState.FEATURE_NOT_SUPPORTED, refused.getSQLState());
            assertTrue(refused.getMessage().contains("no healthy slave"), refused.getMessage());
            alone.unwrap(MacroCluster.class).shutdown();
        }
        String file = "jdbc:macrodb:" + engine.name + ":file:" + dir.resolve("shop").toAbsolutePath()
                + ";macrodb.replicas=2";
        try (Connection durable = Engine.connect(file)) {
            MacroCluster cluster = durable.unwrap(MacroCluster.class);
            SQLException refused = assertThrows(SQLException.class, () -> cluster.failReplica(0));
            assertEquals(MacroSqlState.FEATURE_NOT_SUPPORTED, refused.getSQLState());
            assertTrue(refused.getMessage().contains("file database"), refused.getMessage());
            assertEquals(ReplicaRole.MASTER, cluster.replicas().get(0).role());
            assertEquals(0, cluster.replicas().get(0).index());
            cluster.shutdown();
        }
    }
}
