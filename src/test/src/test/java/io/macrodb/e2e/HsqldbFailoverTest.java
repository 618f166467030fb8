package io.macrodb.e2e;

import io.macrodb.api.MacroCluster;
import io.macrodb.api.MacroSqlState;
import io.macrodb.api.ReplicaHealth;
import io.macrodb.api.ReplicaRole;
import io.macrodb.api.ReplicaStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A review (2026-11-28) of failover and rebuild on HSQLDB now that its rows are captured from the session's row
 * actions ({@code HsqldbRowLog}) instead of triggers, in each of HSQLDB's transaction modes where it matters
 * ({@code ;hsqldb.tx=locks|mvlocks|mvcc}). It covers:
 * <ul>
 *   <li>promotions and rebuilds under writers whose transactions use statements of more than 16 rows (the row log's
 *       hash-map path), savepoints rolled back, a procedure, {@code MERGE}, {@code TRUNCATE} in a procedure and
 *       statements prepared before any failure; two and four failures in a row with 3 and 4 replicas; oracles: the
 *       total balance, a counter column every committed transaction moves by exactly 20, one journal row per
 *       acknowledged commit, every replica identical at the end;</li>
 *   <li>statements, callable statements and savepoints from before a promotion used after it, a connection with a
 *       read-only transaction open on the slave that is promoted, a rebuilt slave with LOB and keyless rows promoted,
 *       cascades and the application's triggers on a promoted master;</li>
 *   <li>the master's database shut down behind MacroDB's back in the middle of many-row statements: acknowledged
 *       commits, the errors clients get;</li>
 *   <li>a copy source failing before the copy begins.</li>
 * </ul>
 * Cases marked FINDING failed when the review wrote them and pass since their mends. The review's cases that still
 * fail were left out of this file and are described in README's Limits: transactions left open that hold a rebuild or
 * a promotion (HSQLDB's SCRIPT and, in MVCC modes, CREATE TRIGGER wait for them), and HSQLDB identity values a doomed
 * transaction drew handed out again after an operator's failover.
 */
class HsqldbFailoverTest {

    private static final List<String> MODES = List.of("locks", "mvlocks", "mvcc");

    /** The clusters a test started, shut down after it whatever its outcome: a failing test must not leave its heap. */
    private static final List<MacroCluster> CLUSTERS = new ArrayList<>();

    private static synchronized MacroCluster track(MacroCluster cluster) {
        CLUSTERS.add(cluster);
        return cluster;
    }

    @AfterEach
    void shutDownClusters() throws InterruptedException {
        List<MacroCluster> started;
        synchronized (HsqldbFailoverTest.class) {
            started = new ArrayList<>(CLUSTERS);
            CLUSTERS.clear();
        }
        for (MacroCluster cluster : started) {
            Thread shutdown = new Thread(() -> {
                try {
                    cluster.shutdown();
                } catch (SQLException | RuntimeException ignored) {
                    // shut down already, or broken by the test: nothing more to free
                }
            }, "review-shutdown");
            shutdown.setDaemon(true);
            shutdown.start();
            shutdown.join(10_000);
        }
    }

    private static String url(String mode, int replicas) {
        return Engine.HSQLDB.url(replicas) + ";hsqldb.tx=" + mode;
    }

    static Stream<Arguments> modesTwice() {
        return MODES.stream().flatMap(m -> Stream.of(Arguments.of(m, 1), Arguments.of(m, 2)));
    }

    private static long count(Connection c, String sql) throws SQLException {
        return TransferWorkload.count(c, sql);
    }

    private static void awaitNewMaster(MacroCluster cluster, int oldMasterIndex) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (cluster.replicas().get(0).index() == oldMasterIndex) {
            assertTrue(System.nanoTime() < deadline, "no slave took over within 20 s: " + cluster.replicas());
            Thread.sleep(10);
        }
    }

    /** Waits at most {@code seconds} until the cluster has {@code replicas} healthy replicas. */
    private static void awaitAllHealthy(MacroCluster cluster, int replicas, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            List<ReplicaStatus> now = cluster.replicas();
            if (now.size() == replicas && now.stream().allMatch(r -> r.health() == ReplicaHealth.HEALTHY)) {
                return;
            }
            Thread.sleep(20);
        }
        String dump = HangWatch.threadDump();
        if (Boolean.getBoolean("review.dumps")) {
            System.out.println("NOT HEALTHY " + cluster.replicas() + "\n" + dump + HangWatch.hsqldbSessions());
        }
        throw new AssertionError("not every replica healthy within " + seconds + " s: " + cluster.replicas()
                + (dump.contains("macrodb-recovery") ? "; recovery thread: " + recoveryStack() : ""));
    }

    // ---------------------------------------------------------------------------------------------------------------
    // 1. A workload of many-row statements, savepoints, a procedure and MERGE across two or three failures.

    /**
     * Writers whose every transaction: moves money between two accounts (statements prepared once, before any
     * failure); under a savepoint adds 1000 to 40 counters and rolls that back; calls a procedure that adds 1 to 20
     * counters (one statement of 20 rows: the row log's hash-map path); MERGEs a note into 18 counters; logs a journal
     * row. One more writer deletes a row of a table of its own, TRUNCATEs that table inside a procedure after a DELETE
     * of the same table, and inserts 20 rows, per transaction (LOCKS mode only, see the constructor). So the sum of
     * the counters is 20 per acknowledged commit, the journal has one row per acknowledged commit,
     * and the total balance never changes.
     */
    static final class ManyRowWorkload implements AutoCloseable {
        static final int ACCOUNTS = 50;
        static final int COUNTERS = 200;
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicLong commits = new AtomicLong();
        final AtomicLong retried = new AtomicLong();
        final Queue<Throwable> errors = new ConcurrentLinkedQueue<>();
        final Queue<String> nonRetryable = new ConcurrentLinkedQueue<>();
        final List<Thread> threads = new ArrayList<>();

        static void load(Connection admin) throws SQLException {
            Engine.execute(admin, "CREATE TABLE account (id INT PRIMARY KEY, balance INT NOT NULL)",
                    "CREATE TABLE counter (id INT PRIMARY KEY, hits INT NOT NULL, note VARCHAR(40))",
                    "CREATE TABLE journal (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, writer INT, "
                            + "lo INT)",
                    "CREATE PROCEDURE touch(IN lo INT) MODIFIES SQL DATA BEGIN ATOMIC "
                            + "UPDATE counter SET hits = hits + 1 WHERE id >= lo AND id < lo + 20; END",
                    "CREATE TABLE scratch (id INT PRIMARY KEY, round INT)",
                    "CREATE PROCEDURE del_wipe(IN k INT) MODIFIES SQL DATA BEGIN ATOMIC "
                            + "DELETE FROM scratch WHERE id = k; TRUNCATE TABLE scratch; END");
            admin.setAutoCommit(false);
            try (PreparedStatement a = admin.prepareStatement("INSERT INTO account VALUES (?, 100)");
                 PreparedStatement k = admin.prepareStatement("INSERT INTO counter VALUES (?, 0, NULL)")) {
                for (int i = 0; i < ACCOUNTS; i++) {
                    a.setInt(1, i);
                    a.addBatch();
                }
                a.executeBatch();
                for (int i = 0; i < COUNTERS; i++) {
                    k.setInt(1, i);
                    k.addBatch();
                }
                k.executeBatch();
            }
            admin.commit();
            admin.setAutoCommit(true);
        }

        private final boolean truncates;

        /**
         * @param truncates whether the writer that TRUNCATEs in a procedure runs too: only in LOCKS mode, since in the
         *                  MVCC modes it fails every slave under load, failure or not
         *                  ({@link #truncateInAProcedureWhileAnotherTransactionIsOpenReplicatesExactly})
         */
        ManyRowWorkload(String url, int writers, boolean truncates) {
            this.truncates = truncates;
            for (int w = 0; w < writers; w++) {
                int writer = w;
                Thread t = new Thread(() -> run(url, writer), "many-row-writer-" + w);
                t.setDaemon(true);
                threads.add(t);
                t.start();
            }
            if (truncates) {
                Thread t = new Thread(() -> wipes(url), "scratch-writer");
                t.setDaemon(true);
                threads.add(t);
                t.start();
            }
        }

        /** One more writer: each transaction deletes a row, TRUNCATEs the table in a procedure, inserts 20 rows. */
        private void wipes(String url) {
            try (Connection c = Engine.connect(url)) {
                c.setAutoCommit(false);
                PreparedStatement refill = c.prepareStatement(
                        "INSERT INTO scratch SELECT x, ? FROM UNNEST(SEQUENCE_ARRAY(1, 20, 1)) AS n(x)");
                CallableStatement wipe = c.prepareCall("{call del_wipe(?)}");
                int round = 0;
                while (!stop.get()) {
                    round++;
                    try {
                        Engine.execute(c, "DELETE FROM scratch WHERE id = 3");
                        wipe.setInt(1, 5);
                        wipe.execute();
                        refill.setInt(1, round);
                        refill.executeUpdate();
                        c.commit();
                    } catch (SQLException e) {
                        try {
                            c.rollback();
                        } catch (SQLException ignored) {
                            // reported through e
                        }
                        if (!MacroSqlState.isRetryable(e)) {
                            nonRetryable.add("scratch: " + e.getSQLState() + " " + e.getMessage());
                            return;
                        }
                    }
                    Thread.onSpinWait();
                }
            } catch (Throwable t) {
                errors.add(t);
            }
        }

        private void run(String url, int writer) {
            try (Connection c = Engine.connect(url)) {
                c.setAutoCommit(false);
                PreparedStatement debit = c.prepareStatement("UPDATE account SET balance = balance - ? WHERE id = ?");
                PreparedStatement credit = c.prepareStatement("UPDATE account SET balance = balance + ? WHERE id = ?");
                PreparedStatement undone = c.prepareStatement("UPDATE counter SET hits = hits + 1000 WHERE id < 40");
                CallableStatement touch = c.prepareCall("{call touch(?)}");
                PreparedStatement merge = c.prepareStatement("MERGE INTO counter c USING (SELECT id FROM counter "
                        + "WHERE id >= ? AND id < ? + 18) s ON c.id = s.id WHEN MATCHED THEN UPDATE SET note = ?");
                PreparedStatement log = c.prepareStatement("INSERT INTO journal (writer, lo) VALUES (?, ?)");
                ThreadLocalRandom random = ThreadLocalRandom.current();
                while (!stop.get()) {
                    int from = random.nextInt(ACCOUNTS);
                    int to = random.nextInt(ACCOUNTS);
                    int lo = random.nextInt(COUNTERS - 20);
                    try {
                        debit.setInt(1, 3);
                        debit.setInt(2, from);
                        debit.executeUpdate();
                        Savepoint sp = c.setSavepoint();
                        undone.executeUpdate();
                        c.rollback(sp);
                        credit.setInt(1, 3);
                        credit.setInt(2, to);
                        credit.executeUpdate();
                        touch.setInt(1, lo);
                        touch.execute();
                        merge.setInt(1, lo);
                        merge.setInt(2, lo);
                        merge.setString(3, "w" + writer + "-" + lo);
                        merge.executeUpdate();
                        log.setInt(1, writer);
                        log.setInt(2, lo);
                        log.executeUpdate();
                        c.commit();
                        commits.incrementAndGet();
                    } catch (SQLException e) {
                        try {
                            c.rollback();
                        } catch (SQLException ignored) {
                            // reported through e
                        }
                        if (MacroSqlState.isRetryable(e)) {
                            retried.incrementAndGet();
                        } else {
                            nonRetryable.add(e.getSQLState() + " " + e.getMessage());
                            if (nonRetryable.size() > 20) {
                                return;
                            }
                        }
                    }
                }
            } catch (Throwable t) {
                errors.add(t);
            }
        }

        void stopAndCheck(Connection admin) throws Exception {
            stop.set(true);
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(30));
                assertFalse(t.isAlive(),
                        () -> "a writer hung: " + t.getName() + "\n" + HangWatch.threadDump()
                                + HangWatch.hsqldbSessions());
            }
            assertTrue(errors.isEmpty(), () -> "writers failed: " + errors);
            assertTrue(nonRetryable.isEmpty(), () -> "non-retryable errors: " + nonRetryable);
            assertTrue(commits.get() > 0, "some commits went through");
            assertEquals(ACCOUNTS * 100L, count(admin, "SELECT SUM(balance) FROM account"), "total balance");
            assertEquals(commits.get(), count(admin, "SELECT COUNT(*) FROM journal"),
                    "one journal row per acknowledged commit");
            assertEquals(20 * commits.get(), count(admin, "SELECT SUM(hits) FROM counter"),
                    "20 counter hits per acknowledged commit, none of the rolled-back 1000s");
            if (truncates) {
                assertEquals(20, count(admin, "SELECT COUNT(*) FROM scratch"), "one refill after the last TRUNCATE");
            }
        }

        @Override
        public void close() {
            stop.set(true);
        }
    }

    /**
     * Three replicas: a slave is failed (and rebuilt from the other slave while the writers run), then the master is
     * failed over twice, the second time while the first one's rebuild may still run. Passed 60 times of 60 run alone;
     * failed twice in about 10 runs of the whole file while the review wrote it (failing tests then left clusters
     * running, and the JVM short of memory), both in MVCC mode and not diagnosed (-Dreview.dumps=true prints a thread
     * dump): once the second failReplica did not return within 20 s, once the slave rebuilt after the second promotion
     * stayed CATCHING_UP at version 0 for 30 s (its copy had not begun: README Limits, transactions left open). Since
     * the mends of 2026-11-28: 30 of 30 alone, and every whole-file run. In CI on 2026-11-29 a writer died of HSQLDB's
     * NullPointerException at a savepoint (mended: {@link
     * #aSavepointOnAMasterWhoseDatabaseIsGoneFailsRetryablyAndASlaveTakesOver}).
     */
    @ParameterizedTest
    @ValueSource(strings = {"locks", "mvlocks", "mvcc"})
    void manyRowWritersSurviveASlaveRebuildAndTwoPromotions(String mode) throws Exception {
        String url = url(mode, 3);
        try (Connection admin = Engine.connect(url)) {
            ManyRowWorkload.load(admin);
            MacroCluster cluster = track(admin.unwrap(MacroCluster.class));
            try (ManyRowWorkload writers = new ManyRowWorkload(url, 4, mode.equals("locks"))) {
                Thread.sleep(250);
                cluster.failReplica(1 + ThreadLocalRandom.current().nextInt(2)); // rebuilt from the other slave
                Thread.sleep(150);
                int first = cluster.replicas().get(0).index();
                HangWatch watch = new HangWatch("failover");
                watch.within(20, () -> {
                    cluster.failReplica(first);
                    return null;
                });
                assertNotEquals(first, cluster.replicas().get(0).index(), "a slave took over");
                Thread.sleep(150);
                int second = cluster.replicas().get(0).index();
                try {
                    watch.within(20, () -> {
                        cluster.failReplica(second); // the first promotion's rebuild may still be copying
                        return null;
                    });
                } catch (AssertionError hung) {
                    System.out.println("HANG " + cluster.replicas() + "\n" + HangWatch.threadDump());
                    throw hung;
                }
                awaitAllHealthy(cluster, 3, 30);
                long before = writers.commits.get();
                Thread.sleep(250);
                writers.stopAndCheck(admin);
                assertTrue(writers.commits.get() > before, "writers went on after the failures");
                watch.close();
            }
            Engine.assertIdentical(cluster);
            assertEquals(3, cluster.metrics().failures());
            cluster.shutdown();
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // 2. Counters at an operator's failover.

    // ---------------------------------------------------------------------------------------------------------------
    // 3. What keeps a new slave from being built.

    // ---------------------------------------------------------------------------------------------------------------
    // 4. Statements, savepoints and sessions from before a promotion, used after it.

    /**
     * A connection with a transaction open on the master (a savepoint set, many-row statements run) and statements
     * prepared before the failover, a procedure call among them; another connection with a read-only transaction open
     * on the slave that is promoted. The open transaction fails with 40M01 and cannot commit, even after a rollback to
     * its savepoint (which may succeed on the old master's session), and
     * the same statement objects then write on the new master, under a new savepoint partly rolled back: every replica
     * must get exactly what the new master kept.
     */
    @ParameterizedTest
    @ValueSource(strings = {"locks", "mvlocks", "mvcc"})
    void statementsAndSavepointsFromBeforeAPromotionWriteExactlyOnTheNewMaster(String mode) throws Exception {
        String url = url(mode, 3);
        try (Connection c = Engine.connect(url); Connection reader = Engine.connect(url)) {
            Engine.execute(c, "CREATE TABLE t (id INT PRIMARY KEY, v INT, s VARCHAR(20))",
                    "INSERT INTO t SELECT x, 0, 'x' FROM UNNEST(SEQUENCE_ARRAY(1, 60, 1)) AS n(x)",
                    "CREATE PROCEDURE bump(IN d INT) MODIFIES SQL DATA BEGIN ATOMIC "
                            + "UPDATE t SET v = v + d WHERE id > 30; INSERT INTO t VALUES (1000 + d, d, 'p'); END");
            MacroCluster cluster = track(c.unwrap(MacroCluster.class));
            cluster.verify();
            reader.setReadOnly(true);
            reader.setAutoCommit(false);
            assertEquals(60, count(reader, "SELECT COUNT(*) FROM t")); // open on a slave

            c.setAutoCommit(false);
            PreparedStatement many = c.prepareStatement("UPDATE t SET v = v + ?, s = ? WHERE id <= ?");
            CallableStatement bump = c.prepareCall("{call bump(?)}");
            PreparedStatement swap = c.prepareStatement("UPDATE t SET id = 61 - id WHERE id <= 60");
            many.setInt(1, 1);
            many.setString(2, "before");
            many.setInt(3, 40);
            assertEquals(40, many.executeUpdate());
            Savepoint before = c.setSavepoint("before");
            bump.setInt(1, 1);
            bump.execute();

            cluster.failReplica(0);
            SQLException lost = assertThrows(SQLException.class, many::executeUpdate);
            assertEquals(MacroSqlState.REPLICA_LOST, lost.getSQLState(), lost::toString);
            try {
                c.rollback(before); // may succeed on the old master's session: the transaction is doomed either way
            } catch (SQLException refused) {
                // as good
            }
            SQLException notCommitted = assertThrows(SQLException.class, c::commit);
            assertEquals(MacroSqlState.REPLICA_LOST, notCommitted.getSQLState(), notCommitted::toString);
            c.rollback();

            // The reader's slave may be the new master: its read-only transaction ends, then it writes there.
            reader.commit();
            reader.setReadOnly(false);
            Engine.execute(reader, "UPDATE t SET s = 'reader' WHERE id BETWEEN 5 AND 25");
            reader.commit();

            many.setInt(1, 2);
            many.setString(2, "after");
            many.setInt(3, 50);
            assertEquals(50, many.executeUpdate());
            Savepoint after = c.setSavepoint();
            bump.setInt(1, 7);
            bump.execute();
            swap.executeUpdate(); // 60 keys moved across each other
            c.rollback(after); // the procedure's 30 + 1 rows and the swap go
            bump.setInt(1, 9);
            bump.execute();
            swap.executeUpdate();
            c.commit();
            c.setAutoCommit(true);

            assertEquals(61, count(c, "SELECT COUNT(*) FROM t"));
            assertEquals(50 * 2 + 30 * 9 + 9, count(c, "SELECT SUM(v) FROM t"));
            assertEquals(0, count(c, "SELECT COUNT(*) FROM t WHERE id = 1007"));
            assertHealedFromOneFailureThenShutDown(cluster);
        }
    }

    /** All three replicas healthy again after exactly one failure, and identical; then the cluster is shut down. */
    private static void assertHealedFromOneFailureThenShutDown(MacroCluster cluster) throws Exception {
        awaitAllHealthy(cluster, 3, 20);
        Engine.assertIdentical(cluster);
        assertEquals(1, cluster.metrics().failures());
        cluster.shutdown();
    }

    /**
     * FINDING (mended): a savepoint set in a transaction whose master's database had been shut down threw HSQLDB's
     * NullPointerException ({@code Session.savepoint} does not check for a closed session), not the retryable 40M01:
     * a many-row writer of section 1 died of it in CI (2026-11-29, once), when a failover shut the old master down
     * between the writer's statement and its savepoint. Here the database is shut down behind MacroDB's
     * back, so the savepoint is the first to meet the loss: it must fail the master over and throw 40M01. Every
     * savepoint call in the doomed transaction then fails so too, and the connection goes on on the new master.
     */
    @ParameterizedTest
    @ValueSource(strings = {"locks", "mvcc"})
    void aSavepointOnAMasterWhoseDatabaseIsGoneFailsRetryablyAndASlaveTakesOver(String mode) throws Exception {
        String url = url(mode, 3);
        try (Connection c = Engine.connect(url)) {
            Engine.execute(c, "CREATE TABLE t (id INT PRIMARY KEY, v INT)");
            MacroCluster cluster = track(c.unwrap(MacroCluster.class));
            c.setAutoCommit(false);
            Engine.execute(c, "INSERT INTO t VALUES (1, 1)");
            Savepoint first = c.setSavepoint();
            Engine.HSQLDB.shutDownBehindMacroDbsBack(cluster.replicas().get(0).database());

            SQLException lost = assertThrows(SQLException.class, c::setSavepoint);
            assertEquals(MacroSqlState.REPLICA_LOST, lost.getSQLState(), lost::toString);
            awaitNewMaster(cluster, 0);
            for (Executable call : List.<Executable>of(c::setSavepoint, () -> c.setSavepoint("named"),
                    () -> c.rollback(first), () -> c.releaseSavepoint(first))) {
                SQLException doomed = assertThrows(SQLException.class, call);
                assertEquals(MacroSqlState.REPLICA_LOST, doomed.getSQLState(), doomed::toString);
            }
            c.rollback();
            Engine.execute(c, "INSERT INTO t VALUES (2, 2)");
            Savepoint second = c.setSavepoint();
            Engine.execute(c, "INSERT INTO t VALUES (3, 3)");
            c.rollback(second);
            c.commit();
            c.setAutoCommit(true);
            assertEquals(2, count(c, "SELECT SUM(id) FROM t"));
            assertHealedFromOneFailureThenShutDown(cluster);
        }
    }

    /**
     * FINDING (mended): a failed master whose database had a session waiting for a lock was never shut down, and its
     * place never rebuilt. HSQLDB's {@code SHUTDOWN IMMEDIATELY} closes the sessions one by one in the order they were
     * opened, each once no statement runs in it: a session waiting for a lock that a later session's open transaction
     * holds is never free, unless that transaction's own thread ends it. The rebuild (which shut the old master down
     * first) waited for as long as the application left its transaction open; in CI (2026-11-29) a rebuild in {@link
     * #fourReplicasSurviveFourFailuresInARowUnderManyRowWriters} stayed at version 0 for 30 s, blocked so. Now the
     * rebuild does not wait for the shutdown, and the shutdown first ends every other session's statement (in MVCC
     * mode that frees a session waiting for a row lock; in LOCKS mode one waiting for a table lock waits on until the
     * transaction holding it ends). Here that transaction stays open, idle, until the old master's place has been
     * rebuilt.
     */
    @ParameterizedTest
    @ValueSource(strings = {"locks", "mvcc"})
    void aFailedMastersPlaceIsRebuiltThoughASessionOnItWaitsForALockAnIdleTransactionHolds(String mode)
            throws Exception {
        String url = url(mode, 3);
        HangWatch watch = new HangWatch("lock-waiter");
        try (Connection waiter = Engine.connect(url); Connection holder = Engine.connect(url)) {
            Engine.execute(waiter, "CREATE TABLE a (id INT PRIMARY KEY, v INT)", "INSERT INTO a VALUES (1, 0)",
                    "CREATE TABLE b (id INT PRIMARY KEY, v INT)", "INSERT INTO b VALUES (1, 0)"); // LOCKS: table locks
            MacroCluster cluster = track(waiter.unwrap(MacroCluster.class));
            waiter.setAutoCommit(false);
            holder.setAutoCommit(false);
            Engine.execute(holder, "UPDATE b SET v = 1"); // open, idle, until the old master's place is rebuilt
            // The waiting statement begins the waiter's transaction: in LOCKS mode HSQLDB's END STATEMENT then leaves
            // it waiting (found while writing this test: it ended one whose transaction held a lock already).
            Future<Integer> waiting = watch.start(() -> waiter.createStatement().executeUpdate("UPDATE b SET v = 2"));
            awaitWaitingForALock("lock-waiter");

            cluster.failReplica(0);
            awaitAllHealthy(cluster, 3, 20); // the old master's place rebuilt
            if (mode.equals("mvcc")) { // the waiting statement ended: nothing holds the shutdown back
                awaitDiscarded(0);
            }
            SQLException doomed = assertThrows(SQLException.class, holder::commit);
            assertEquals(MacroSqlState.REPLICA_LOST, doomed.getSQLState(), doomed::toString);
            holder.rollback(); // LOCKS: the waiting statement goes on, and then the shutdown
            assertNothingCommitsOfTheOldMaster(waiting, waiter);
            waiter.rollback();
            awaitDiscarded(0);

            Engine.execute(holder, "UPDATE b SET v = 3");
            holder.commit();
            waiter.setAutoCommit(true);
            assertEquals(3, count(waiter, "SELECT (SELECT SUM(v) FROM a) + (SELECT SUM(v) FROM b) FROM b"));
            Engine.assertIdentical(cluster);
            cluster.shutdown();
        } finally {
            watch.close();
        }
    }

    /**
     * A statement running when its database is discarded, on a failed master and at the cluster's shutdown: the
     * discard ends it and goes on. Ending the sessions' transactions with {@code ALTER SESSION n RELEASE} instead (the
     * first mend of the hang above) deadlocked here for good: HSQLDB rolls the transaction back from the discarding
     * thread, holding its transaction manager's lock, and needs the session's monitor, which the running statement
     * holds while it waits for that lock (found by a review, 2026-11-29).
     */
    @ParameterizedTest
    @ValueSource(strings = {"locks", "mvcc"})
    void aStatementRunningWhenItsDatabaseIsDiscardedIsEndedNotWaitedFor(String mode) throws Exception {
        String url = url(mode, 3);
        HangWatch watch = new HangWatch("long-writer");
        try (Connection c = Engine.connect(url); Connection writer = Engine.connect(url)) {
            Engine.execute(c, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20))",
                    "CREATE TABLE s (n INT PRIMARY KEY)",
                    "INSERT INTO s SELECT x FROM UNNEST(SEQUENCE_ARRAY(0, 999, 1)) AS n(x)");
            MacroCluster cluster = track(c.unwrap(MacroCluster.class));
            writer.setAutoCommit(false);
            String million = "INSERT INTO t SELECT a.n * 1000 + b.n, 'row' FROM s a, s b";
            Future<Integer> running = watch.start(() -> writer.createStatement().executeUpdate(million));
            Thread.sleep(200);

            watch.within(20, () -> {
                cluster.failReplica(0);
                return null;
            });
            awaitAllHealthy(cluster, 3, 20);
            awaitDiscarded(0);
            assertNothingCommitsOfTheOldMaster(running, writer);
            writer.rollback();
            assertEquals(0, count(c, "SELECT COUNT(*) FROM t"));
            Engine.assertIdentical(cluster);

            Future<Integer> atShutdown = watch.start(() -> writer.createStatement().executeUpdate(million));
            Thread.sleep(200);
            watch.within(20, () -> {
                cluster.shutdown();
                return null;
            });
            ExecutionException ended = assertThrows(ExecutionException.class,
                    () -> atShutdown.get(10, TimeUnit.SECONDS));
            SQLException closed = (SQLException) ended.getCause();
            assertEquals(MacroSqlState.CONNECTION_CLOSED, closed.getSQLState(), closed::toString);
        } finally {
            watch.close();
        }
    }

    /**
     * {@code statement}, running on {@code connection} on a master that failed, fails with 40M01; or it ended (the
     * engine let it finish) and its transaction cannot commit: 40M01 then.
     */
    private static void assertNothingCommitsOfTheOldMaster(Future<Integer> statement, Connection connection)
            throws Exception {
        try {
            statement.get(10, TimeUnit.SECONDS);
            SQLException notCommitted = assertThrows(SQLException.class, connection::commit);
            assertEquals(MacroSqlState.REPLICA_LOST, notCommitted.getSQLState(), notCommitted::toString);
        } catch (ExecutionException failed) {
            SQLException lost = (SQLException) failed.getCause();
            assertEquals(MacroSqlState.REPLICA_LOST, lost.getSQLState(), lost::toString);
        }
    }

    /** Waits until the thread named {@code name} waits for an HSQLDB lock. */
    private static void awaitWaitingForALock(String name) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            for (var thread : Thread.getAllStackTraces().entrySet()) {
                if (thread.getKey().getName().equals(name) && thread.getKey().getState() == Thread.State.WAITING
                        && Stream.of(thread.getValue()).anyMatch(f -> f.getClassName().endsWith("CountUpDownLatch"))) {
                    return;
                }
            }
            Thread.sleep(5);
        }
        throw new AssertionError(name + " did not wait for a lock within 10 s");
    }

    /**
     * Waits until the shutdown of replica {@code index}'s failed database is over (it runs on a thread of its own,
     * {@code Cluster.retire}; a new connection is refused as soon as it begins, so that tells nothing).
     */
    private static void awaitDiscarded(int index) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals("macrodb-discard-" + index) && t.isAlive())) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the database of failed replica " + index + " not shut down within 10 s:\n"
                        + HangWatch.threadDump());
            }
            Thread.sleep(10);
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // 5. A rebuilt slave with LOBs, promoted; TRUNCATE in a procedure and MERGE on the new master.

    /**
     * Two replicas: the slave is failed and copied from the master while LOB rows exist; the master is then failed
     * over to that rebuilt slave, which must capture, as master, updates of LOB rows (whose old LOBs it reads through
     * the writer's session, from LOBs the copy wrote), a many-row MERGE, and a TRUNCATE inside a procedure after a
     * DELETE of the same table in the same transaction; and then a third failure: the rebuilt old master is promoted
     * back.
     */
    @ParameterizedTest
    @ValueSource(strings = {"locks", "mvlocks", "mvcc"})
    void aRebuiltSlaveWithLobsIsPromotedAndCapturesExactly(String mode) throws Exception {
        String url = url(mode, 2);
        try (Connection c = Engine.connect(url)) {
            Engine.execute(c, "CREATE TABLE doc (id INT PRIMARY KEY, n INT, body CLOB, bin BLOB)",
                    "CREATE TABLE scratch (id INT PRIMARY KEY, v INT)",
                    "CREATE TABLE loose (k INT, v INT)",
                    "INSERT INTO loose SELECT MOD(x, 5), 1 FROM UNNEST(SEQUENCE_ARRAY(1, 50, 1)) AS n(x)",
                    "CREATE PROCEDURE wipe() MODIFIES SQL DATA BEGIN ATOMIC TRUNCATE TABLE scratch; END",
                    "CREATE PROCEDURE del_wipe(IN k INT) MODIFIES SQL DATA BEGIN ATOMIC "
                            + "DELETE FROM scratch WHERE id = k; TRUNCATE TABLE scratch; END");
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO doc VALUES (?, ?, ?, ?)")) {
                for (int i = 0; i < 30; i++) {
                    insert.setInt(1, i);
                    insert.setInt(2, i);
                    insert.setString(3, ("text " + i + " ").repeat(200 + i));
                    insert.setBytes(4, new byte[500 + i]);
                    insert.executeUpdate();
                }
            }
            Engine.execute(c, "INSERT INTO scratch SELECT x, x FROM UNNEST(SEQUENCE_ARRAY(1, 40, 1)) AS n(x)");
            MacroCluster cluster = track(c.unwrap(MacroCluster.class));

            cluster.failReplica(1); // rebuilt from the master (no other slave)
            awaitAllHealthy(cluster, 2, 20);
            Engine.assertIdentical(cluster);
            cluster.failReplica(0); // the rebuilt slave takes over
            assertEquals(1, cluster.replicas().get(0).index());

            c.setAutoCommit(false);
            Engine.execute(c, "UPDATE doc SET n = n + 100 WHERE id < 20"); // 20 LOB rows: old LOBs read again
            Engine.execute(c, "UPDATE doc SET body = body || 'more' WHERE id BETWEEN 20 AND 24");
            Engine.execute(c, "DELETE FROM doc WHERE id >= 27");
            Engine.execute(c, "UPDATE loose SET v = v + 1 WHERE k < 3"); // 30 look-alike rows of a keyless table
            Engine.execute(c, "DELETE FROM loose WHERE k = 4");
            Engine.execute(c, "MERGE INTO scratch s USING (SELECT x FROM UNNEST(SEQUENCE_ARRAY(21, 60, 1)) AS n(x)) "
                    + "v ON s.id = v.x WHEN MATCHED THEN UPDATE SET v = s.v + 1000 WHEN NOT MATCHED THEN INSERT "
                    + "VALUES (v.x, -v.x)");
            c.commit();
            Engine.execute(c, "DELETE FROM scratch WHERE id = 3");
            Engine.execute(c, "CALL del_wipe(5)");
            Engine.execute(c, "INSERT INTO scratch VALUES (7, 7)");
            c.commit();
            c.setAutoCommit(true);
            assertEquals(1, count(c, "SELECT COUNT(*) FROM scratch"));
            awaitAllHealthy(cluster, 2, 20);
            Engine.assertIdentical(cluster);

            cluster.failReplica(1); // the old master's place, rebuilt from replica 1, takes over again
            assertEquals(0, cluster.replicas().get(0).index());
            Engine.execute(c, "UPDATE doc SET n = -n WHERE id < 25", "CALL wipe()",
                    "INSERT INTO scratch VALUES (8, 8)");
            awaitAllHealthy(cluster, 2, 20);
            Engine.assertIdentical(cluster);
            assertEquals(27, count(c, "SELECT COUNT(*) FROM doc"));
            assertEquals(3, cluster.metrics().failures());
            cluster.shutdown();
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // 6. The master's database lost in the middle of many-row statements.

    /**
     * Writers, each in a key range of its own, insert 150 rows and update 40 rows per transaction in single statements;
     * the master's database is shut down behind MacroDB's back (SHUTDOWN IMMEDIATELY) while they run, with 3 replicas
     * (a slave takes over, the other goes on). Every acknowledged commit must be there (the writers know the sum of v
     * they committed), the clients get only retryable errors, and every replica ends identical. FINDING (mended):
     * failed in most runs (5/6 and 5/6 in two full runs), two ways: acknowledged transactions whose last statement's
     * rows are missing on the new master (SUM(v) short by 120 to 360: whole 60-row UPDATEs, see {@link
     * #aCommitAcknowledgedAcrossTheMastersLossIsWholeOnTheNewMaster}), and clients getting {@code
     * NullPointerException}s from {@code HsqldbRowLog} instead of 40M01 (see {@link
     * #anUpdateOnAMasterWhoseDatabaseIsGoneFailsRetryablyAndASlaveTakesOver}). The replicas were identical to each
     * other in every run.
     */
    @ParameterizedTest(name = "{0}, run {1}")
    @MethodSource("modesTwice")
    void theMasterLostInTheMiddleOfManyRowStatementsLosesNoAcknowledgedCommit(String mode, int run)
            throws Exception {
        String url = url(mode, 3);
        try (Connection admin = Engine.connect(url)) {
            Engine.execute(admin, "CREATE TABLE big (id BIGINT PRIMARY KEY, w INT, v INT)");
            MacroCluster cluster = track(admin.unwrap(MacroCluster.class));
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong acknowledgedSum = new AtomicLong();
            AtomicLong acknowledged = new AtomicLong();
            Queue<String> nonRetryable = new ConcurrentLinkedQueue<>();
            Queue<Throwable> errors = new ConcurrentLinkedQueue<>();
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                int writer = w;
                Thread t = new Thread(() -> {
                    try (Connection c = Engine.connect(url)) {
                        c.setAutoCommit(false);
                        PreparedStatement insert = c.prepareStatement("INSERT INTO big SELECT ? + x, ?, 1 "
                                + "FROM UNNEST(SEQUENCE_ARRAY(0, 149, 1)) AS n(x)");
                        PreparedStatement update = c.prepareStatement(
                                "UPDATE big SET v = v + 1 WHERE w = ? AND MOD(id, 10) < 4 AND id >= ?");
                        long next = writer * 100_000_000L;
                        long previous = -1;
                        while (!stop.get()) {
                            try {
                                insert.setLong(1, next);
                                insert.setInt(2, writer);
                                int inserted = insert.executeUpdate();
                                int updated = 0;
                                if (previous >= 0) {
                                    update.setInt(1, writer);
                                    update.setLong(2, previous);
                                    updated = update.executeUpdate();
                                }
                                c.commit();
                                acknowledged.incrementAndGet();
                                acknowledgedSum.addAndGet(inserted + updated);
                                previous = next;
                                next += 1000;
                            } catch (SQLException | RuntimeException e) {
                                try {
                                    c.rollback();
                                } catch (SQLException | RuntimeException ignored) {
                                    // reported through e
                                }
                                if (!(e instanceof SQLException sql && MacroSqlState.isRetryable(sql))) {
                                    nonRetryable.add(e instanceof SQLException sql
                                            ? sql.getSQLState() + "/" + sql.getErrorCode() + " " + e.getMessage()
                                            : e.toString());
                                }
                                next += 1000; // a fresh range: what this transaction wrote is not there
                            }
                        }
                    } catch (Throwable t2) {
                        errors.add(t2);
                    }
                }, "big-writer-" + w);
                t.setDaemon(true);
                writers.add(t);
                t.start();
            }
            Thread.sleep(300);
            Engine.HSQLDB.shutDownBehindMacroDbsBack(cluster.replicas().get(0).database());
            awaitNewMaster(cluster, 0);
            awaitAllHealthy(cluster, 3, 20);
            Thread.sleep(200);
            stop.set(true);
            for (Thread t : writers) {
                t.join(30_000);
                assertFalse(t.isAlive(),
                        () -> "a writer hung: " + t.getName() + "\n" + HangWatch.threadDump()
                                + HangWatch.hsqldbSessions());
            }
            assertTrue(errors.isEmpty(), () -> "writers failed: " + errors);
            assertEquals(acknowledgedSum.get(), count(admin, "SELECT COALESCE(SUM(v), 0) FROM big"),
                    "every acknowledged commit is on the new master, nothing else");
            assertEquals(150 * acknowledged.get(), count(admin, "SELECT COUNT(*) FROM big"));
            Engine.assertIdentical(cluster);
            cluster.shutdown();
            assertTrue(nonRetryable.isEmpty(), () -> "clients got non-retryable errors: " + nonRetryable);
        }
    }

    static Stream<Arguments> modesAndStatementKinds() {
        return Stream.of("locks", "mvcc").flatMap(m -> Stream.of(Arguments.of(m, true), Arguments.of(m, false)));
    }

    /**
     * FINDING (mended): a statement of an update transaction on a master whose HSQLDB database had been shut down threw
     * a raw {@code NullPointerException} ("Cannot read field "txManager" because the return value of
     * "org.hsqldb.Session.getDatabase()" is null", at {@code HsqldbRowLog.tracksRowStates} from {@code
     * statementBegins}), not the retryable 40M01: HSQLDB nulls a closed session's database, and the row log asks it for
     * the transaction mode before the statement reaches the engine. Being no SQLException, it never reaches {@code
     * onEngineError}, so the statement does not fail the master either: with the probe off ({@code
     * macrodb.probeIntervalMs=0}) every update statement keeps throwing the NPE and no slave ever takes over (with the
     * probe on, the probe replaces the master within a second; a writer that retries only on SQLException dies
     * meanwhile: {@link #theMasterLostInTheMiddleOfManyRowStatementsLosesNoAcknowledgedCommit} saw it in nearly every
     * run). Reproduction: replicas=2, probe off; run an update once on a connection; shut the master's database down
     * behind MacroDB's back (SHUTDOWN IMMEDIATELY); the same update again throws the NPE.
     */
    @ParameterizedTest(name = "{0}, prepared={1}")
    @MethodSource("modesAndStatementKinds")
    void anUpdateOnAMasterWhoseDatabaseIsGoneFailsRetryablyAndASlaveTakesOver(String mode, boolean prepared)
            throws Exception {
        String url = url(mode, 2) + ";macrodb.probeIntervalMs=0";
        try (Connection c = Engine.connect(url)) {
            Engine.execute(c, "CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (1, 1)");
            MacroCluster cluster = track(c.unwrap(MacroCluster.class));
            PreparedStatement update = c.prepareStatement("UPDATE t SET v = v + 1 WHERE id = 1");
            Statement plain = c.createStatement();
            if (prepared) {
                update.executeUpdate();
            } else {
                plain.executeUpdate("UPDATE t SET v = v + 1 WHERE id = 1");
            }
            cluster.verify();
            Engine.HSQLDB.shutDownBehindMacroDbsBack(cluster.replicas().get(0).database());
            Throwable thrown = null;
            try {
                if (prepared) {
                    update.executeUpdate();
                } else {
                    plain.executeUpdate("UPDATE t SET v = v + 1 WHERE id = 1");
                }
            } catch (Throwable t) {
                thrown = t;
            }
            Throwable first = thrown;
            assertTrue(first instanceof SQLException e && MacroSqlState.REPLICA_LOST.equals(e.getSQLState()),
                    () -> "expected 40M01, got " + first);
            awaitNewMaster(cluster, 0);
            update.executeUpdate(); // run again, on the new master
            awaitAllHealthy(cluster, 2, 20);
            assertEquals(3, count(c, "SELECT v FROM t WHERE id = 1"));
            Engine.assertIdentical(cluster);
            cluster.shutdown();
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // 7. The promoted master as a real master: foreign keys back on, cascades and the application's triggers captured.

    private static final String[] PARENT_CHILD = {
            "CREATE TABLE parent (id INT PRIMARY KEY, name VARCHAR(20))",
            "CREATE TABLE child (id INT PRIMARY KEY, parent_id INT REFERENCES parent(id) ON DELETE CASCADE "
                    + "ON UPDATE CASCADE, v INT)",
            "CREATE TABLE audit (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, child_id INT)",
            "CREATE TRIGGER child_audit AFTER INSERT ON child REFERENCING NEW ROW AS n FOR EACH ROW "
                    + "INSERT INTO audit (child_id) VALUES (n.id)",
            "INSERT INTO parent SELECT x, 'p' || x FROM UNNEST(SEQUENCE_ARRAY(1, 10, 1)) AS n(x)",
            "INSERT INTO child SELECT x, MOD(x, 10) + 1, x FROM UNNEST(SEQUENCE_ARRAY(1, 100, 1)) AS n(x)"};

    /**
     * On the new master: a delete of parents that cascades to 30 children in one statement, a key update that cascades,
     * a child inserted for a parent that does not exist (refused: foreign keys are back), inserts that fire the
     * application's trigger (created on the promoted slave before it takes a write). The other slave and the slave
     * rebuilt in the old master's place must get exactly the rows the master kept.
     */
    @ParameterizedTest
    @ValueSource(strings = {"locks", "mvlocks", "mvcc"})
    void cascadesAndTriggersAreCapturedOnThePromotedMaster(String mode) throws Exception {
        try (Connection c = Engine.connect(url(mode, 3))) {
            Engine.execute(c, PARENT_CHILD);
            MacroCluster cluster = track(c.unwrap(MacroCluster.class));
            cluster.failReplica(0);
            Engine.execute(c, "DELETE FROM parent WHERE id <= 3"); // 30 children go with them
            Engine.execute(c, "UPDATE parent SET id = id + 100 WHERE id > 8"); // children follow the key
            assertThrows(SQLException.class, () -> Engine.execute(c, "INSERT INTO child VALUES (500, 77, 0)"));
            Engine.execute(c, "INSERT INTO child SELECT 200 + x, 5, x FROM UNNEST(SEQUENCE_ARRAY(1, 20, 1)) AS n(x)");
            assertEquals(90, count(c, "SELECT COUNT(*) FROM child"));
            assertEquals(120, count(c, "SELECT COUNT(*) FROM audit"));
            assertEquals(20, count(c, "SELECT COUNT(*) FROM child WHERE parent_id > 100"));
            awaitAllHealthy(cluster, 3, 20);
            Engine.assertIdentical(cluster);
            cluster.shutdown();
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // 8. Four replicas, four failures in a row under the many-row writers.

    /**
     * Four replicas: an operator fails a slave, another slave's database is shut down behind MacroDB's back (its
     * applier meets the loss), then the master is failed over twice, the promotions queued behind the rebuilds.
     * It failed in 3 of about 12 runs before a rebuild whose source fails before the copy began was tried again
     * (replica 1 never came back: slave 2, shut down here, had been picked as the copy source of slave 1's rebuild,
     * whose connection to it then failed with "Database does not exists" before slave 2 was marked lost; see
     * {@link #aRebuildWhoseSourceFailsWhileBeingPausedIsTriedAgain}). In CI on 2026-11-29 (MVCC), and here in 1 of
     * about 15 runs, the rebuild after the second promotion hung shutting the old master down: a writer's session
     * there waited for a lock held by another's ({@link
     * #aFailedMastersPlaceIsRebuiltThoughASessionOnItWaitsForALockAnIdleTransactionHolds}, mended). After that mend,
     * 1 run in about 25 (MVCC) ended with a writer waiting for a writer that had closed its connection: HSQLDB's MVCC
     * mode loses a wake-up after a rollback to a savepoint, with or without MacroDB ({@link HsqldbStaleLockWaitTest};
     * the probe now ends such waits).
     */
    @ParameterizedTest
    @ValueSource(strings = {"locks", "mvlocks", "mvcc"})
    void fourReplicasSurviveFourFailuresInARowUnderManyRowWriters(String mode) throws Exception {
        String url = url(mode, 4);
        try (Connection admin = Engine.connect(url)) {
            ManyRowWorkload.load(admin);
            MacroCluster cluster = track(admin.unwrap(MacroCluster.class));
            HangWatch watch = new HangWatch("four-failures");
            try (ManyRowWorkload writers = new ManyRowWorkload(url, 4, mode.equals("locks"))) {
                Thread.sleep(200);
                cluster.failReplica(1);
                Engine.HSQLDB.shutDownBehindMacroDbsBack(cluster.replicas().stream()
                        .filter(r -> r.index() == 2).findFirst().orElseThrow().database());
                Thread.sleep(100);
                for (int i = 0; i < 2; i++) {
                    int master = cluster.replicas().get(0).index();
                    watch.within(20, () -> {
                        cluster.failReplica(master);
                        return null;
                    });
                    assertNotEquals(master, cluster.replicas().get(0).index());
                    Thread.sleep(100);
                }
                awaitAllHealthy(cluster, 4, 30);
                long before = writers.commits.get();
                Thread.sleep(200);
                writers.stopAndCheck(admin);
                assertTrue(writers.commits.get() > before, "writers went on after the failures");
            } finally {
                watch.close();
            }
            Engine.assertIdentical(cluster);
            // Four, or more where a rebuild's copy source was the slave shut down here: its new slave is failed and
            // the rebuild tried again from another source.
            assertTrue(cluster.metrics().failures() >= 4, () -> "failures: " + cluster.metrics().failures());
            cluster.shutdown();
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // 9. An acknowledged commit whose statement straddled the master's loss.

    /**
     * FINDING (mended): a transaction whose statement was running when the master's database was shut down was
     * acknowledged as committed, and the slaves get it without that statement's rows. HSQLDB's shutdown waits for the
     * running statement, then closes its session: the close rolls the transaction back and empties the session's
     * row-action list ({@code Session.close}: {@code rollback}, {@code rowActionList.clear()}). {@code
     * HsqldbRowLog.statementEnded}, reading the list after the statement returned, finds it shorter than where the
     * statement began and captures nothing. The commit then "succeeds": HSQLDB's {@code JDBCConnection.commit} checks
     * only the JDBC object's own closed flag and {@code Session.commit} returns silently on a closed session, and no
     * other transaction has marked the master lost yet (their statements fail with the NullPointerException above,
     * which fails no replica), so {@code CommitSequencer} publishes the write set of the statements before, and the
     * client gets a normal return. With capture triggers the rows were captured as written, so such a transaction
     * reached the slaves whole. Reproduction: replicas=2; one writer loops {INSERT INTO marker VALUES (k); UPDATE acct
     * SET v = v + 1 (2000 rows); commit}; the master's database is shut down (SHUTDOWN IMMEDIATELY, another thread)
     * 50-250 ms in; after the promotion, acknowledged transactions whose marker is there but whose UPDATE is not:
     * SUM(v) &lt; 2000 x markers. Seen in 5/12 and 6/15 iterations in MVCC mode and 3/12 in LOCKS mode (2 replicas),
     * 2/10 (LOCKS) and 4/10 (MVCC) with 3 replicas. In LOCKS mode the capture can also be garbled rather than cut
     * short: in 4 of 15 iterations (2 replicas) the only slave failed applying such a write set ("unique constraint or
     * index violation ... table: ACCT", an INSERT of a key it has: the list was read while the close's rollback undid
     * it), so no replica was left to take over and the cluster lost its data (the master's database is gone, the slave
     * failed).
     */
    // Up to 8 iterations, stopping at the first problem; -Dreview.straddle.stats=N runs N and prints each outcome,
    // -Dreview.straddle.replicas=3 uses 3 replicas.
    @ParameterizedTest
    @ValueSource(strings = {"locks", "mvcc"})
    void aCommitAcknowledgedAcrossTheMastersLossIsWholeOnTheNewMaster(String mode) throws Exception {
        int iterations = 0;
        String problem = null;
        int stats = Integer.getInteger("review.straddle.stats", 0);
        while ((problem == null || stats > 0) && iterations < Math.max(8, stats)) {
            iterations++;
            String p = straddleOnce(mode);
            if (stats > 0) {
                System.out.println("straddle-stat " + mode + " #" + iterations + ": " + (p == null ? "clean" : p));
            }
            problem = problem == null ? p : problem;
        }
        int tried = iterations;
        String found = problem;
        System.out.println("straddle " + mode + ": " + (found == null ? "clean in " + tried + " iterations"
                : "diverged in iteration " + tried + ": " + found));
        assertTrue(found == null, () -> "iteration " + tried + ": " + found);
    }

    /** One cluster, one writer, one loss of the master; returns what is wrong, or null. */
    private static String straddleOnce(String mode) throws Exception {
        int replicas = Integer.getInteger("review.straddle.replicas", 2);
        String url = url(mode, replicas);
        try (Connection admin = Engine.connect(url)) {
            Engine.execute(admin, "CREATE TABLE acct (id INT PRIMARY KEY, v INT)",
                    "CREATE TABLE marker (k INT PRIMARY KEY)",
                    "INSERT INTO acct SELECT x, 0 FROM UNNEST(SEQUENCE_ARRAY(1, 2000, 1)) AS n(x)");
            MacroCluster cluster = track(admin.unwrap(MacroCluster.class));
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong acknowledged = new AtomicLong();
            Thread writer = new Thread(() -> {
                try (Connection c = Engine.connect(url)) {
                    c.setAutoCommit(false);
                    PreparedStatement mark = c.prepareStatement("INSERT INTO marker VALUES (?)");
                    PreparedStatement all = c.prepareStatement("UPDATE acct SET v = v + 1");
                    int k = 0;
                    while (!stop.get()) {
                        k++;
                        try {
                            mark.setInt(1, k);
                            mark.executeUpdate();
                            all.executeUpdate();
                            c.commit();
                            acknowledged.incrementAndGet();
                        } catch (SQLException | RuntimeException e) {
                            try {
                                c.rollback();
                            } catch (SQLException | RuntimeException ignored) {
                                // the next try tells
                            }
                            Thread.sleep(5);
                        }
                    }
                } catch (Exception e) {
                    // the checks below tell
                }
            }, "straddle-writer");
            writer.setDaemon(true);
            writer.start();
            Thread.sleep(50 + ThreadLocalRandom.current().nextInt(200));
            Engine.HSQLDB.shutDownBehindMacroDbsBack(cluster.replicas().get(0).database());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(8);
            while (cluster.replicas().get(0).index() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            if (cluster.replicas().get(0).index() == 0) {
                stop.set(true);
                return "no slave took over within 8 s after " + acknowledged.get() + " acknowledged commits; "
                        + cluster.metrics().failures() + " replica failures; replicas " + cluster.replicas();
            }
            awaitAllHealthy(cluster, replicas, 20);
            Thread.sleep(100);
            stop.set(true);
            writer.join(20_000);
            assertFalse(writer.isAlive(), "the writer hung");
            long markers = count(admin, "SELECT COUNT(*) FROM marker");
            long sum = count(admin, "SELECT SUM(v) FROM acct");
            long rows = count(admin, "SELECT COUNT(*) FROM acct");
            long spread = count(admin, "SELECT MAX(v) - MIN(v) FROM acct");
            Engine.assertIdentical(cluster);
            cluster.shutdown();
            if (markers != acknowledged.get() || sum != 2000 * markers || rows != 2000 || spread != 0) {
                return acknowledged.get() + " commits acknowledged, " + markers + " markers on the new master, SUM(v) "
                        + sum + " where every committed transaction adds 2000 (expected " + 2000 * markers + "), "
                        + rows + " of 2000 acct rows, MAX(v) - MIN(v) = " + spread + " (a torn UPDATE if not 0)";
            }
            return null;
        }
    }

    /** Where the recovery thread is now, for a hang's message (the frames of MacroDB and HSQLDB). */
    private static String recoveryStack() {
        for (var entry : Thread.getAllStackTraces().entrySet()) {
            if (entry.getKey().getName().equals("macrodb-recovery") && entry.getKey().isAlive()
                    && entry.getValue().length > 0 && Stream.of(entry.getValue())
                    .anyMatch(f -> f.getClassName().startsWith("io.macrodb.runtime.cluster.Master")
                            || f.getClassName().startsWith("io.macrodb.runtime.cluster.SlaveRebuild"))) {
                return Stream.of(entry.getValue())
                        .filter(f -> f.getClassName().startsWith("io.macrodb")
                                || f.getClassName().startsWith("org.hsqldb"))
                        .limit(12).map(StackTraceElement::toString).reduce((a, b) -> a + " < " + b).orElse("?");
            }
        }
        return "(no recovery thread in a promotion or copy)";
    }

    // ---------------------------------------------------------------------------------------------------------------
    // 10. TRUNCATE in a procedure while another transaction is open (found by the workload of section 1).

    /**
     * FINDING (mended): (MVCC and MVLOCKS modes, no failure needed) a TRUNCATE inside a procedure, run while another
     * transaction is open on the master, ships rows that an earlier, committed transaction had deleted already, and
     * every slave fails applying it ("unique constraint or index violation ... table: SCRATCH") and is rebuilt; under
     * load all slaves fail at once, again and again. While a transaction older than the delete is open, HSQLDB's
     * MVCC modes keep a committed-deleted row in the table's index, and TRUNCATE (which walks the index) deletes it
     * again. {@code HsqldbRowLog.rowStates} knows only what this transaction did, so the row is new to it, and
     * {@code firstAction}'s {@code canRead(null, ...)} finds it invisible (deleted, committed) and takes the entry for
     * an insert: the old row is shipped as an INSERT (or paired with the live row of its key as an UPDATE to the old
     * values). Reproduction: replicas=2, hsqldb.tx=mvcc; another connection holds an update transaction open on another
     * table; one connection runs, three times, {DELETE FROM scratch WHERE id = 3; CALL del_wipe(5) (DELETE id 5;
     * TRUNCATE TABLE scratch); INSERT 20 rows; commit}; the slave fails.
     */
    @ParameterizedTest
    @ValueSource(strings = {"locks", "mvlocks", "mvcc"})
    void truncateInAProcedureWhileAnotherTransactionIsOpenReplicatesExactly(String mode) throws Exception {
        String url = url(mode, 2);
        try (Connection c = Engine.connect(url); Connection holder = Engine.connect(url)) {
            Engine.execute(c, "CREATE TABLE scratch (id INT PRIMARY KEY, round INT)",
                    "CREATE TABLE u (id INT PRIMARY KEY)",
                    "CREATE PROCEDURE del_wipe(IN k INT) MODIFIES SQL DATA BEGIN ATOMIC "
                            + "DELETE FROM scratch WHERE id = k; TRUNCATE TABLE scratch; END",
                    "INSERT INTO scratch SELECT x, 0 FROM UNNEST(SEQUENCE_ARRAY(1, 20, 1)) AS n(x)");
            MacroCluster cluster = track(c.unwrap(MacroCluster.class));
            holder.setAutoCommit(false);
            Engine.execute(holder, "INSERT INTO u VALUES (1)"); // open: HSQLDB keeps deleted rows for it
            c.setAutoCommit(false);
            for (int round = 1; round <= 3; round++) {
                Engine.execute(c, "DELETE FROM scratch WHERE id = 3", "CALL del_wipe(5)",
                        "INSERT INTO scratch SELECT x, " + round + " FROM UNNEST(SEQUENCE_ARRAY(1, 20, 1)) AS n(x)");
                c.commit();
            }
            holder.commit();
            c.setAutoCommit(true);
            assertEquals(20, count(c, "SELECT COUNT(*) FROM scratch WHERE round = 3"));
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (cluster.metrics().failures() == 0 && cluster.replicas().get(1).version()
                        < cluster.committedVersion() && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                assertEquals(0, cluster.metrics().failures(), () -> "a slave failed applying the write sets (the log "
                        + "says why: a unique constraint violation on SCRATCH): " + cluster.replicas());
                Engine.assertIdenticalAndNoneFailed(cluster);
            } finally {
                cluster.shutdown();
            }
        }
    }

    /**
     * A read-only transaction left open on a slave, and another slave failed: the new slave is copied from a slave
     * running no transaction. HSQLDB's SCRIPT, which the copy reads its source's schema with, waits for every open
     * transaction of that database, and the copy source used to be the slave furthest ahead (the first of equals),
     * whatever ran on it: the rebuild waited for the reader, with nothing timing it out (found by this review). With
     * an open reader on every slave, the reader on the source is ended after macrodb.readWaitTimeoutMs
     * ({@link ReadsLeftOpenDuringRecoveryTest}).
     */
    @ParameterizedTest
    @ValueSource(strings = {"locks", "mvcc"})
    void aNewSlaveIsCopiedFromASlaveRunningNoTransaction(String mode) throws Exception {
        String url = url(mode, 4);
        try (Connection c = Engine.connect(url); Connection reader = Engine.connect(url)) {
            Engine.execute(c, "CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (1, 1)");
            MacroCluster cluster = track(c.unwrap(MacroCluster.class));
            awaitAllHealthy(cluster, 4, 10);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (cluster.replicas().stream().anyMatch(r -> r.version() < cluster.committedVersion())
                    && System.nanoTime() < deadline) {
                Thread.sleep(10); // every slave caught up: the read runs on one, not on the master
            }
            reader.setReadOnly(true);
            reader.setAutoCommit(false);
            assertEquals(1, count(reader, "SELECT COUNT(*) FROM t")); // left open on the slave it ran on
            int readOn = cluster.replicas().stream().filter(r -> r.index() != 0 && r.activeTransactions() > 0)
                    .findFirst().orElseThrow().index();
            int failed = cluster.replicas().stream().filter(r -> r.index() != 0 && r.index() != readOn)
                    .findFirst().orElseThrow().index();
            cluster.failReplica(failed);
            Engine.execute(c, "INSERT INTO t VALUES (2, 2)");
            try {
                awaitAllHealthy(cluster, 4, 10);
            } finally {
                reader.commit(); // lets a copy waiting for it go on, so that the cluster can shut down
            }
            try {
                Engine.assertIdentical(cluster);
            } finally {
                cluster.shutdown();
            }
        }
    }

    /**
     * FINDING (mended): a new slave copied from the master failed for good when an update transaction stayed open
     * longer than {@code macrodb.readWaitTimeoutMs} (an interactive one, or a slow one), and nothing built it again:
     * the cluster ran on without the slave (and so without anything to fail the master over to) until an operator
     * called {@code rebuildReplica}. Now such a copy is tried again after as long again, within the rebuild's
     * attempts.
     * Reproduction: replicas=2, readWaitTimeoutMs=500; a connection inserts a row and keeps its transaction open for
     * 1 s; failReplica(1); the transaction then commits; replica 1 must come back.
     */
    @Test
    void aSlaveFailedWhileAnUpdateTransactionIsOpenComesBackOnceItEnds() throws Exception {
        String url = url("mvcc", 2) + ";macrodb.readWaitTimeoutMs=500";
        try (Connection c = Engine.connect(url); Connection open = Engine.connect(url)) {
            Engine.execute(c, "CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (1, 1)");
            MacroCluster cluster = track(c.unwrap(MacroCluster.class));
            open.setAutoCommit(false);
            Engine.execute(open, "INSERT INTO t VALUES (2, 2)"); // in flight while the slave is failed
            cluster.failReplica(1); // no other slave: copied from the master once update transactions are drained
            Thread.sleep(1000); // longer than readWaitTimeoutMs
            open.commit();
            Engine.execute(c, "INSERT INTO t VALUES (3, 3)");
            try {
                awaitAllHealthy(cluster, 2, 4);
                Engine.assertIdentical(cluster);
            } finally {
                cluster.shutdown();
            }
        }
    }

    /**
     * FINDING (mended): a rebuild whose copy source failed before the copy had begun was not tried again, and the
     * slave's place stays empty for good. The README says a rebuild whose source fails under it is tried again from
     * another source, but only {@code SlaveRebuild.SourceLost} is retried, which {@code copy} throws only when the
     * source is marked lost after the copy. A source failing while its applier is being paused makes {@code
     * Applier.pause} throw a plain {@code SQLTransientException} ("could not be paused to copy a new slave from it"),
     * and a source whose database is gone before the copy opens its connection makes {@code cluster.openPhysical} throw
     * the engine's "Database does not exists" (seen once in {@link
     * #fourReplicasSurviveFourFailuresInARowUnderManyRowWriters}, MVCC, about 1 run in 10: replica 1 never came back).
     * Reproduction: replicas=3; slave 2's applier is held by a row lock taken behind MacroDB's back; failReplica(1)
     * (copied from slave 2, which must pause first); failReplica(2) meanwhile; the lock is let go: slave 2 is rebuilt,
     * slave 1 never is (replicas() lists the master and slave 2 only).
     */
    @ParameterizedTest
    @ValueSource(strings = {"mvcc"}) // LOCKS mode the same (a first run); nothing here is HSQLDB's in particular
    void aRebuildWhoseSourceFailsWhileBeingPausedIsTriedAgain(String mode) throws Exception {
        try (Connection c = Engine.connect(url(mode, 3))) {
            Engine.execute(c, "CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (0, 0)");
            MacroCluster cluster = track(c.unwrap(MacroCluster.class));
            cluster.verify();
            try (Connection lock = Engine.behindMacroDbsBack(cluster, 2, "UPDATE t SET v = v WHERE id = 0")) {
                Engine.execute(c, "UPDATE t SET v = 1 WHERE id = 0"); // slave 2's applier waits for the lock
                Engine.awaitApplierBlocked();
                cluster.failReplica(1); // to be copied from slave 2, the only healthy slave: it must pause first
                Thread.sleep(300);
                cluster.failReplica(2); // the copy's source fails before the copy
                lock.rollback();
            }
            Engine.execute(c, "UPDATE t SET v = 2 WHERE id = 0");
            try {
                awaitAllHealthy(cluster, 3, 5);
                Engine.assertIdentical(cluster);
            } finally {
                cluster.shutdown();
            }
        }
    }
}
