package io.macrodb.e2e;

import io.macrodb.api.MacroCluster;
import io.macrodb.api.MacroSqlState;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A workload for failure tests: transfers between accounts (update transactions, each logging one row) keep the
 * total balance, and audits (read-only transactions, on whatever replica they get) check it. Both retry on
 * MacroDB's retryable states; anything else is an error the test reports.
 */
final class TransferWorkload {

    static final int ACCOUNTS = 100;
    static final int BALANCE = 100;
    static final long TOTAL = (long) ACCOUNTS * BALANCE;
    static final int FILLER_ROWS = 20_000;

    private TransferWorkload() {
    }

    /** Starts {@code writers} transfer clients and {@code auditors} audit clients against {@code url}. */
    static Running start(String url, int writers, int auditors) {
        return new Running(url, writers, auditors);
    }

    /** Clients running in the background until {@link #stop}. */
    static final class Running implements AutoCloseable {
        private final ExecutorService pool;
        private final AtomicBoolean stop = new AtomicBoolean();
        private final AtomicLong commits = new AtomicLong();
        private final AtomicLong retried = new AtomicLong();
        private final Queue<Throwable> errors = new ConcurrentLinkedQueue<>();
        private final List<Future<?>> clients = new ArrayList<>();

        private Running(String url, int writers, int auditors) {
            pool = Executors.newFixedThreadPool(writers + auditors);
            for (int i = 0; i < writers; i++) {
                clients.add(pool.submit(() -> transfers(url, stop, commits, retried, errors)));
            }
            for (int i = 0; i < auditors; i++) {
                clients.add(pool.submit(() -> audits(url, stop, retried, errors)));
            }
        }

        /** Transfers whose commit returned without an error. */
        long commits() {
            return commits.get();
        }

        /**
         * Stops the clients, then checks what a replica failing under them must leave: no client failed other than
         * retryably, and every transfer whose commit returned is in the database once (none lost, none applied
         * twice).
         */
        void stopAndCheckNoneLost(Connection admin) throws Exception {
            stop.set(true);
            for (Future<?> client : clients) {
                client.get(60, TimeUnit.SECONDS);
            }
            assertTrue(errors.isEmpty(), () -> "clients failed: " + errors);
            assertEquals(commits(), count(admin, "SELECT COUNT(*) FROM transfer"),
                    "every transfer whose commit returned is there, once: none lost, none applied twice");
        }

        @Override
        public void close() {
            stop.set(true);
            pool.shutdownNow();
        }
    }

    /**
     * After one replica failed under the clients: the total balance is intact, one failure was counted, and every
     * replica is identical (the cluster is then shut down).
     */
    static void assertIntactAfterOneFailure(Connection admin) throws SQLException {
        assertEquals(TOTAL, total(admin));
        assertEquals(1, admin.unwrap(MacroCluster.class).metrics().failures());
        Engine.assertIdenticalAndShutdown(admin);
    }

    static void load(Connection admin, Engine engine) throws SQLException {
        Engine.execute(admin, "CREATE TABLE account (id INT PRIMARY KEY, balance INT NOT NULL)",
                "CREATE TABLE transfer (id " + engine.identityType + " PRIMARY KEY, source INT, target INT, "
                        + "amount INT, made_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP)",
                "CREATE TABLE filler (id INT PRIMARY KEY, payload VARCHAR(100))");
        admin.setAutoCommit(false);
        try (PreparedStatement account = admin.prepareStatement("INSERT INTO account VALUES (?, ?)");
             PreparedStatement filler = admin.prepareStatement("INSERT INTO filler VALUES (?, ?)")) {
            for (int i = 0; i < ACCOUNTS; i++) {
                account.setInt(1, i);
                account.setInt(2, BALANCE);
                account.addBatch();
            }
            account.executeBatch();
            for (int i = 0; i < FILLER_ROWS; i++) { // enough rows for a copy to take a while under load
                filler.setInt(1, i);
                filler.setString(2, "row " + i + " of the table that makes a copy take time");
                filler.addBatch();
            }
            filler.executeBatch();
        }
        admin.commit();
        admin.setAutoCommit(true);
    }

    static void transfers(String url, AtomicBoolean stop, AtomicLong commits, AtomicLong retried,
                                  Queue<Throwable> errors) {
        try (Connection c = Engine.connect(url)) {
            c.setAutoCommit(false);
            PreparedStatement debit = c.prepareStatement("UPDATE account SET balance = balance - ? WHERE id = ?");
            PreparedStatement credit = c.prepareStatement("UPDATE account SET balance = balance + ? WHERE id = ?");
            PreparedStatement log = c.prepareStatement(
                    "INSERT INTO transfer (source, target, amount) VALUES (?, ?, ?)");
            ThreadLocalRandom random = ThreadLocalRandom.current();
            while (!stop.get()) {
                int from = random.nextInt(ACCOUNTS);
                int to = random.nextInt(ACCOUNTS);
                int amount = random.nextInt(1, 10);
                try {
                    debit.setInt(1, amount);
                    debit.setInt(2, from);
                    debit.executeUpdate();
                    credit.setInt(1, amount);
                    credit.setInt(2, to);
                    credit.executeUpdate();
                    log.setInt(1, from);
                    log.setInt(2, to);
                    log.setInt(3, amount);
                    log.executeUpdate();
                    c.commit();
                    commits.incrementAndGet();
                } catch (SQLException e) {
                    rollBackForRetry(c, e, retried);
                }
            }
        } catch (Throwable t) {
            errors.add(t);
        }
    }

    /** Read-only transactions: the total never changes, and no client ever sees fewer transfers than before. */
    static void audits(String url, AtomicBoolean stop, AtomicLong retried, Queue<Throwable> errors) {
        try (Connection c = Engine.connect(url)) {
            c.setReadOnly(true);
            c.setAutoCommit(false);
            long seen = 0;
            while (!stop.get()) {
                try {
                    long total = total(c);
                    long transfers = count(c, "SELECT COUNT(*) FROM transfer");
                    long filler = count(c, "SELECT COUNT(*) FROM filler");
                    c.commit();
                    if (total != TOTAL || filler != FILLER_ROWS || transfers < seen) {
                        throw new AssertionError("read total " + total + ", " + filler + " filler rows, "
                                + transfers + " transfers after seeing " + seen);
                    }
                    seen = transfers;
                } catch (SQLException e) {
                    rollBackForRetry(c, e, retried);
                }
            }
        } catch (Throwable t) {
            errors.add(t);
        }
    }

    /** Rolls back a transaction that failed; rethrows unless MacroDB says running it again is right. */
    private static void rollBackForRetry(Connection c, SQLException failure, AtomicLong retried) throws SQLException {
        c.rollback();
        if (!MacroSqlState.isRetryable(failure)) {
            throw failure;
        }
        retried.incrementAndGet();
    }

    static long total(Connection c) throws SQLException {
        return count(c, "SELECT SUM(balance) FROM account");
    }

    static long count(Connection c, String sql) throws SQLException {
        try (var statement = c.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
