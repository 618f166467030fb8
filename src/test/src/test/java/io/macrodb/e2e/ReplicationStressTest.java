package io.macrodb.e2e;

import io.macrodb.api.MacroCluster;
import io.macrodb.api.MacroSqlState;
import io.macrodb.api.ReplicaStatus;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Concurrent writers and readers through one cluster, then proof that the replicas are identical. Each client mixes
 * update transactions (transfers between accounts, inserts with identity and timestamp defaults, sequence use,
 * deliberate rollbacks, statements that fail halfway) with read-only transactions that check:
 * <ul>
 *   <li>the total balance never changes (a read-only transaction sees a committed state, never a partial one);</li>
 *   <li>monotonic reads: every client's progress counter, as this client sees it, never goes back;</li>
 *   <li>read-your-writes: a client's next read-only transaction sees its own last committed progress.</li>
 * </ul>
 * If a slave served a stale or partial state, or an applier diverged, one of these or the final verification fails.
 */
class ReplicationStressTest {

    private static final int CLIENTS = 8;
    private static final int ACCOUNTS = 50;
    private static final long INITIAL_BALANCE = 1_000;
    private static final long RUN_MILLIS = 2_500;

    static Stream<Arguments> engineAndReplicas() {
        List<Arguments> cases = new ArrayList<>();
        for (Engine engine : Engine.values()) {
            for (int replicas : new int[] {1, 2, 4}) {
                cases.add(Arguments.of(engine, replicas));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}, replicas={1}")
    @MethodSource("engineAndReplicas")
    void concurrentWritersAndReadersKeepReplicasExactAndReadsConsistent(Engine engine, int replicas)
            throws Exception {
        String url = engine.url(replicas);
        try (Connection setup = Engine.connect(url)) {
            Engine.execute(setup,
                    "CREATE TABLE account (id INT PRIMARY KEY, balance BIGINT NOT NULL)",
                    "CREATE TABLE event (id " + engine.identityType + " PRIMARY KEY, client INT, "
                            + "seq_no BIGINT, noise DOUBLE, created TIMESTAMP DEFAULT CURRENT_TIMESTAMP)",
                    "CREATE TABLE progress (client INT PRIMARY KEY, n BIGINT NOT NULL)",
                    "CREATE SEQUENCE ticket START WITH 1");
            setup.setAutoCommit(false);
            try (PreparedStatement insert = setup.prepareStatement("INSERT INTO account VALUES (?, ?)")) {
                for (int i = 0; i < ACCOUNTS; i++) {
                    insert.setInt(1, i);
                    insert.setLong(2, INITIAL_BALANCE);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            try (PreparedStatement insert = setup.prepareStatement("INSERT INTO progress VALUES (?, 0)")) {
                for (int c = 0; c < CLIENTS; c++) {
                    insert.setInt(1, c);
                    insert.executeUpdate();
                }
            }
            setup.commit();

            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            AtomicLong committedEvents = new AtomicLong();
            AtomicLong readOnlyTransactions = new AtomicLong();
            long deadline = System.currentTimeMillis() + RUN_MILLIS;
            List<Thread> threads = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                Client client = new Client(url, engine, c, deadline, committedEvents, readOnlyTransactions);
                Thread thread = new Thread(() -> {
                    try {
                        client.run();
                    } catch (Throwable t) {
                        failures.add(t);
                    }
                }, "client-" + c);
                threads.add(thread);
                thread.start();
            }
            for (Thread thread : threads) {
                thread.join();
            }
            if (!failures.isEmpty()) {
                AssertionError error = new AssertionError("client failures: " + failures.size());
                failures.forEach(error::addSuppressed);
                throw error;
            }
            assertTrue(readOnlyTransactions.get() > CLIENTS, "read-only transactions ran");

            setup.setAutoCommit(true);
            setup.setReadOnly(true);
            try (ResultSet rows = setup.createStatement().executeQuery("SELECT SUM(balance) FROM account")) {
                rows.next();
                assertEquals(ACCOUNTS * INITIAL_BALANCE, rows.getLong(1));
            }
            try (ResultSet rows = setup.createStatement().executeQuery("SELECT COUNT(*) FROM event")) {
                rows.next();
                assertEquals(committedEvents.get(), rows.getLong(1), "every committed event, no rolled-back one");
            }
            MacroCluster cluster = setup.unwrap(MacroCluster.class);
            assertEquals(replicas, cluster.replicas().size());
            for (ReplicaStatus status : cluster.replicas()) {
                assertTrue(status.health() == io.macrodb.api.ReplicaHealth.HEALTHY, status::toString);
            }
            Engine.assertIdenticalAndShutdown(setup);
        }
    }

    /** One client thread: its own connection, its own random stream, its own view of everyone's progress. */
    private static final class Client {
        private final String url;
        private final Engine engine;
        private final int id;
        private final long deadline;
        private final AtomicLong committedEvents;
        private final AtomicLong readOnlyTransactions;
        private final Random random;
        private final long[] seenProgress = new long[CLIENTS];
        private long myProgress;

        Client(String url, Engine engine, int id, long deadline, AtomicLong committedEvents,
               AtomicLong readOnlyTransactions) {
            this.url = url;
            this.engine = engine;
            this.id = id;
            this.deadline = deadline;
            this.committedEvents = committedEvents;
            this.readOnlyTransactions = readOnlyTransactions;
            this.random = new Random(id);
        }

        void run() throws SQLException {
            try (Connection connection = Engine.connect(url)) {
                connection.setAutoCommit(false);
                while (System.currentTimeMillis() < deadline) {
                    int dice = random.nextInt(10);
                    try {
                        if (dice < 4) {
                            read(connection);
                        } else {
                            write(connection, dice);
                        }
                    } catch (SQLException e) {
                        connection.rollback();
                        if (!isConflict(e)) {
                            throw e;
                        }
                    }
                }
            }
        }

        private static boolean isConflict(SQLException e) {
            String state = e.getSQLState();
            return MacroSqlState.isRetryable(e) || "40001".equals(state) || "HYT00".equals(state)
                    || (state != null && state.startsWith("40")) || Engine.isH2RollbackRace(e);
        }

        private void write(Connection connection, int dice) throws SQLException {
            connection.setReadOnly(false);
            int from = random.nextInt(ACCOUNTS);
            int to = random.nextInt(ACCOUNTS);
            long amount = 1 + random.nextInt(50);
            Engine.execute(connection,
                    "UPDATE account SET balance = balance - " + amount + " WHERE id = " + from,
                    "UPDATE account SET balance = balance + " + amount + " WHERE id = " + to,
                    "INSERT INTO event (client, seq_no, noise) VALUES (" + id + ", NEXT VALUE FOR ticket, RAND())");
            if (dice == 9) {
                // A statement that fails halfway: its first row is written (and captured) before the duplicate.
                try {
                    Engine.execute(connection, "INSERT INTO account VALUES (" + (1000 + id) + ", 0), (0, 0)");
                    throw new AssertionError("duplicate key accepted");
                } catch (SQLException expected) {
                    if (!"23505".equals(expected.getSQLState())) {
                        throw expected; // a lock conflict instead: the transaction is retried
                    }
                }
            }
            if (dice == 8) {
                connection.rollback(); // a deliberate rollback: nothing of it may reach any replica
                return;
            }
            Engine.execute(connection, "UPDATE progress SET n = n + 1 WHERE client = " + id);
            connection.commit();
            myProgress++;
            committedEvents.incrementAndGet();
        }

        private void read(Connection connection) throws SQLException {
            connection.setReadOnly(true);
            try (var statement = connection.createStatement()) {
                try (ResultSet sum = statement.executeQuery("SELECT SUM(balance), COUNT(*) FROM account")) {
                    sum.next();
                    assertEquals(ACCOUNTS * INITIAL_BALANCE, sum.getLong(1), "total balance in one snapshot");
                    assertEquals(ACCOUNTS, sum.getLong(2), "no half-failed statement left a row behind");
                }
                try (ResultSet progress = statement.executeQuery("SELECT client, n FROM progress")) {
                    while (progress.next()) {
                        int client = progress.getInt(1);
                        long n = progress.getLong(2);
                        assertTrue(n >= seenProgress[client], "client " + id + " saw client " + client
                                + " go back from " + seenProgress[client] + " to " + n);
                        seenProgress[client] = n;
                    }
                }
                assertTrue(seenProgress[id] >= myProgress, "client " + id + " does not see its own commit "
                        + myProgress + " (saw " + seenProgress[id] + ")");
            }
            connection.commit();
            readOnlyTransactions.incrementAndGet();
        }
    }
}
