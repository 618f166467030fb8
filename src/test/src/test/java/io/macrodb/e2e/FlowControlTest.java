package io.macrodb.e2e;

import io.macrodb.api.MacroCluster;
import io.macrodb.api.ReplicaHealth;
import io.macrodb.metrics.MacroDbMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code macrodb.maxLag}: a slave that cannot keep up holds commits back instead of letting its queue grow. */
class FlowControlTest {

    private static final int MAX_LAG = 3;
    private static final int INSERTS = 10;

    /**
     * An idle applier parks and is woken only by the enqueue that finds it parked (not by every enqueue). A wake-up
     * lost between its last look at the queue and its park would leave each write set waiting out the park's 50 ms
     * timeout: 100 commits, each awaited on the slave, would then take 5 s, not the tens of milliseconds they take.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void anIdleApplierIsWokenByTheNextCommit(Engine engine) throws Exception {
        try (Connection writer = Engine.connect(engine.url(2))) {
            Engine.execute(writer, "CREATE TABLE t (id INT PRIMARY KEY)");
            MacroCluster cluster = writer.unwrap(MacroCluster.class);
            long start = System.nanoTime();
            for (int i = 0; i < 100; i++) {
                Engine.execute(writer, "INSERT INTO t VALUES (" + i + ")");
                long committed = cluster.committedVersion();
                while (cluster.replicas().get(1).version() < committed) {
                    Thread.onSpinWait();
                }
                Thread.sleep(1); // the applier finds its queue empty and parks again
            }
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(millis < 2_500, "100 commits took " + millis + " ms to reach the slave: wake-ups were lost");
            Engine.assertIdenticalAndShutdown(writer);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void commitsWaitWhileASlaveIsMoreThanMaxLagBehind(Engine engine) throws Exception {
        String url = engine.url(2) + ";macrodb.maxLag=" + MAX_LAG;
        ExecutorService writerThread = Executors.newSingleThreadExecutor();
        try (Connection writer = Engine.connect(url)) {
            Engine.execute(writer, "CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (0, 0)");
            MacroCluster cluster = writer.unwrap(MacroCluster.class);
            cluster.verify(); // the slave has caught up

            // Stall the slave's applier behind MacroDB's back: a transaction of our own on the slave's database
            // holds row 0 locked (it writes the value row 0 already has and rolls back, so nothing diverges).
            try (Connection slave = Engine.behindMacroDbsBack(cluster, 1, "UPDATE t SET v = v WHERE id = 0")) {
                long stalledAt = cluster.replicas().get(1).version();

                Future<?> writes = writerThread.submit(() -> {
                    Engine.execute(writer, "UPDATE t SET v = 1 WHERE id = 0"); // the applier blocks on this one
                    for (int i = 1; i <= INSERTS; i++) {
                        Engine.execute(writer, "INSERT INTO t VALUES (" + i + ", " + i + ")");
                    }
                    return null;
                });
                long committed = awaitSteady(cluster);
                assertFalse(writes.isDone(), "the writer must be held back while the slave is stalled");
                assertEquals(stalledAt + MAX_LAG + 1, committed,
                        "commits go on until one leaves the slave more than maxLag behind, and that one waits");

                slave.rollback(); // the applier goes on, and with it the writer
                writes.get(30, TimeUnit.SECONDS);
            }
            assertEquals(INSERTS + 1, countRows(writer));
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            new MacroDbMetrics(cluster).bindTo(registry);
            assertTrue(registry.get("macrodb.commits.lag.wait").functionTimer().count() >= 1,
                    "the held-back commit is counted");
            Engine.assertIdenticalAndShutdown(writer);
        } finally {
            writerThread.shutdownNow();
        }
    }

    /**
     * A pool closes or aborts a connection whose commit is held back by flow control (already committed, waiting for a
     * slave): neither waits for it. With the close made exclusive with commits (2026-11-23), the held-back commit kept
     * its connection's lock, and abort from a pool's thread waited as long as the slave lagged (found by a review).
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void closeAndAbortDoNotWaitForACommitHeldBack(Engine engine) throws Exception {
        String url = engine.url(2) + ";macrodb.maxLag=1;macrodb.readWaitTimeoutMs=600000";
        ExecutorService writerThreads = Executors.newFixedThreadPool(2);
        try (Connection admin = Engine.connect(url)) {
            Engine.execute(admin, "CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (0, 0)");
            MacroCluster cluster = admin.unwrap(MacroCluster.class);
            cluster.verify(); // the slave has caught up
            try (Connection slave = Engine.behindMacroDbsBack(cluster, 1, "UPDATE t SET v = v WHERE id = 0")) {
                Engine.execute(admin, "UPDATE t SET v = 1 WHERE id = 0"); // the applier blocks on this one
                long stalled = cluster.committedVersion();
                List<Future<?>> commits = new java.util.ArrayList<>();
                for (boolean abort : new boolean[]{false, true}) {
                    Connection writer = Engine.connect(url);
                    int id = abort ? 2 : 1;
                    commits.add(writerThreads.submit(() -> {
                        Engine.execute(writer, "INSERT INTO t VALUES (" + id + ", 0)"); // more than maxLag behind: held
                        return null;
                    }));
                    while (cluster.committedVersion() < stalled + id) {
                        Thread.sleep(5); // until the writer has committed: then it is held back
                    }
                    Thread.sleep(50);
                    if (abort) {
                        writer.abort(Runnable::run);
                    } else {
                        writer.close();
                    }
                    assertTrue(writer.isClosed());
                    assertFalse(commits.get(id - 1).isDone(), "the commit is still held back, the close returned");
                }
                slave.rollback(); // the applier goes on, and the held-back commits return
                for (Future<?> commit : commits) {
                    commit.get(30, TimeUnit.SECONDS);
                }
            }
            assertEquals(3, countRows(admin), "both commits had committed before they were held back");
            Engine.assertIdenticalAndShutdown(admin);
        } finally {
            writerThreads.shutdownNow();
        }
    }

    /** A slave that fails stops holding commits back at once: the writer does not wait out the timeout. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aSlaveThatFailsHoldsNoCommitBack(Engine engine) throws Exception {
        String url = engine.url(2) + ";macrodb.maxLag=" + MAX_LAG + ";macrodb.readWaitTimeoutMs=600000";
        runWhileTheSlaveIsStalled(url, 2, 1, true, (cluster, writes) -> {
            awaitSteady(cluster);
            assertFalse(writes.isDone(), "the writer is held back while the slave is stalled");
            cluster.failReplica(1);
            writes.get(30, TimeUnit.SECONDS); // the timeout is ten minutes: only the failure can have let it go
        });
    }

    /**
     * A slave paused to copy a new slave from it falls behind on purpose and holds no commit back: here the writer is
     * already waiting for it (it is stalled) when slave 1 fails and the rebuild pauses slave 2, and is let go at once,
     * long before the stall ends.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aSlavePausedForACopyHoldsNoCommitBack(Engine engine) throws Exception {
        String url = engine.url(3) + ";macrodb.maxLag=" + MAX_LAG + ";macrodb.readWaitTimeoutMs=600000";
        runWhileTheSlaveIsStalled(url, 3, 2, false, (cluster, writes) -> {
            awaitSteady(cluster);
            assertFalse(writes.isDone(), "the writer waits for the stalled slave 2");
            cluster.failReplica(1); // the rebuild copies from slave 2: it pauses it
            writes.get(30, TimeUnit.SECONDS); // the timeout is ten minutes: only the pause can have let it go
        });
    }

    /** A slave that stays behind holds each commit back for at most readWaitTimeoutMs; the commits succeed. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aSlaveThatStaysBehindHoldsACommitForAtMostTheTimeout(Engine engine) throws Exception {
        String url = engine.url(2) + ";macrodb.maxLag=" + MAX_LAG + ";macrodb.readWaitTimeoutMs=200";
        runWhileTheSlaveIsStalled(url, 2, 1, false, (cluster, writes) -> {
            writes.get(30, TimeUnit.SECONDS); // INSERTS - MAX_LAG commits wait 200 ms each, with the slave stalled
            assertEquals(ReplicaHealth.HEALTHY, cluster.replicas().get(1).health(), "a slow slave is not failed");
            assertTrue(cluster.metrics().lagWaits() >= INSERTS - MAX_LAG, "each commit past maxLag waited");
        });
    }

    /**
     * Stalls slave {@code stalled}'s applier as above, runs the writer in the background, lets {@code check} watch,
     * then ends the stall and checks all {@code replicas} are healthy and identical.
     *
     * @param slaveFails whether {@code check} fails the stalled slave: its database is then shut down under the stall
     */
    private static void runWhileTheSlaveIsStalled(String url, int replicas, int stalled, boolean slaveFails,
                                                  StalledCheck check) throws Exception {
        ExecutorService writerThread = Executors.newSingleThreadExecutor();
        try (Connection writer = Engine.connect(url)) {
            Engine.execute(writer, "CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (0, 0)");
            MacroCluster cluster = writer.unwrap(MacroCluster.class);
            cluster.verify();
            Connection slave = Engine.behindMacroDbsBack(cluster, stalled, "UPDATE t SET v = v WHERE id = 0");
            try {
                Future<?> writes = writerThread.submit(() -> {
                    Engine.execute(writer, "UPDATE t SET v = 1 WHERE id = 0");
                    for (int i = 1; i <= INSERTS; i++) {
                        Engine.execute(writer, "INSERT INTO t VALUES (" + i + ", " + i + ")");
                    }
                    return null;
                });
                check.run(cluster, writes);
            } finally {
                closeStall(slave, slaveFails);
            }
            assertEquals(INSERTS + 1, countRows(writer));
            Engine.awaitAllHealthy(cluster, replicas);
            Engine.assertIdenticalAndShutdown(writer);
        } finally {
            writerThread.shutdownNow();
        }
    }

    /** Ends the stall; a failed slave's database is being shut down, and may refuse even that. */
    private static void closeStall(Connection slave, boolean slaveFailed) throws SQLException {
        try {
            slave.rollback();
            slave.close();
        } catch (SQLException e) {
            if (!slaveFailed) {
                throw e;
            }
        }
    }

    @FunctionalInterface
    private interface StalledCheck {
        void run(MacroCluster cluster, Future<?> writes) throws Exception;
    }

    /** The committed version once it has stopped moving for half a second. */
    private static long awaitSteady(MacroCluster cluster) throws InterruptedException {
        long last = -1;
        long current = cluster.committedVersion();
        while (current != last) {
            last = current;
            Thread.sleep(500);
            current = cluster.committedVersion();
        }
        return current;
    }

    private static int countRows(Connection connection) throws Exception {
        try (var rows = connection.createStatement().executeQuery("SELECT COUNT(*) FROM t")) {
            rows.next();
            return rows.getInt(1);
        }
    }
}
