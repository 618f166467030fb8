package io.macrodb.e2e;

import io.macrodb.api.MacroSqlState;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HSQLDB 2.7.4 in MVCC mode loses a wake-up: a writer that meets a row another transaction changed can enter itself
 * among that transaction's waiters after the change was undone (a rollback to a savepoint) and the transaction ended,
 * and then waits until the other session ends another transaction, for ever if its connection was closed (README,
 * Engines; {@code HsqldbStaleLockWaits}). With HSQLDB alone the workload below, writers rolling back to a savepoint,
 * each connection closed after one to three transactions, left a writer waiting for a closed session within seconds
 * in each of 7 runs of 5 to 20 s (2026-11-29). MacroDB's probe wakes such writers; this test fails without it: some
 * writer never returns.
 */
class HsqldbStaleLockWaitTest {

    private static final int WRITERS = 6;
    private static final long RUN_MILLIS = 5_000;

    @ParameterizedTest
    @ValueSource(strings = {"mvcc", "mvlocks", "locks"})
    void writersRollingBackToASavepointAndClosingTheirConnectionsNeverWaitForAClosedSession(String mode)
            throws Exception {
        String url = Engine.HSQLDB.url(2) + ";hsqldb.tx=" + mode + ";macrodb.probeIntervalMs=200";
        try (Connection admin = Engine.connect(url)) {
            Engine.execute(admin, "CREATE TABLE counter (id INT PRIMARY KEY, hits INT NOT NULL)",
                    "INSERT INTO counter SELECT x, 0 FROM UNNEST(SEQUENCE_ARRAY(0, 99, 1)) AS n(x)");
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong commits = new AtomicLong();
            Queue<String> failures = new ConcurrentLinkedQueue<>();
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                Thread writer = new Thread(() -> write(url, stop, commits, failures), "churning-writer-" + w);
                writer.setDaemon(true);
                writers.add(writer);
                writer.start();
            }
            Thread.sleep(RUN_MILLIS);
            stop.set(true);
            for (Thread writer : writers) {
                writer.join(15_000);
                assertFalse(writer.isAlive(), () -> writer.getName() + " still waits 15 s after the run ended:\n"
                        + HangWatch.threadDump() + HangWatch.hsqldbSessions());
            }
            assertTrue(failures.isEmpty(), () -> "writers failed: " + failures);
            assertTrue(commits.get() > 0, "some transactions committed");
            assertEquals(List.of(String.valueOf(20 * commits.get())),
                    Engine.rows(admin, "SELECT SUM(hits) FROM counter"),
                    "20 hits per commit, none of the 1000s rolled back to the savepoint");
            Engine.assertIdenticalAndShutdown(admin);
        }
    }

    /** Transactions of: under a savepoint add 1000 to 40 counters and roll that back; add 1 to 20 counters; commit. */
    private static void write(String url, AtomicBoolean stop, AtomicLong commits, Queue<String> failures) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (!stop.get()) {
            try (Connection c = Engine.connect(url)) {
                c.setAutoCommit(false);
                PreparedStatement undone = c.prepareStatement("UPDATE counter SET hits = hits + 1000 WHERE id < 40");
                PreparedStatement touch = c.prepareStatement(
                        "UPDATE counter SET hits = hits + 1 WHERE id >= ? AND id < ? + 20");
                for (int i = 1 + random.nextInt(3); i > 0 && !stop.get(); i--) {
                    try {
                        Savepoint savepoint = c.setSavepoint();
                        undone.executeUpdate();
                        c.rollback(savepoint);
                        int lo = random.nextInt(60);
                        touch.setInt(1, lo);
                        touch.setInt(2, lo);
                        touch.executeUpdate();
                        c.commit();
                        commits.incrementAndGet();
                    } catch (SQLException e) {
                        c.rollback();
                        if (!MacroSqlState.isRetryable(e)) {
                            failures.add(e.getSQLState() + " " + e.getMessage());
                            return;
                        }
                    }
                }
            } catch (SQLException e) {
                failures.add(e.getSQLState() + " " + e.getMessage());
                return;
            }
        }
    }
}
