package io.macrodb.runtime.cluster;

import io.macrodb.api.MacroSqlState;
import io.macrodb.api.ReplicaHealth;
import io.macrodb.api.ReplicaRole;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Readers waiting for a replica's version: woken when it is reached, never lost, not woken before. */
class ReplicaVersionWaitTest {

    /**
     * Many readers wait for versions just ahead while one thread advances as fast as it can: a wake-up lost between
     * a reader's check and its park would leave that reader asleep until its timeout, which fails the test.
     */
    @Test
    void noReaderSleepsThroughTheVersionItWaitsFor() throws Exception {
        Replica replica = new Replica(1, "test", ReplicaRole.SLAVE, ReplicaHealth.HEALTHY);
        int readers = 6;
        long last = 200_000;
        ExecutorService pool = Executors.newFixedThreadPool(readers);
        try {
            List<Future<Integer>> waits = new ArrayList<>();
            for (int r = 0; r < readers; r++) {
                int stride = r + 1;
                waits.add(pool.submit(() -> {
                    int waited = 0;
                    for (long v = stride; v <= last; v = replica.version() + stride) {
                        replica.awaitVersion(v, 10_000); // a lost wake-up would take the whole timeout and throw
                        assertTrue(replica.version() >= v);
                        waited++;
                    }
                    return waited;
                }));
            }
            for (long v = 1; v <= last; v++) {
                replica.advanceTo(v);
            }
            for (Future<Integer> wait : waits) {
                assertTrue(wait.get(60, TimeUnit.SECONDS) > 0);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** An advance short of a reader's version leaves it parked; the one that reaches it lets it go. */
    @Test
    void aReaderWaitsUntilItsOwnVersionIsReached() throws Exception {
        Replica replica = new Replica(1, "test", ReplicaRole.SLAVE, ReplicaHealth.HEALTHY);
        Thread reader = new Thread(() -> {
            try {
                replica.awaitVersion(10, 30_000);
            } catch (SQLException e) {
                throw new AssertionError(e);
            }
        });
        reader.start();
        awaitParked(reader);
        for (long v = 1; v < 10; v++) {
            replica.advanceTo(v);
        }
        reader.join(200);
        assertTrue(reader.isAlive(), "version 9 must not release a reader that needs 10");
        replica.advanceTo(10);
        reader.join(10_000);
        assertTrue(!reader.isAlive(), "version 10 releases it");
    }

    @Test
    void aFailedReplicaReleasesItsReadersWithARetryableError() throws Exception {
        Replica replica = new Replica(1, "test", ReplicaRole.SLAVE, ReplicaHealth.HEALTHY);
        SQLException[] failure = new SQLException[1];
        Thread reader = new Thread(() -> failure[0] = assertThrows(SQLException.class,
                () -> replica.awaitVersion(5, 30_000)));
        reader.start();
        awaitParked(reader);
        replica.setHealth(ReplicaHealth.FAILED);
        reader.join(10_000);
        assertEquals(MacroSqlState.REPLICA_LOST, failure[0].getSQLState());
    }

    @Test
    void pausingAReplicaSendsItsWaitingReadersElsewhereButNotOthers() throws Exception {
        Replica replica = new Replica(1, "test", ReplicaRole.SLAVE, ReplicaHealth.HEALTHY);
        long[] reader = new long[1];
        Thread routed = new Thread(() -> {
            try {
                reader[0] = replica.awaitVersionWhileRoutable(5, 30_000);
            } catch (SQLException e) {
                reader[0] = -2;
            }
        });
        Thread verifier = new Thread(() -> {
            try {
                replica.awaitVersion(5, 30_000); // a check that needs this very replica at version 5 waits on
            } catch (SQLException ignored) {
                // not expected: the assertion below sees it still waiting
            }
        });
        routed.start();
        verifier.start();
        awaitParked(routed);
        awaitParked(verifier);
        replica.setPaused(true);
        routed.join(10_000);
        assertEquals(-1, reader[0], "a routed reader gives up at once: it is sent elsewhere");
        Thread.sleep(100);
        assertTrue(verifier.isAlive(), "a plain wait goes on through the pause");
        replica.setPaused(false);
        replica.advanceTo(5);
        verifier.join(10_000);
        assertTrue(!verifier.isAlive());
    }

    @Test
    void aReaderGivesUpAtItsTimeout() {
        Replica replica = new Replica(1, "test", ReplicaRole.SLAVE, ReplicaHealth.HEALTHY);
        SQLException e = assertThrows(SQLException.class, () -> replica.awaitVersion(1, 50));
        assertEquals(MacroSqlState.READ_WAIT_TIMEOUT, e.getSQLState());
    }

    private static void awaitParked(Thread thread) throws InterruptedException {
        while (thread.getState() != Thread.State.TIMED_WAITING) {
            Thread.sleep(5);
        }
    }
}
