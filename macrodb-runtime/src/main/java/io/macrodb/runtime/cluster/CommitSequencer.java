package io.macrodb.runtime.cluster;

import io.macrodb.api.MacroSqlState;
import io.macrodb.runtime.capture.TransactionCapture;
import io.macrodb.runtime.capture.WriteSet;
import io.macrodb.runtime.engine.Engine;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The cluster's only global coordination (the paper's "LOCK REPLICA 0"): a master commit, the next version and the
 * enqueueing of the write set for every slave happen under one lock, so versions follow the master's commit order
 * and every slave's queue is in version order. Everything else (statements, reads, applying) runs unlocked.
 *
 * <p>The engines lock rows they write until commit, so two transactions that write the same row commit in the order
 * they wrote it; shipping row images in version order then rebuilds exactly the master's state on every slave.
 *
 * <p>A cluster with no slave has nothing to order: its commits take no lock and only count versions.
 */
public final class CommitSequencer {

    /** How long a commit waits for the commit lock before it asks whether it is in a deadlock, and between asks. */
    private static final long DEADLOCK_CHECK_MILLIS = 20;
    private static final long SCHEMA_CHANGE_POLL_NANOS = 100_000L;

    private final ReentrantLock lock = new ReentrantLock();
    /**
     * The master's engine connection that runs a statement while commits are held (a schema change, a read of
     * {@code verify()}), or null: a commit kept waiting asks whether that statement waits for its locks.
     */
    private volatile Connection runningWithCommitsHeld;
    /**
     * The master's engine connection of the schema change running now, from just before its statement until the
     * catalog has the change (a new table in it, which the row logs capture by), or null: update statements wait meanwhile.
     */
    private volatile Connection schemaChanging;
    /** Schema changes begun (their {@link #schemaChanging} set first): a statement that saw it move ran beside one. */
    private volatile long schemaChangesBegun;
    /**
     * The engine statement of the schema change running now, set while that statement runs (not while MacroDB reads
     * the catalog around it), or null: a commit that statement waits for may go through ahead of it.
     */
    private volatile SchemaStatement schemaStatement;
    /** Rollbacks of update transactions on the master under way, counted while they look for a schema statement. */
    private final AtomicInteger rollbacksRunning = new AtomicInteger();
    /**
     * Taken by a commit let through ahead of a waiting schema change, for its commit and version, instead of the
     * commit lock, which the schema change holds; the schema change takes it once its statement has ended, before it
     * takes a version itself.
     */
    private final ReentrantLock aheadOfSchemaChange = new ReentrantLock();
    private final Engine engine;
    private final TableCatalog catalog;
    /** The replica whose version is the commit counter; another one after a promotion. */
    private volatile Replica master;
    private volatile List<Applier> appliers = List.of();
    private final Object appliersChange = new Object();
    private final LongAdder committed = new LongAdder();
    private final long maxLag;
    private final long waitTimeoutMillis;
    private final LongAdder lagWaits = new LongAdder();
    private final LongAdder lagWaitNanos = new LongAdder();

    /**
     * @param master               the replica whose version is the commit counter (the paper's {@code version[0]})
     * @param maxLag               most versions a healthy slave may trail the master by when a commit returns
     * @param waitTimeoutMillis most time a commit waits for a slave to come back within {@code maxLag}, an update
     *                          statement for a schema change to end, and a rollback for a schema change's statement
     */
    CommitSequencer(Engine engine, TableCatalog catalog, Replica master, long maxLag, long waitTimeoutMillis) {
        this.engine = engine;
        this.catalog = catalog;
        this.master = master;
        this.maxLag = maxLag;
        this.waitTimeoutMillis = waitTimeoutMillis;
    }

    /** Update transactions that committed a write set (DDL and counter-only versions not included). */
    long committed() {
        return committed.sum();
    }

    /** Commits that waited for a slave to come back within {@code macrodb.maxLag}. */
    long lagWaits() {
        return lagWaits.sum();
    }

    /** The time those commits waited, in nanoseconds. */
    long lagWaitNanos() {
        return lagWaitNanos.sum();
    }

    /** The version of the last committed update transaction. */
    public long version() {
        return master.version();
    }

    void setAppliers(List<Applier> appliers) {
        this.appliers = List.copyOf(appliers);
    }

    /**
     * Adds a new slave's applier, its queue first given {@code backlog}: the write sets after the version its
     * database was copied at that are already queued elsewhere. The backlog is read under the commit lock, so no
     * write set falls between it and the first one enqueued here.
     */
    void addApplier(Applier applier, Supplier<List<WriteSet>> backlog) {
        lock.lock();
        try {
            backlog.get().forEach(applier::enqueue);
            synchronized (appliersChange) {
                List<Applier> more = new java.util.ArrayList<>(appliers);
                more.add(applier);
                appliers = List.copyOf(more);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stops queueing for a slave that failed: its queue would otherwise grow with every commit. Not under the commit
     * lock: the failing applier's own thread calls this, and a shutdown holds the lock while it waits for that thread
     * to end. A commit already past its read of the list may still queue one write set for the failed slave, which
     * nothing reads.
     */
    void removeApplier(Applier applier) {
        synchronized (appliersChange) {
            appliers = appliers.stream().filter(a -> a != applier).toList();
        }
    }

    /**
     * Makes {@code promoted} the master: its version continues the commit counter. Under the commit lock, held by
     * the caller ({@link MasterPromotion}).
     */
    void setMaster(Replica promoted) {
        this.master = promoted;
    }

    /**
     * Queues counters the master moved outside any transaction (a promotion carrying over the failed master's) as a
     * version of their own, so that every slave holds them too, as {@code verify()} checks. Under the commit lock,
     * held by the caller; nothing to do without a slave (a new one is copied from the master, counters included).
     */
    void publishCounters(WriteSet.CounterState counters) {
        if (!appliers.isEmpty()) {
            publish(new WriteSet(version() + 1, List.of(counters)));
        }
    }

    /**
     * Commits an update transaction at the master and queues its writes for every slave.
     *
     * @param on     the replica the transaction ran on: a transaction begun on a master that has since failed (and
     *               been replaced) must not commit there, so this is checked under the commit lock
     * @param master {@code on}'s engine connection
     * @return the version its commit queued for the slaves, for the caller to hold the committer back with
     *         {@link #keepSlavesWithinMaxLag} outside its own locks (the transaction is committed by then: a close or
     *         abort of its connection must not wait for the slaves); 0 when none was queued (it wrote nothing, or
     *         there is no slave)
     */
    public long commit(Replica on, Connection master, TransactionCapture capture) throws SQLException {
        requireMaster(on);
        if (capture.isEmpty() && !movedCounters(capture)) {
            master.commit();
            awaitPublished();
            return 0;
        }
        if (appliers.isEmpty()) {
            // No slave replays commits, so nothing needs them in version order: they take no lock. (Measured: the
            // lock cost a one-replica cluster a quarter of H2's TPC-C throughput at 8 clients on 2 cores.)
            master.commit();
            committed.increment();
            this.master.advanceByOne();
            return 0;
        }
        long version = switch (lockForCommit(master)) {
            case LOCKED -> commitLocked(on, master, capture, lock);
            case AHEAD_OF_SCHEMA_CHANGE -> commitLocked(on, master, capture, aheadOfSchemaChange);
            case DEADLOCKED -> {
                rollback(on, master, capture);
                throw new SQLTransactionRollbackException("This update transaction was rolled back: it held a lock "
                        + "that a statement running on the master while commits are held (verify(), or the catalog "
                        + "read after a schema change) waited for, and its commit would have waited for that "
                        + "statement: neither could have gone on. Run the transaction again.",
                        MacroSqlState.SERIALIZATION_FAILURE);
            }
        };
        return version;
    }

    /**
     * The commit itself, under {@code held} (taken by {@link #lockForCommit}, released here). The counters are read
     * before the master commits: a schema change this commit goes ahead of runs as soon as it has, and may drop what
     * they are read from.
     */
    private long commitLocked(Replica on, Connection master, TransactionCapture capture, ReentrantLock held)
            throws SQLException {
        try {
            requireMaster(on);
            WriteSet.CounterState counters = counters(master, capture);
            master.commit();
            committed.increment();
            return publish(capture.seal(version() + 1, counters));
        } finally {
            held.unlock();
        }
    }

    /** How a commit may go on, see {@link #lockForCommit}. */
    private enum CommitTurn {
        /** It holds the commit lock. */
        LOCKED,
        /** It holds {@link #aheadOfSchemaChange}: the schema change holding commits waits for its locks to begin. */
        AHEAD_OF_SCHEMA_CHANGE,
        /** The statement holding commits waits for its locks, and cannot let it go first: it must give way. */
        DEADLOCKED
    }

    /**
     * Takes the commit lock for the commit of {@code committer}'s transaction, unless a statement that runs on the
     * master while commits are held waits for that transaction's locks (HSQLDB waits as long as it takes): then the
     * statement would wait for the commit and the commit for the statement. If that statement is a schema change's
     * DDL, which waits to begin, the commit goes first, as with the engine alone: the DDL has changed nothing yet and
     * takes its version after this one. Otherwise (the catalog read after the DDL, which may have let the transaction
     * write where no trigger captured it; {@code verify()}'s read, which compares at the version it holds) the commit
     * gives way, as the engines pick a deadlock's victim. The lock is not interruptible here (an interrupt is kept).
     */
    private CommitTurn lockForCommit(Connection committer) {
        if (lock.tryLock()) {
            return CommitTurn.LOCKED;
        }
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    if (lock.tryLock(DEADLOCK_CHECK_MILLIS, TimeUnit.MILLISECONDS)) {
                        return CommitTurn.LOCKED;
                    }
                } catch (InterruptedException e) {
                    interrupted = true;
                }
                if (waitedForBy(runningWithCommitsHeld, committer)) {
                    return mayGoAheadOfSchemaChange(committer) ? CommitTurn.AHEAD_OF_SCHEMA_CHANGE
                            : CommitTurn.DEADLOCKED;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Whether the schema change's own engine statement waits for {@code committer}'s locks, and so has not begun
     * ({@link Engine#waitsFor}); if so, returns holding {@link #aheadOfSchemaChange}.
     */
    private boolean mayGoAheadOfSchemaChange(Connection committer) {
        aheadOfSchemaChange.lock();
        if (schemaStatementWaitingFor(committer) != null) {
            return true;
        }
        aheadOfSchemaChange.unlock();
        return false;
    }

    /**
     * The schema change's own engine statement if it waits for {@code session}'s locks, else null. The statement cannot
     * end while it waits for that session, so the token read the same before and after the engine is asked means it
     * was that statement that waited, not a read of MacroDB's around it (or the catalog's refresh after it).
     */
    private SchemaStatement schemaStatementWaitingFor(Connection session) {
        SchemaStatement statement = schemaStatement;
        return statement != null && waitedForBy(runningWithCommitsHeld, session) && schemaStatement == statement
                ? statement : null;
    }

    private boolean waitedForBy(Connection statement, Connection committer) {
        try {
            return statement != null && engine.waitsFor(statement, committer);
        } catch (SQLException cannotTell) {
            return false; // keep waiting, and ask again
        }
    }

    /**
     * Holds a statement of an update transaction on {@code master} (its engine connection) back while a schema change
     * runs, until the catalog has the change: a table it created or changed is not in the catalog the row logs capture
     * by until then, and a row written there meanwhile would be refused, or captured in the table's old shape. A
     * statement of a transaction the schema change waits
     * for (HSQLDB: the table's lockers; in MVCC mode every open transaction) goes on: the change has not run, and
     * cannot until that transaction ends. Free when no schema change runs: one volatile read.
     */
    public long awaitSchemaChange(Connection master) throws SQLException {
        long begun = schemaChangesBegun; // read before the check: a change begun after it moves the count
        Connection change = schemaChanging;
        if (change == null || change == master) {
            return begun;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitTimeoutMillis);
        while ((change = schemaChanging) != null && !waitedForBy(change, master)) {
            if (System.nanoTime() > deadline) {
                throw new SQLTransientException("This statement waited " + waitTimeoutMillis + " ms for a schema "
                        + "change to end (statements of update transactions wait while one runs); run the transaction "
                        + "again.",
                        MacroSqlState.UPDATES_HELD);
            }
            LockSupport.parkNanos(this, SCHEMA_CHANGE_POLL_NANOS);
            begun = schemaChangesBegun;
        }
        return begun;
    }

    /**
     * Whether a schema change has begun since {@link #awaitSchemaChange} returned {@code begun}. A statement that had
     * passed that wait may still have been compiled after the change ran, and written a table the change created
     * before the catalog had it: its transaction must not commit. {@code master} is the statement's engine
     * connection.
     */
    public boolean schemaChangedSince(long begun, Connection master) {
        long now = schemaChangesBegun;
        // Unless the one change begun since still waits for this session's locks to begin its own statement: then the
        // statement that just ended ran before it (a writer the change waits for, let through at awaitSchemaChange).
        if (now == begun) {
            return false;
        }
        SchemaStatement waiting = now == begun + 1 ? schemaStatementWaitingFor(master) : null;
        return waiting == null || waiting.change() != now;
    }

    /**
     * A schema change's engine statement while it runs: {@code change} is its {@link #schemaChangesBegun} count,
     * {@code on} the master's engine connection it runs on.
     */
    private record SchemaStatement(long change, Connection on) {
    }

    /**
     * Runs {@code statement} on {@code master}, an engine connection to the master, while the caller holds commits:
     * a commit whose locks it comes to wait for gives way ({@link #lockForCommit}) instead of both waiting for ever.
     */
    public <T> T onMasterWhileCommitsHeld(Connection master, SqlCall<T> statement) throws SQLException {
        runningWithCommitsHeld = master;
        try {
            return statement.run();
        } finally {
            runningWithCommitsHeld = null;
        }
    }

    /**
     * Flow control: the master can commit faster than a slave replays (on a machine with no core to spare for the
     * appliers, or while a slave is slowed down), and nothing else would stop its queue from growing without bound.
     * The committer, whose transaction is already committed and who holds no lock, waits until every healthy slave
     * is within {@code maxLag} versions of its commit. A slave that fails or stays behind past the timeout stops
     * holding commits back: the commit has succeeded and must return. A slave that is not routable (catching up
     * after a rebuild, or paused while a new slave is copied from it) holds nothing back.
     */
    public void keepSlavesWithinMaxLag(long version) {
        long needed = version - maxLag;
        for (Applier applier : appliers) {
            Replica slave = applier.replica();
            if (slave.version() >= needed || !slave.isRoutable()) {
                continue;
            }
            long start = System.nanoTime();
            try {
                slave.awaitVersionWhileRoutable(needed, waitTimeoutMillis); // -1: paused meanwhile, let go
            } catch (SQLException e) {
                return; // failed, timed out or interrupted (the flag stays set): the commit itself succeeded
            } finally {
                lagWaits.increment();
                lagWaitNanos.add(System.nanoTime() - start);
            }
        }
    }

    /**
     * Rolls an update transaction back. Its rows are dropped; but sequences and identity counters do not roll back,
     * so when it moved one, their new state still becomes a version of its own.
     */
    public void rollback(Replica on, Connection master, TransactionCapture capture) throws SQLException {
        if (on.isLost()) {
            rollbackQuietly(master); // its database may be gone; nothing of it is kept either way
            return;
        }
        rollBackBesideSchemaChanges(master);
        if (movedCounters(capture)) {
            lock.lock();
            try {
                if (on != this.master) {
                    return; // replaced meanwhile: its counters went with it
                }
                capture.cutTo(0);
                publish(capture.seal(version() + 1, counters(master, capture)));
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Rolls {@code master}'s engine transaction back when the engine lets it ({@link Engine#mayRollBackBeside}) beside
     * the schema change statement running now, if any; else once that statement has ended, or waits for this
     * transaction's locks. Such a rollback is what MacroDB does to a statement that ran beside a schema change's start
     * ({@code schemaChangedSince}), so it comes while the change runs. Rollbacks count themselves in {@link
     * #rollbacksRunning} before they look for a statement, and a statement, once set, waits for those counted: one of
     * the two sees the other. A statement still running after {@code waitTimeoutMillis} (an engine that hangs) no
     * longer holds the rollback back: the transaction's locks would otherwise be held for good.
     */
    private void rollBackBesideSchemaChanges(Connection master) throws SQLException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitTimeoutMillis);
        while (true) {
            rollbacksRunning.incrementAndGet();
            try {
                if (mayRollBackNow(master) || System.nanoTime() > deadline) {
                    master.rollback();
                    return;
                }
            } finally {
                rollbacksRunning.decrementAndGet();
            }
            LockSupport.parkNanos(this, SCHEMA_CHANGE_POLL_NANOS);
        }
    }

    private boolean mayRollBackNow(Connection master) {
        SchemaStatement running = schemaStatement;
        try {
            return running == null || engine.mayRollBackBeside(running.on(), master);
        } catch (SQLException cannotTell) {
            return true; // a session closed meanwhile: the rollback fails or finds nothing to undo either way
        }
    }

    /**
     * Runs a DDL (or TRUNCATE) statement at the master as a version of its own: no commit can come between the
     * statement and its version, the catalog is brought up to date before anyone writes
     * again, and the slaves replay the statement's text at that same point of the sequence, after {@code session}
     * (the writer's session settings, see {@link WriteSet.SchemaChange}).
     */
    public <T> T runSchemaChange(Replica on, Connection master, String sql, List<String> session,
                                 SqlCall<T> statement) throws SQLException {
        return runSchemaChange(on, master, sql, session, statement, replayedOn -> sql);
    }

    /**
     * The same, with the DDL the slaves replay read from the master once {@code statement} ran ({@code replayed}):
     * a statement that read what only the master's session has (a temporary table) is replayed as what it made.
     */
    public <T> T runSchemaChange(Replica on, Connection master, String sql, List<String> session,
                                 SqlCall<T> statement, ReplayedAs replayed) throws SQLException {
        lock.lock();
        // To the end, the catalog's refresh included: the DROP TRIGGER of an older MacroDB's capture trigger is DDL
        // too, which HSQLDB's MVCC mode makes wait for every open transaction.
        runningWithCommitsHeld = master;
        try {
            requireMaster(on);
            boolean changesTriggers = UserTriggers.changesTriggers(sql);
            if (changesTriggers) {
                UserTriggers.refuseCaptureTriggerNames(sql);
            }
            String schema = master.getSchema();
            boolean sessionOnly = SessionTables.onlyTouched(engine, master, sql); // before: a DROP removes the table
            if (!sessionOnly) { // no update statement may write a table it creates before the catalog has it
                schemaChanging = master;
                schemaChangesBegun++; // after schemaChanging: see awaitSchemaChange; under the lock, none lost
            }
            T result;
            try {
                result = statement.run();
                master.commit();
            } catch (SQLException e) {
                master.rollback();
                throw e;
            }
            if (sessionOnly) { // the writer's own temporary table: nothing another session sees changed
                return result;
            }
            if (changesTriggers) { // the application's triggers stay on the master
                catalog.refreshTriggers(master);
            } else {
                catalog.refresh(master);
                String replay = replayed.sql(master);
                if (replay != null) {
                    publish(new WriteSet(version() + 1, List.of(new WriteSet.SchemaChange(schema, replay, session))));
                }
            }
            engine.afterCatalogRead(master);
            return result;
        } finally {
            schemaChanging = null;
            runningWithCommitsHeld = null;
            lock.unlock();
        }
    }

    /**
     * Runs the engine statement that makes a schema change (its DDL or TRUNCATE), called by the statement given to
     * {@link #runSchemaChange} (MacroDB's own reads around it are not run through this): a commit that statement waits
     * for may go ahead of it meanwhile ({@link #mayGoAheadOfSchemaChange}), and has its version once this returns.
     */
    public <T> T runSchemaChangeStatement(SqlCall<T> statement) throws SQLException {
        if (!lock.isHeldByCurrentThread()) {
            throw new IllegalStateException("a schema change's statement runs inside runSchemaChange");
        }
        // The running change's count (schemaChanging is set for it); 0 for one on temporary tables only.
        schemaStatement = new SchemaStatement(schemaChanging != null ? schemaChangesBegun : 0, runningWithCommitsHeld);
        try {
            while (rollbacksRunning.get() > 0) { // begun before it was set: they end without waiting for anything
                LockSupport.parkNanos(this, SCHEMA_CHANGE_POLL_NANOS);
            }
            return statement.run();
        } finally {
            schemaStatement = null;
            aheadOfSchemaChange.lock(); // waits for a commit let through to take its version
            aheadOfSchemaChange.unlock();
        }
    }

    /** Fails with the retryable 40M01 unless {@code on} is the master now. */
    private void requireMaster(Replica on) throws SQLException {
        if (on != master || on.isLost()) {
            throw new SQLTransientException("The master this update transaction ran on (replica " + on.index()
                    + ") failed; nothing of the transaction was committed. Run it again: it runs on the new master.",
                    MacroSqlState.REPLICA_LOST);
        }
    }

    private static void rollbackQuietly(Connection connection) {
        try {
            connection.rollback();
        } catch (SQLException ignored) {
            // the engine is gone: there is nothing left to roll back
        }
    }

    /**
     * Returns once no commit is between its master commit and its version. A transaction that read at the master may
     * have seen rows whose commit holds the lock and has no version yet; ending it only after that version exists
     * means the client's next read-only transaction (which needs the master's version) cannot be sent to a slave
     * older than what it has just read. Free when no commit is in flight.
     */
    public void awaitPublished() {
        if (lock.isLocked()) {
            lock.lock();
            lock.unlock();
        }
    }

    /**
     * Runs {@code action} while no commit can happen: the committed version stays what it is. (With no slave,
     * commits take no lock and may happen meanwhile; there is then one replica and nothing to compare it with.)
     */
    public <T> T whileCommitsHeld(SqlCall<T> action) throws SQLException {
        lock.lock();
        try {
            return action.run();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The master's version moves first, then the slaves get the write set: no slave may ever be ahead of the master's
     * version, or a reader could see version v+1 on one slave and then be sent to another still at v.
     */
    private long publish(WriteSet writeSet) {
        if (appliers.isEmpty()) {
            return master.advanceByOne(); // commits without a slave move the version outside the lock
        }
        master.advanceTo(writeSet.version());
        for (Applier applier : appliers) {
            applier.enqueue(writeSet);
        }
        return writeSet.version();
    }

    /** Whether {@code capture} may have moved a sequence or identity counter, whose state the slaves must get. */
    private boolean movedCounters(TransactionCapture capture) {
        return movedSequences(capture) || !capture.identityTables().isEmpty() || drewFromUnknownIdentity(capture);
    }

    /**
     * A statement that names a sequence, one that writes rows where a default or a trigger may draw from one, or any
     * statement where a routine may.
     */
    private boolean movedSequences(TransactionCapture capture) {
        return capture.usesSequences() || capture.hasWrittenRows() && catalog.writesMayDrawSequences()
                || catalog.routinesMayDrawSequences();
    }

    /** An insert that inserted nothing (it failed, or ignored its row) may have drawn from any identity column. */
    private boolean drewFromUnknownIdentity(TransactionCapture capture) {
        return capture.mayHaveDrawnIdentities() && catalog.hasIdentityColumns();
    }

    private WriteSet.CounterState counters(Connection master, TransactionCapture capture) throws SQLException {
        if (!movedCounters(capture)) {
            return null;
        }
        Map<String, Long> sequences = movedSequences(capture) ? engine.sequenceState(master) : Map.of();
        Map<String, Long> identities;
        if (drewFromUnknownIdentity(capture)) {
            identities = engine.identityState(master); // every table's: slaves restart only the ones that moved
        } else if (capture.identityTables().isEmpty()) {
            identities = Map.of();
        } else {
            identities = engine.identityState(master, capture.identityTables());
        }
        return new WriteSet.CounterState(sequences, catalog.byTable(identities));
    }

    /** A piece of JDBC work run under the commit lock. */
    @FunctionalInterface
    public interface SqlCall<T> {
        T run() throws SQLException;
    }

    /** The DDL text the slaves replay for a schema change that ran on {@code master}; null: it changed nothing. */
    @FunctionalInterface
    public interface ReplayedAs {
        String sql(Connection master) throws SQLException;
    }
}
