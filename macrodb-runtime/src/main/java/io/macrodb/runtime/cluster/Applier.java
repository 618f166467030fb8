package io.macrodb.runtime.cluster;

import io.macrodb.api.MacroSqlState;
import io.macrodb.runtime.capture.CapturedTable;
import io.macrodb.runtime.capture.WriteSet;
import io.macrodb.runtime.engine.DirectRowWriter;
import io.macrodb.runtime.engine.Engine;
import io.macrodb.runtime.engine.SqlQueries;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLTransientException;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The one thread that writes a slave: takes write sets from its queue in version order, applies each row change
 * (through the engine's table API where it has one, {@link DirectRowWriter}, else as a keyed statement), commits,
 * and advances the slave's version.
 *
 * <p>The queue is filled under the commit lock, so its order is the version order and no sorting is needed. The
 * applier never contends for the commit lock; it parks when its queue is empty and is unparked by the next enqueue
 * (only then: waking a parked thread costs the committer microseconds, under the commit lock).
 * Write sets already queued are applied under one slave commit, up to {@code macrodb.applyBatch} of them: the slave
 * then moves several versions in one step, each state it exposes being exactly the master's state at some version.
 *
 * <p>Every keyed statement must touch exactly one row. One that does not proves the slave differs from the master:
 * the slave is marked failed and leaves routing at once, rather than serve a wrong answer.
 *
 * <p>An applier can be paused between two slave commits, its database then holding exactly the master's state at
 * the slave's version: that is how a new slave is copied from this one ({@link SlaveRebuild}).
 */
final class Applier implements Runnable {

    private static final Logger LOG = Logger.getLogger(Applier.class.getName());
    private static final long IDLE_PARK_NANOS = 50_000_000L;
    private static final long PAUSE_POLL_NANOS = 100_000L;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final boolean THREAD_CPU_TIME = THREADS.isCurrentThreadCpuTimeSupported()
            && THREADS.isThreadCpuTimeEnabled();

    private final Replica replica;
    private final Connection connection;
    private final Sessions sessions;
    private final TableCatalog catalog;
    private final Engine engine;
    private final int batchLimit;
    private final ConcurrentLinkedQueue<WriteSet> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger depth = new AtomicInteger();
    private final Map<CapturedTable, PreparedStatement[]> statements = new IdentityHashMap<>();
    private final Map<CapturedTable, Map<Long, PreparedStatement>> updates = new IdentityHashMap<>();
    /** The writer's settings this applier's session is under now ({@link WriteSet#sessionSettings}). */
    private List<String> sessionSettings = List.of();
    private final Map<String, Long> appliedSequences = new HashMap<>();
    private final Map<String, Long> appliedIdentities = new HashMap<>();
    /**
     * Counter states of the batch in hand, set on the slave once, at its end: each {@code RESTART} is DDL, which cost
     * more than the rows of a typical insert transaction, and the slave shows no state inside a batch.
     */
    private final Map<String, Long> batchSequences = new java.util.LinkedHashMap<>();
    private final Map<String, Map.Entry<CapturedTable, Long>> batchIdentities = new java.util.LinkedHashMap<>();
    private final Thread thread;
    private final Consumer<Replica> failures;
    private final WriteSet.StoredValues storedValues;
    /** Writes rows past SQL where the engine can ({@link Engine#directWriter}); null where it cannot. */
    private DirectRowWriter direct;
    private volatile boolean stopping;
    private volatile boolean pauseRequested;
    /**
     * Set by the applier thread while it parks for want of work, so that only then does an enqueue unpark it: waking
     * a parked thread cost the committing thread about 9 microseconds (measured on the 2-core machine), under the
     * commit lock, for every commit; an applier that is busy needs no waking. The applier sets it before it looks at
     * the queue a last time and an enqueue offers before it reads it (both volatile): one of them sees the other.
     */
    private volatile boolean idle;
    /** The thread is stopped by {@link #pause}: set by the applier thread itself, after its last slave commit. */
    private volatile boolean parked;
    /** After a pause: the version at which the slave rejoins routing; -1 when it is not out. */
    private volatile long rejoinAt = -1;

    /** Opens another session on this applier's slave database. */
    @FunctionalInterface
    interface Sessions {
        Connection open() throws SQLException;
    }

    /**
     * @param sessions opens a session on the slave's database, for DDL run under the writer's session settings
     * @param failures told when this applier's replica fails to apply a write set
     */
    Applier(Replica replica, Connection connection, Sessions sessions, TableCatalog catalog, Engine engine,
            int batchLimit, Consumer<Replica> failures) {
        this.sessions = sessions;
        this.failures = failures;
        this.replica = replica;
        this.connection = connection;
        this.catalog = catalog;
        this.engine = engine;
        this.batchLimit = batchLimit;
        this.storedValues = (table, row, columns) -> engine.storedValues(connection, table.name(), row, columns);
        this.thread = new Thread(this, "macrodb-applier-" + replica.index());
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Called under the commit lock, in version order. */
    void enqueue(WriteSet writeSet) {
        queue.offer(writeSet);
        depth.incrementAndGet();
        if (idle) {
            LockSupport.unpark(thread);
        }
    }

    /** The write sets queued and not applied yet, in version order; exact only while paused and commits are held. */
    List<WriteSet> pending() {
        return List.copyOf(queue);
    }

    /**
     * Stops this applier between two slave commits and returns the version its slave then holds exactly. Write sets
     * go on queueing meanwhile. Fails if the slave fails, or does not stop within {@code timeoutMillis}.
     */
    long pause(long timeoutMillis) throws SQLException {
        pauseRequested = true;
        replica.setPaused(true);
        LockSupport.unpark(thread);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (!parked) {
            if (replica.isLost() || System.nanoTime() > deadline) {
                resume(0);
                throw new SQLTransientException(replica + " could not be paused to copy a new slave from it",
                        MacroSqlState.REPLICA_LOST);
            }
            LockSupport.parkNanos(PAUSE_POLL_NANOS);
        }
        return replica.version();
    }

    /**
     * Lets the applier go on after {@link #pause}. Its slave stays out of routing and flow control until it has
     * applied version {@code rejoinAt} (where the master was when the copy ended): its backlog would otherwise hold
     * every commit back until it was within {@code macrodb.maxLag} again.
     */
    void resume(long rejoinAt) {
        this.rejoinAt = rejoinAt;
        pauseRequested = false;
        LockSupport.unpark(thread);
        rejoinIfCaughtUp();
    }

    /** Clears the pause once the slave has reached {@link #rejoinAt}: called after each batch, cheap otherwise. */
    private void rejoinIfCaughtUp() {
        long at = rejoinAt;
        if (at >= 0 && !pauseRequested && replica.version() >= at) {
            rejoinAt = -1;
            replica.setPaused(false);
        }
    }

    /** Parks until an enqueue (or a pause, a resume, a stop) unparks this thread, or for at most a while. */
    private void parkUntilEnqueued() {
        idle = true;
        try {
            if (queue.isEmpty()) {
                LockSupport.parkNanos(this, IDLE_PARK_NANOS);
            }
        } finally {
            idle = false;
        }
    }

    private void parkWhilePaused() {
        parked = true;
        while (pauseRequested && !replica.isLost()) {
            LockSupport.parkNanos(this, IDLE_PARK_NANOS);
        }
        parked = false;
    }

    Replica replica() {
        return replica;
    }

    int queueDepth() {
        return depth.get();
    }

    /** Applies everything queued, then ends the thread (the caller guarantees nothing more is enqueued). */
    void drainAndStop() throws InterruptedException {
        stopping = true;
        LockSupport.unpark(thread);
        thread.join();
    }

    @Override
    public void run() {
        try {
            direct = engine.directWriter(connection);
            while (!replica.isLost()) {
                if (pauseRequested) {
                    parkWhilePaused();
                    continue;
                }
                WriteSet first = queue.poll();
                if (first == null) {
                    if (stopping) {
                        return;
                    }
                    rejoinIfCaughtUp();
                    parkUntilEnqueued();
                    continue;
                }
                applyBatch(first);
                rejoinIfCaughtUp();
            }
        } catch (SQLException | RuntimeException e) {
            // A replica failed already (on purpose, or retired with its database shut down under this thread) is
            // expected to fail its statement: only an unexpected failure is worth a SEVERE.
            if (!replica.isLost()) {
                LOG.log(Level.SEVERE, "MacroDB: " + replica + " failed to apply a write set and leaves routing", e);
            }
            failures.accept(replica);
        } finally {
            releaseStatements();
        }
    }

    /**
     * An engine's prepared statement keeps its session, hence the whole database, reachable: a stopped applier lets
     * its statements go so that a shut-down cluster someone still holds (a metrics binder) pins no slave's rows.
     */
    private void releaseStatements() {
        try {
            closeStatements();
        } catch (SQLException e) {
            LOG.log(Level.FINE, "MacroDB: closing " + replica + "'s statements", e);
        }
        statements.clear();
        updates.clear();
    }

    private void applyBatch(WriteSet first) throws SQLException {
        long start = System.nanoTime();
        long cpuStart = threadCpuNanos();
        WriteSet last = first;
        int applied = 1;
        apply(first);
        while (applied < batchLimit) {
            WriteSet next = queue.poll();
            if (next == null) {
                break;
            }
            apply(next);
            last = next;
            applied++;
        }
        setCounters();
        connection.commit();
        depth.addAndGet(-applied);
        replica.advanceTo(last.version());
        replica.applied(applied, System.nanoTime() - start, threadCpuNanos() - cpuStart);
    }

    /** This thread's CPU time, or 0 where the JVM does not measure it (the CPU total then stays 0). */
    private static long threadCpuNanos() {
        return THREAD_CPU_TIME ? THREADS.getCurrentThreadCpuTime() : 0;
    }

    private void apply(WriteSet writeSet) throws SQLException {
        useSessionSettings(writeSet.sessionSettings());
        for (WriteSet.Entry entry : writeSet.entries()) {
            if (entry instanceof WriteSet.RowChange change) {
                try {
                    applyRow(change);
                } catch (SQLException e) {
                    if (!engine.isStatementDropped(e)) {
                        throw e;
                    }
                    closeStatements(); // the engine dropped one: prepare them again, once (it fails the replica if not)
                    applyRow(change);
                }
            } else if (entry instanceof WriteSet.SchemaChange change) {
                applySchemaChange(change);
            } else if (entry instanceof WriteSet.CounterState counters) {
                applyCounters(counters);
            }
        }
    }

    private void applyRow(WriteSet.RowChange change) throws SQLException {
        CapturedTable table = change.table();
        int written = direct == null ? DirectRowWriter.NOT_WRITTEN : direct.apply(change, storedValues);
        if (written != DirectRowWriter.NOT_WRITTEN) {
            expectOneRow(written, change.kind(), table);
            return;
        }
        if (change.kind() == WriteSet.Kind.UPDATE && table.keyed()) {
            long changed = table.changedColumns(change.before(), change.after());
            if (changed >= 0) {
                applyChangedColumns(change, changed);
                return;
            }
        }
        // An INSERT's text is the same for every row; without a key, an UPDATE's or DELETE's match clause depends on
        // which old values are null, so those are prepared per row. (HSQLDB parsed the INSERT of TPC-C's keyless
        // HISTORY table again for every Payment: 4.5% of its applier's CPU.)
        boolean reusable = table.keyed() || change.kind() == WriteSet.Kind.INSERT;
        PreparedStatement statement = reusable ? statement(table, change.kind())
                : connection.prepareStatement(change.kind() == WriteSet.Kind.UPDATE ? table.updateSql(change.before())
                : table.deleteSql(change.before()));
        int p = 1;
        if (change.kind() != WriteSet.Kind.DELETE) {
            Object[] row = change.storedAfter(storedValues, WriteSet.ALL_COLUMNS);
            for (int i : change.kind() == WriteSet.Kind.INSERT ? table.insertedColumns() : table.setColumns()) {
                statement.setObject(p++, row[i]);
            }
        }
        if (change.kind() != WriteSet.Kind.INSERT) {
            for (int i : table.matchColumns()) {
                Object old = change.before()[i];
                if (old != null || table.keyed()) {
                    statement.setObject(p++, old);
                }
            }
        }
        int count = statement.executeUpdate();
        if (!reusable) {
            statement.close();
        }
        expectOneRow(count, change.kind(), table);
    }

    /** A keyed update that sets only the columns it changed; one that changed nothing leaves the row as it is. */
    private void applyChangedColumns(WriteSet.RowChange change, long changedColumns) throws SQLException {
        CapturedTable table = change.table();
        long changed = table.settable(changedColumns); // a computed column follows the others by itself
        if (changed == 0) {
            return;
        }
        Map<Long, PreparedStatement> forTable = updates.computeIfAbsent(table, t -> new HashMap<>());
        PreparedStatement statement = forTable.get(changed);
        if (statement == null) {
            statement = connection.prepareStatement(table.updateSql(changed));
            forTable.put(changed, statement);
        }
        int p = 1;
        Object[] row = change.storedAfter(storedValues, changed);
        for (int i = 0; i < table.columns().size(); i++) {
            if ((changed & (1L << i)) != 0) {
                statement.setObject(p++, row[i]);
            }
        }
        for (int i : table.matchColumns()) {
            statement.setObject(p++, change.before()[i]);
        }
        expectOneRow(statement.executeUpdate(), WriteSet.Kind.UPDATE, table);
    }

    /** A keyed statement that did not touch exactly one row proves this slave differs from the master. */
    private void expectOneRow(int count, WriteSet.Kind kind, CapturedTable table) throws SQLException {
        if (count != 1) {
            throw new SQLException("Replica " + replica.index() + " diverged: " + kind + " on " + table
                    + " touched " + count + " rows instead of 1");
        }
    }

    private PreparedStatement statement(CapturedTable table, WriteSet.Kind kind) throws SQLException {
        PreparedStatement[] forTable = statements.computeIfAbsent(table, t -> new PreparedStatement[3]);
        PreparedStatement statement = forTable[kind.ordinal()];
        if (statement == null) {
            String sql = switch (kind) {
                case INSERT -> table.insertSql();
                case UPDATE -> table.updateSql(null);
                case DELETE -> table.deleteSql(null);
            };
            statement = connection.prepareStatement(sql);
            forTable[kind.ordinal()] = statement;
        }
        return statement;
    }

    /**
     * DDL commits in both engines: the rows applied before it commit with it, as they did on the master. DDL the
     * writer ran under session settings of its own runs on a session of its own with the same settings, which this
     * applier's session must not keep.
     */
    private void applySchemaChange(WriteSet.SchemaChange change) throws SQLException {
        setCounters(); // the DDL may restart or drop one; and what it sets must not be overwritten by an earlier state
        closeStatements();
        if (change.session().isEmpty()) {
            runInSchema(connection, change);
        } else {
            connection.commit();
            try (Connection writers = sessions.open()) {
                for (String setting : change.session()) {
                    SqlQueries.execute(writers, setting);
                }
                runInSchema(writers, change);
                writers.commit();
            }
        }
        connection.commit();
        // DDL moves counters by itself (TRUNCATE ... RESTART IDENTITY, ALTER SEQUENCE/COLUMN ... RESTART, a sequence or
        // table dropped and created again): what this slave last set is no longer what it holds, and a later counter
        // state equal to it (the same rows inserted again after a restart) must not be skipped as already applied.
        appliedSequences.clear();
        appliedIdentities.clear();
    }

    /**
     * Puts this applier's session under the writer's settings a write set asks for (its time zone), or back to its
     * own when it asks for none. The same settings as the write set before cost nothing.
     */
    private void useSessionSettings(List<String> wanted) throws SQLException {
        if (wanted.equals(sessionSettings)) {
            return;
        }
        if (wanted.isEmpty()) {
            SqlQueries.execute(connection, "SET TIME ZONE LOCAL"); // both engines: the JVM's zone, as when opened
        }
        for (String setting : wanted) {
            SqlQueries.execute(connection, setting);
        }
        sessionSettings = wanted;
    }

    private static void runInSchema(Connection session, WriteSet.SchemaChange change) throws SQLException {
        String schema = session.getSchema();
        if (change.schema() != null && !change.schema().equals(schema)) {
            session.setSchema(change.schema());
        }
        SqlQueries.execute(session, change.sql());
        if (change.schema() != null && !change.schema().equals(schema)) {
            session.setSchema(schema);
        }
    }

    /** Notes a write set's counter states, for {@link #setCounters} at the end of the batch (or before DDL). */
    private void applyCounters(WriteSet.CounterState counters) {
        batchSequences.putAll(counters.sequences());
        for (var identity : counters.identities().entrySet()) {
            CapturedTable table = identity.getKey(); // as it was named at this version (see CounterState)
            if (table.identityColumn() >= 0) {
                batchIdentities.put(table.name().key(), Map.entry(table, identity.getValue()));
            }
        }
    }

    /** Sets the counters the batch moved, each to its last state, where the slave does not hold that already. */
    private void setCounters() throws SQLException {
        for (var sequence : batchSequences.entrySet()) {
            if (!sequence.getValue().equals(appliedSequences.put(sequence.getKey(), sequence.getValue()))) {
                SqlQueries.execute(connection, engine.restartSequence(sequence.getKey(), sequence.getValue()));
            }
        }
        for (var identity : batchIdentities.values()) {
            CapturedTable table = identity.getKey();
            if (!identity.getValue().equals(appliedIdentities.put(table.name().key(), identity.getValue()))) {
                SqlQueries.execute(connection, engine.restartIdentity(table, identity.getValue()));
            }
        }
        batchSequences.clear();
        batchIdentities.clear();
    }

    /** Closes the prepared statements, and has the direct writer forget the tables, which DDL may have changed. */
    private void closeStatements() throws SQLException {
        if (direct != null) {
            direct.forgetTables();
        }
        for (PreparedStatement[] forTable : statements.values()) {
            for (PreparedStatement statement : forTable) {
                if (statement != null) {
                    statement.close();
                }
            }
        }
        statements.clear();
        for (Map<Long, PreparedStatement> forTable : updates.values()) {
            for (PreparedStatement statement : forTable.values()) {
                statement.close();
            }
        }
        updates.clear();
    }
}
