package io.macrodb.e2e;

import io.macrodb.api.MacroCluster;
import io.macrodb.api.VerificationReport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code verify()} holds commits and waits for every slave to reach the master's version; a rebuild pauses the slave
 * it copies from, then needs the commits held for a moment to hand that slave's queue to the new one. A verify
 * waiting for a lagging slave when a rebuild paused that very slave waited for a slave that could not move, while
 * the rebuild waited for the verify: both gave up only after {@code macrodb.readWaitTimeoutMs}. Now a rebuild does
 * not pause its source while a verify runs (nor a verify begin while a copy runs). Forced here: slave 2 is stalled
 * behind a row lock with write sets queued, a verify waits for it, a rebuild of slave 1 (from slave 2) starts, then
 * the stall ends: the verify must finish at once, and the rebuild after it.
 */
class VerifyDuringRebuildTest {

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aVerifyWaitingForALaggingSlaveIsNotBlockedByARebuildFromIt(Engine engine) throws Exception {
        // One write set per slave commit, so that a paused slave stops with the ones behind it still queued; and H2's
        // applier must wait for the row lock longer than H2's default 2 s on a loaded machine.
        String lockTimeout = engine == Engine.H2 ? ";DEFAULT_LOCK_TIMEOUT=30000" : "";
        try (Connection c = Engine.connect(engine.url(3) + lockTimeout
                + ";macrodb.readWaitTimeoutMs=20000;macrodb.applyBatch=1")) {
            MacroCluster cluster = c.unwrap(MacroCluster.class);
            Engine.execute(c, "CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (0, 0)");
            cluster.verify(); // every slave has caught up
            try (Connection stall = Engine.behindMacroDbsBack(cluster, 2, "UPDATE t SET v = v WHERE id = 0")) {
                Engine.execute(c, "UPDATE t SET v = 1 WHERE id = 0"); // slave 2's applier blocks on this one
                Engine.awaitApplierBlocked();
                Engine.execute(c, "INSERT INTO t VALUES (1, 1)", "INSERT INTO t VALUES (2, 2)"); // these queue

                CompletableFuture<VerificationReport> verify = new CompletableFuture<>();
                Thread verifier = new Thread(() -> {
                    try {
                        verify.complete(cluster.verify());
                    } catch (Throwable e) {
                        verify.completeExceptionally(e);
                    }
                }, "verifier");
                verifier.start();
                awaitWaiting(verifier); // commits held, waiting for slave 2

                CompletableFuture<Void> rebuild = CompletableFuture.runAsync(() -> {
                    try {
                        cluster.rebuildReplica(1); // its source is slave 2, the only other healthy slave
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                Thread.sleep(300); // the rebuild asks to pause slave 2, or waits for the verify
                stall.rollback();

                VerificationReport report = verify.get(5, TimeUnit.SECONDS); // the timeout is 20 s
                assertTrue(report.identical(), report::toString);
                rebuild.get(20, TimeUnit.SECONDS);
            }
            Engine.awaitAllHealthy(cluster, 3);
            Engine.assertIdenticalAndShutdown(c);
        }
    }

    private static void awaitWaiting(Thread thread) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (thread.getState() != Thread.State.WAITING && thread.getState() != Thread.State.TIMED_WAITING) {
            assertTrue(System.nanoTime() < deadline, "the verify never waited");
            Thread.sleep(5);
        }
        Thread.sleep(100); // parked for the slave, not on the way to it
    }
}
