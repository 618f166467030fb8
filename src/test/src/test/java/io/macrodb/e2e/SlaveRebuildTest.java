package io.macrodb.e2e;

import io.macrodb.api.MacroCluster;
import io.macrodb.api.MacroSqlState;
import io.macrodb.api.ReplicaHealth;
import io.macrodb.api.ReplicaStatus;
import io.macrodb.api.VerificationReport;
import io.macrodb.runtime.capture.CaptureScope;
import io.macrodb.runtime.capture.CaptureSink;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.DriverManager;
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
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Contract section 4 for slaves: a failed slave leaves routing at once, the transactions on it fail retryably, and a
 * new slave is built from a healthy replica while the cluster keeps serving, then joins when it has caught up.
 */
class SlaveRebuildTest {

    private static final int ACCOUNTS = 100;
    private static final int BALANCE = 100;
    private static final int FILLER_ROWS = 20_000;

    static Stream<Arguments> enginesAndReplicas() {
        // replicas=2: the only slave fails, the new one is copied from the master with update transactions held;
        // replicas=3: it is copied from the other slave, paused, while commits go on.
        return Stream.of(Engine.values()).flatMap(e -> Stream.of(Arguments.of(e, 2), Arguments.of(e, 3)));
    }

    @ParameterizedTest(name = "{0}, replicas={1}")
    @MethodSource("enginesAndReplicas")
    void aFailedSlaveIsRebuiltWhileWritersAndReadersRun(Engine engine, int replicas) throws Exception {
        String url = engine.url(replicas);
        ExecutorService clients = Executors.newFixedThreadPool(6);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong commits = new AtomicLong();
        AtomicLong retried = new AtomicLong();
        Queue<Throwable> errors = new ConcurrentLinkedQueue<>();
        try (Connection admin = Engine.connect(url)) {
            load(admin, engine);
            MacroCluster cluster = admin.unwrap(MacroCluster.class);
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                running.add(clients.submit(() -> transfers(url, stop, commits, retried, errors)));
            }
            for (int i = 0; i < 2; i++) {
                running.add(clients.submit(() -> audits(url, stop, retried, errors)));
            }
            Thread.sleep(300);

            String failedDatabase = cluster.replicas().get(1).database();
            cluster.failReplica(1);
            long commitsAtFailure = commits.get();
            assertTrue(cluster.replicas().get(1).health() != ReplicaHealth.HEALTHY,
                    "the failed slave leaves routing at once");
            List<ReplicaStatus> rebuilt = awaitAllHealthy(cluster, replicas);
            assertTrue(commits.get() > commitsAtFailure, "update transactions went on through the rebuild");
            assertTrue(!rebuilt.get(1).database().equals(failedDatabase),
                    "slave 1 was replaced by a new database: " + rebuilt);

            long routedBefore = routedTo(cluster, 1);
            Thread.sleep(500);
            stop.set(true);
            for (Future<?> client : running) {
                client.get(60, TimeUnit.SECONDS);
            }
            assertTrue(errors.isEmpty(), () -> "clients failed: " + errors);
            assertTrue(routedTo(cluster, 1) > routedBefore, "the new slave serves read-only transactions");
            assertEquals(1, cluster.metrics().failures());
            assertEquals((long) ACCOUNTS * BALANCE, total(admin), "no transfer was lost or applied twice");
            Engine.assertIdenticalAndShutdown(admin);
        } finally {
            stop.set(true);
            clients.shutdownNow();
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
        try (Connection writer = Engine.connect(engine.url(3) + ";macrodb.applyBatch=1")) {
            Engine.execute(writer, "CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (0, 0)");
            MacroCluster cluster = writer.unwrap(MacroCluster.class);
            cluster.verify();
            try (Connection source = DriverManager.getConnection(cluster.replicas().get(2).database())) {
                source.setAutoCommit(false);
                CaptureSink previous = CaptureScope.open(CaptureSink.IGNORE);
                try {
                    Engine.execute(source, "UPDATE t SET v = v WHERE id = 0"); // holds the row; changes nothing
                } finally {
                    CaptureScope.close(previous);
                }
                Engine.execute(writer, "UPDATE t SET v = 1 WHERE id = 0"); // slave 2's applier blocks on this one
                for (int i = 1; i <= 10; i++) {
                    Engine.execute(writer, "INSERT INTO t VALUES (" + i + ", " + i + ")");
                }
                cluster.failReplica(1); // the only healthy slave left to copy from is slave 2
                Thread.sleep(500); // the rebuild asks slave 2's applier to pause: it will, once unblocked
                assertEquals(ReplicaHealth.CATCHING_UP, cluster.replicas().get(1).health());
                source.rollback();
            }
            awaitAllHealthy(cluster, 3);
            assertEquals(11, count(writer, "SELECT COUNT(*) FROM t"));
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
            awaitAllHealthy(cluster, 2);
            Engine.assertIdenticalAndShutdown(writer);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void verifyFailsASlaveThatDiffersAndRebuildReplicaReplacesIt(Engine engine) throws Exception {
        try (Connection writer = Engine.connect(engine.url(3))) {
            Engine.execute(writer, "CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (1, 10)");
            MacroCluster cluster = writer.unwrap(MacroCluster.class);
            cluster.verify();
            try (Connection slave = DriverManager.getConnection(cluster.replicas().get(2).database())) {
                CaptureSink previous = CaptureScope.open(CaptureSink.IGNORE);
                try {
                    Engine.execute(slave, "UPDATE t SET v = 99 WHERE id = 1"); // behind MacroDB's back
                } finally {
                    CaptureScope.close(previous);
                }
            }

            String diverged = cluster.replicas().get(2).database();
            VerificationReport report = cluster.verify();
            assertEquals(java.util.Set.of(2), report.differingReplicas(), report.differences()::toString);
            assertEquals(1, cluster.metrics().failures(), "verify() failed the slave that differs");
            awaitAllHealthy(cluster, 3); // and a new one was built in its place
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
    void theMasterAndUnknownReplicasAreRefusedClearly(Engine engine) throws Exception {
        try (Connection connection = Engine.connect(engine.url(2))) {
            MacroCluster cluster = connection.unwrap(MacroCluster.class);
            SQLException master = assertThrows(SQLException.class, () -> cluster.failReplica(0));
            assertEquals(MacroSqlState.FEATURE_NOT_SUPPORTED, master.getSQLState());
            assertTrue(master.getMessage().contains("master"), master.getMessage());
            assertEquals(MacroSqlState.FEATURE_NOT_SUPPORTED,
                    assertThrows(SQLException.class, () -> cluster.rebuildReplica(0)).getSQLState());
            SQLException unknown = assertThrows(SQLException.class, () -> cluster.failReplica(7));
            assertEquals(MacroSqlState.NO_SUCH_REPLICA, unknown.getSQLState());
            assertTrue(unknown.getMessage().contains("no slave 7"), unknown.getMessage());
            assertTrue(cluster.replicas().stream().allMatch(r -> r.health() == ReplicaHealth.HEALTHY));
            cluster.shutdown();
        }
    }

    // ---- the workload: transfers keep the total, audits check it on whatever replica they get ----

    private static void load(Connection admin, Engine engine) throws SQLException {
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

    private static void transfers(String url, AtomicBoolean stop, AtomicLong commits, AtomicLong retried,
                                  Queue<Throwable> errors) {
        try (Connection c = Engine.connect(url)) {
            c.setAutoCommit(false);
            PreparedStatement debit = c.prepareStatement("UPDATE account SET balance = balance - ? WHERE id = ?");
            PreparedStatement credit = c.prepareStatement("UPDATE account SET balance = balance + ? WHERE id = ?");
            PreparedStatement log = c.prepareStatement("INSERT INTO transfer (source, target, amount) VALUES (?, ?, ?)");
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
                    c.rollback();
                    if (!MacroSqlState.isRetryable(e)) {
                        throw e;
                    }
                    retried.incrementAndGet();
                }
            }
        } catch (Throwable t) {
            errors.add(t);
        }
    }

    /** Read-only transactions: the total never changes, and no client ever sees fewer transfers than before. */
    private static void audits(String url, AtomicBoolean stop, AtomicLong retried, Queue<Throwable> errors) {
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
                    if (total != (long) ACCOUNTS * BALANCE || filler != FILLER_ROWS || transfers < seen) {
                        throw new AssertionError("read total " + total + ", " + filler + " filler rows, "
                                + transfers + " transfers after seeing " + seen);
                    }
                    seen = transfers;
                } catch (SQLException e) {
                    c.rollback();
                    if (!MacroSqlState.isRetryable(e)) {
                        throw e;
                    }
                    retried.incrementAndGet();
                }
            }
        } catch (Throwable t) {
            errors.add(t);
        }
    }

    private static long total(Connection c) throws SQLException {
        return count(c, "SELECT SUM(balance) FROM account");
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (var statement = c.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private static int value(Connection c) throws SQLException {
        return (int) count(c, "SELECT v FROM t WHERE id = 1");
    }

    // ---- watching the cluster ----

    private static long routedTo(MacroCluster cluster, int index) {
        return cluster.metrics().replicas().stream().filter(r -> r.index() == index)
                .mapToLong(io.macrodb.api.ClusterMetrics.Replica::routedTransactions).sum();
    }

    /** Waits until the cluster has {@code replicas} replicas again, all healthy. */
    static List<ReplicaStatus> awaitAllHealthy(MacroCluster cluster, int replicas) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            List<ReplicaStatus> now = cluster.replicas();
            if (now.size() == replicas && now.stream().allMatch(r -> r.health() == ReplicaHealth.HEALTHY)) {
                return now;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no rebuild within 60 s: " + cluster.replicas());
    }
}
