package io.macrodb.runtime.engine.hsqldb;

import org.hsqldb.Session;
import org.hsqldb.jdbc.JDBCConnection;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
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
 * HSQLDB alone in MVCC mode, with {@link HsqldbStaleLockWaits#release} called every millisecond, as the probe would
 * call it (less often): writers that roll back to a savepoint and close their connections after one to three
 * transactions, and a schema change of another table every few milliseconds. Without the release a writer waits for
 * a closed session within seconds; with a first version of it, which left alone a wait for a session beginning its
 * next statement, writer, statement and schema change waited for each other for good (a review, 2026-11-29: 6 of 6
 * runs within 15 s). Every writer must return once the run ends, and no rolled-back update may count.
 */
class HsqldbStaleLockWaitsTest {

    private static final String URL = "jdbc:hsqldb:mem:stale_waits;hsqldb.tx=mvcc";
    private static final int WRITERS = 6;
    private static final long RUN_MILLIS = 8_000;

    @Test
    void writersBesideSchemaChangesNeverWaitForASessionInNoTransaction() throws Exception {
        try (Connection admin = DriverManager.getConnection(URL, "SA", "")) {
            try (Statement ddl = admin.createStatement()) {
                ddl.execute("CREATE TABLE counter (id INT PRIMARY KEY, hits INT NOT NULL)");
                ddl.execute("INSERT INTO counter SELECT x, 0 FROM UNNEST(SEQUENCE_ARRAY(0, 99, 1)) AS n(x)");
                ddl.execute("CREATE TABLE side (a INT)");
            }
            Session anySession = (Session) admin.unwrap(JDBCConnection.class).getSession();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong commits = new AtomicLong();
            Queue<String> failures = new ConcurrentLinkedQueue<>();
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                threads.add(start("writer-" + w, () -> write(stop, commits, failures)));
            }
            threads.add(start("schema-changer", () -> changeSchema(stop, failures)));
            AtomicBoolean writersDone = new AtomicBoolean(); // the release goes on while the writers finish
            Thread releaser = start("releaser", () -> {
                while (!writersDone.get()) {
                    HsqldbStaleLockWaits.release(anySession);
                    sleep(1);
                }
            });
            Thread.sleep(RUN_MILLIS);
            stop.set(true);
            try {
                for (Thread thread : threads) {
                    thread.join(10_000);
                    assertFalse(thread.isAlive(), () -> thread.getName() + " still waits 10 s after the run ended:\n"
                            + sessions(anySession));
                }
            } finally {
                writersDone.set(true);
                releaser.join(10_000);
            }
            assertTrue(failures.isEmpty(), () -> "failures: " + failures);
            assertTrue(commits.get() > 0, "some transactions committed");
            try (Statement query = admin.createStatement();
                 ResultSet sum = query.executeQuery("SELECT SUM(hits) FROM counter")) {
                sum.next();
                assertEquals(20 * commits.get(), sum.getLong(1), "20 hits per commit, none of the rolled-back 1000s");
            }
            try (Statement shutdown = admin.createStatement()) {
                shutdown.execute("SHUTDOWN");
            }
        }
    }

    /** Transactions of: under a savepoint add 1000 to 40 counters and roll that back; add 1 to 20 counters; commit. */
    private static void write(AtomicBoolean stop, AtomicLong commits, Queue<String> failures) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (!stop.get()) {
            try (Connection c = DriverManager.getConnection(URL, "SA", "")) {
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
                        if (!"40001".equals(e.getSQLState()) && !isDeadlockCheckOverflow(e)) {
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

    /**
     * 40001 is MVCC's conflict (the transaction was rolled back). HSQLDB's "General error" here is its deadlock
     * check's stack overflowing: it follows the waits round a cycle that a lost wake-up closes (a writer in a
     * transaction waiting for a session whose next statement waits for a schema change that waits for the writer's
     * transaction) until the release ends the stale wait (found by the review; HSQLDB alone, with or without the
     * release). The statement fails and the transaction is rolled back; the sum checks that nothing of it counted.
     */
    private static boolean isDeadlockCheckOverflow(SQLException e) {
        return "S1000".equals(e.getSQLState()) && "General error".equals(e.getMessage());
    }

    /** Adds and drops a column of a table no writer uses: DDL waits in MVCC mode for every open transaction. */
    private static void changeSchema(AtomicBoolean stop, Queue<String> failures) {
        try (Connection c = DriverManager.getConnection(URL, "SA", "");
             Statement ddl = c.createStatement()) {
            for (int i = 0; !stop.get(); i++) {
                ddl.execute("ALTER TABLE side ADD COLUMN b" + i + " INT");
                ddl.execute("ALTER TABLE side DROP COLUMN b" + i);
                sleep(5);
            }
        } catch (SQLException e) {
            failures.add("schema change: " + e.getSQLState() + " " + e.getMessage());
        }
    }

    /** Each session: in a transaction, waiting (its latch) and for whom, its statement; for a hang's diagnosis. */
    private static String sessions(Session anySession) {
        StringBuilder out = new StringBuilder();
        for (Session session : anySession.getDatabase().sessionManager.getAllSessions()) {
            out.append("session ").append(session.getId()).append(" inTx=").append(session.isInMidTransaction())
                    .append(" latch=").append(session.latch.getCount()).append(" waitsFor=[");
            for (int i = 0; i < session.waitedSessions.size(); i++) {
                Session holder = session.waitedSessions.get(i);
                out.append(holder.getId()).append(holder.isClosed() ? " closed" : "").append(" inTx=")
                        .append(holder.isInMidTransaction()).append("; ");
            }
            org.hsqldb.Statement current = session.sessionContext.currentStatement;
            out.append("] ").append(current == null ? "" : current.getSQL()).append('\n');
        }
        return out.toString();
    }

    private static Thread start(String name, Runnable work) {
        Thread thread = new Thread(work, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
