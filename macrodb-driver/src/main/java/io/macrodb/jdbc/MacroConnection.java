package io.macrodb.jdbc;

import io.macrodb.api.MacroCluster;
import io.macrodb.api.MacroSqlState;
import io.macrodb.api.ReplicaRole;
import io.macrodb.runtime.capture.TransactionCapture;
import io.macrodb.runtime.cluster.Cluster;
import io.macrodb.runtime.cluster.CommitSequencer;
import io.macrodb.runtime.cluster.OpenRead;
import io.macrodb.runtime.cluster.Replica;
import io.macrodb.runtime.engine.CaptureTriggers;
import io.macrodb.runtime.sql.SqlText;

import java.sql.Array;
import java.sql.BatchUpdateException;
import java.sql.Blob;
import java.sql.CallableStatement;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.NClob;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Struct;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * A client's connection to a MacroDB cluster: the paper's per-client state. It owns one physical connection to the
 * master (opened at once) and one to each slave it has read from (opened on first use), and runs every transaction
 * on exactly one of them:
 * <ul>
 *   <li>update transaction ({@code readOnly == false}): on the master, in the caller's thread, its rows captured;
 *       commit goes through the cluster's commit sequencer, which gives it a version and queues its writes;</li>
 *   <li>read-only transaction: on the replica the cluster's router picks, once that replica has applied the version
 *       the master had when the transaction began.</li>
 * </ul>
 * A transaction begins at its first statement (or savepoint). The physical connections always run in manual-commit
 * mode: auto-commit is emulated here (one transaction per statement), because a master commit must happen under the
 * commit sequencer's lock to get its version in commit order.
 *
 * <p>Changing read-only or isolation while a transaction is active is refused (SQLState 25000): the transaction is
 * bound to one engine and one isolation level. Closed is a state: every method but close/isClosed/isValid checks it
 * through {@link #checkOpen()} and fails with 08003.
 */
public final class MacroConnection implements Connection {

    private final Cluster cluster;
    /** Whether the cluster has slaves (read once: every writing statement asks; with none, no row can be missed). */
    private final boolean replicated;
    private final String url;
    private final Properties engineProperties;
    /** What reading a statement needs of the cluster: its routines (read as they change) and its engine. */
    private final StatementKind.Context statementContext;
    /** The session on the master; replaced by one on the new master after a promotion, between transactions. */
    private PhysicalSession master;
    // Concurrent: close or abort may read them from another thread while the owner adds to them.
    private final Map<Replica, PhysicalSession> slaves = new ConcurrentHashMap<>();
    private final Set<MacroStatement> statements = ConcurrentHashMap.newKeySet();
    private final SessionStatements sessionStatements = new SessionStatements();
    private final Properties clientInfo = new Properties();
    private volatile boolean closed; // close or abort may close it from another thread
    /**
     * Set once {@link #close} or {@link #abort} begins, maybe from another thread than the owner's: engine errors since
     * are the close's (its engine connections closed under a statement in flight), not a lost replica's. A close from
     * another thread failed an HSQLDB master over (found by a stress review, 2026-11-23); abort's did before.
     */
    private volatile boolean closing;
    /**
     * Set by {@link #abort}: the connection counts as closed at once, and its close runs on the abort's executor, so
     * that abort never waits for a commit in flight (which may wait for the commit lock behind a schema change).
     */
    private volatile boolean aborting;
    private boolean autoCommit = true;
    private boolean readOnly;
    private int isolation;
    private int holdability;
    private String schema;
    private int networkTimeout;
    /** Written under {@link #ending}; volatile, as close or abort may end it from another thread. */
    private volatile Transaction transaction;
    /**
     * Held while a transaction is begun or ended and while the connection closes. Close (or abort) from another thread
     * raced a commit: both ended the transaction, so the master rolled back what the slaves then applied, or the close
     * rolled it back and the commit returned as if it had committed (found by a stress review, 2026-11-23).
     */
    private final Object ending = new Object();

    MacroConnection(Cluster cluster, String url, Properties engineProperties) throws SQLException {
        cluster.checkOpen();
        this.cluster = cluster;
        this.replicated = cluster.config().replicas() > 1;
        this.statementContext = new StatementKind.Context(cluster.catalog()::callsVolatileRoutine,
                cluster.engineSupport()::setsSessionVariables, cluster.engineSupport().schemaChangingFunctions());
        this.url = url;
        this.engineProperties = engineProperties;
        Replica on = cluster.master();
        Connection physical = open(on);
        this.master = new PhysicalSession(on, physical, cluster.engineSupport().rowLog(physical));
        this.isolation = physical.getTransactionIsolation();
        this.holdability = physical.getHoldability();
    }

    // ---- the transaction path: every statement comes through here ----

    /** What {@code sql} does ({@link StatementKind#of}) on this cluster, its routines and engine known. */
    StatementKind kindOf(String sql) throws SQLException {
        return StatementKind.of(sql, statementContext);
    }

    private StatementKind kindOfPrepared(String sql) throws SQLException {
        return StatementKind.ofPrepared(sql, statementContext);
    }

    /**
     * Runs one statement of the current transaction, beginning one if none is active, and ends it after the
     * statement in auto-commit mode. DDL, {@code SET}, and transaction-control statements take their own paths.
     */
    <T> T execute(StatementKind kind, String sql, Transaction.StatementCall<T> call) throws SQLException {
        if (kind.engineMayCommit() && transaction != null && cluster.engineSupport().commitsOpenTransaction(sql)) {
            // The engine would commit the open transaction itself, out of MacroDB's commit order (a rollback after
            // it left the master with rows no slave got): MacroDB commits it first, as the engine alone would.
            end(true);
        }
        switch (kind.type()) {
            case SCHEMA_CHANGE:
                return executeSchemaChange(sql, call);
            case SESSION:
                if (SessionStatement.setsNextTransactionAccess(sql)) {
                    // The access mode of the transaction it begins (HSQLDB; Spring's enforceReadOnly sends it): run
                    // as that transaction's first statement, on its session, and not replayed. Recorded as a session
                    // setting, it ran on the master before a read-only transaction went to a slave, stayed pending
                    // there, and the connection's next update transaction failed with 25006.
                    break;
                }
                return executeSessionStatement(sql, call);
            case MASTER_SETTING:
                return executeMasterSetting(call);
            case COMMIT:
                commit();
                return null;
            case ROLLBACK:
                rollback();
                return null;
            case SHUTDOWN:
                cluster.shutdown();
                return null;
            case SCRIPT:
                // A backup made with SCRIPT through a MacroDB of before 2026-11-29 holds its capture triggers, whose
                // names MacroDB refuses: they are left out.
                runStatements(cluster.engineSupport().scriptStatements(sql).stream()
                        .filter(statement -> !CaptureTriggers.isCaptureTriggerDefinition(statement)).toList());
                return null;
            default:
                break;
        }
        if (sql != null && !kind.writes() && (readOnly || transaction != null && transaction.isReadOnly())
                && cluster.catalog().mayDrawThroughRoutine(sql)) {
            // A slave's sequence would move and hand out a value the master hands out again.
            throw new SQLException("This statement calls a routine of the application's, which may draw from a "
                    + "sequence, in a read-only transaction: it would draw on a slave, where the value is not the "
                    + "master's. Run it in an update transaction (setReadOnly(false)).",
                    MacroSqlState.READ_ONLY_TRANSACTION);
        }
        return inTransaction(kind, MacroConnection::runStatement, call, sql);
    }

    private static <T> T runStatement(MacroConnection connection, Transaction tx, StatementKind kind,
            Transaction.StatementCall<T> call, String sql) throws SQLException {
        T result = tx.run(call, kind);
        connection.passOnVariablesSetByCall(sql, tx.session());
        return result;
    }

    /**
     * HSQLDB's {@code CALL p(v)} sets the session variable {@code v} through a procedure's OUT or INOUT argument:
     * once the connection has declared variables, the session's are given to its other sessions after a CALL as after
     * a DECLARE or SET (a read-only transaction on a slave read the value from before the call: found 2026-11-29).
     */
    private void passOnVariablesSetByCall(String sql, PhysicalSession session) throws SQLException {
        // Asked after every statement: the map lookup first, the text read only on a connection with variables.
        if (sql == null || !sessionStatements.holdsEveryVariable() || !SqlText.firstWord(sql).equals("CALL")) {
            return;
        }
        SessionStatement variables = SessionStatement.variablesAfter(sql, session.connection(),
                cluster.engineSupport());
        if (variables != null) {
            session.markSessionStatementsRun(sessionStatements.record(variables));
        }
    }

    /**
     * Runs {@code statements} one after the other through this connection, each as the application's own would run
     * (classified, captured, replicated): a script's, or H2's {@code INIT} commands.
     */
    void runStatements(List<String> statements) throws SQLException {
        try (Statement statement = createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    /**
     * Runs a JDBC batch of row statements (no DDL, no session statement) as one statement of the current transaction,
     * so that what is captured matches what the engine kept when some of its elements fail ({@link BatchRun}).
     * {@code call} is the text of an element that may be a {@code CALL} (which may set session variables; checked
     * again), else null.
     */
    long[] executeBatch(StatementKind kind, BatchRun.Elements batch, String call) throws SQLException {
        return inTransaction(kind, MacroConnection::runBatch, batch, call);
    }

    private static long[] runBatch(MacroConnection connection, Transaction tx, StatementKind kind,
            BatchRun.Elements batch, String call) throws SQLException {
        long[] counts = tx.runBatch(batch, kind);
        connection.passOnVariablesSetByCall(call, tx.session());
        return counts;
    }

    /**
     * A statement's or a batch's run in a transaction, handed all it needs: a lambda that captured them was made for
     * every statement (2% of what a TPC-C client allocated on HSQLDB).
     */
    @FunctionalInterface
    private interface StatementWork<S, T> {
        /** Runs {@code statement} in {@code tx}; {@code sql} is its text where it may be a CALL, else null. */
        T run(MacroConnection connection, Transaction tx, StatementKind kind, S statement, String sql)
                throws SQLException;
    }

    /**
     * Runs {@code statement} with {@code work} in the active transaction, or a new one, ending it after the work in
     * auto-commit mode.
     */
    private <S, T> T inTransaction(StatementKind kind, StatementWork<S, T> work, S statement, String sql)
            throws SQLException {
        Transaction tx = begin(kind);
        boolean succeeded = false;
        try {
            boolean mayWrite = replicated && kind.writes() && !tx.isReadOnly();
            long schemaChanges = mayWrite ? cluster.sequencer().awaitSchemaChange(tx.session().connection()) : 0;
            T result = work.run(this, tx, kind, statement, sql);
            if (mayWrite && cluster.sequencer().schemaChangedSince(schemaChanges, tx.session().connection())) {
                // It may have written a table that change created or changed before the catalog had the change: those
                // rows were refused or captured in the table's old shape. Nothing of the transaction may commit.
                end(false);
                throw new SQLTransactionRollbackException("A schema change ran beside this statement, which may have "
                        + "written a table before MacroDB captured its rows; the transaction was rolled back. Run it "
                        + "again.", MacroSqlState.SERIALIZATION_FAILURE);
            }
            succeeded = true;
            return result;
        } catch (BatchUpdateException e) {
            // Both engines keep a failed batch's elements that succeeded, and in auto-commit mode commit them
            // (unless the replica itself was lost).
            SQLException translated = engineError(tx.session().replica(), e);
            succeeded = translated == e;
            throw translated;
        } catch (SQLException e) {
            throw engineError(tx.session().replica(), e);
        } finally {
            if (autoCommit) {
                if (succeeded) {
                    end(true);
                } else {
                    endQuietly();
                }
            }
        }
    }

    @FunctionalInterface
    private interface TransactionWork<T> {
        T run(Transaction tx) throws SQLException;
    }

    /** The active transaction, or a new one routed by the read-only flag; a write never reaches a read-only one. */
    private Transaction begin(StatementKind kind) throws SQLException {
        checkOpen();
        if (transaction != null) {
            if (transaction.isReadOnly() && kind.writes()) {
                throw readOnlyViolation();
            }
            if (transaction.isReadOnly() && kind.locksRows()
                    && transaction.session().replica().role() != ReplicaRole.MASTER) {
                throw lockOnSlave();
            }
            return transaction;
        }
        if (readOnly) {
            if (kind.writes()) {
                throw readOnlyViolation();
            }
            // A locking read keeps writers out only where they write, and on a slave it would hold the applier back
            // (on H2 until the applier's lock timeout failed the slave: found by two reviews, 2026-11-23).
            OpenRead read = cluster.beginRead(kind.locksRows());
            try {
                PhysicalSession session = sessionFor(read.replica());
                read.runsOn(session.connection());
                sync(session);
                return publish(Transaction.readOnly(session, read));
            } catch (SQLException | RuntimeException e) {
                cluster.endRead(read);
                throw e;
            }
        }
        Replica on = cluster.beginUpdate();
        try {
            PhysicalSession session = masterSessionOn(on);
            sync(session);
            return publish(Transaction.update(session,
                    new TransactionCapture(cluster.catalog()::get, sessionStatements.rowSettings())));
        } catch (SQLException | RuntimeException e) {
            cluster.endUpdate(on);
            throw e;
        }
    }

    /** Makes {@code begun} the active transaction, unless a close from another thread came first (08003). */
    private Transaction publish(Transaction begun) throws SQLException {
        synchronized (ending) {
            checkOpen(); // else a transaction no close will end: its replica would count it as running for ever
            transaction = begun;
            return begun;
        }
    }

    /**
     * The session on master {@code on}: after a promotion, a new one replaces the session on the old master (which
     * failed), between transactions. A read-only session this connection had on the promoted slave goes too.
     */
    private PhysicalSession masterSessionOn(Replica on) throws SQLException {
        if (master.replica() == on) {
            return master;
        }
        PhysicalSession old = master;
        PhysicalSession asSlave = slaves.get(on);
        if (asSlave != null && transaction != null && transaction.session() == asSlave) {
            asSlave = null; // a read-only transaction runs on it still: it goes when the connection closes
        } else {
            slaves.remove(on);
        }
        Connection physical = open(on);
        master = new PhysicalSession(on, physical, cluster.engineSupport().rowLog(physical));
        for (PhysicalSession gone : asSlave == null ? List.of(old) : List.of(old, asSlave)) {
            statements.forEach(statement -> statement.forget(gone));
            closeQuietly(gone);
        }
        return master;
    }

    /** The session on the current master, for work outside a transaction on it (metadata, object factories). */
    private PhysicalSession master() throws SQLException {
        if (transaction != null && transaction.session() == master) {
            return master;
        }
        return masterSessionOn(cluster.master());
    }

    private static void closeQuietly(PhysicalSession session) {
        try {
            session.close();
        } catch (SQLException ignored) {
            // its database is gone
        }
    }

    private PhysicalSession sessionFor(Replica replica) throws SQLException {
        if (replica == master.replica()) {
            return master;
        }
        PhysicalSession session = slaves.get(replica);
        if (session == null) {
            dropSessionsOfLostReplicas();
            Connection physical = open(replica);
            physical.setReadOnly(true);
            session = new PhysicalSession(replica, physical, null);
            slaves.put(replica, session);
        }
        return session;
    }

    /**
     * An engine error met on {@code replica}, for the cluster to judge (a lost database fails the replica), unless this
     * connection is being closed meanwhile: its own engine connections were closed under it.
     */
    private SQLException engineError(Replica replica, SQLException error) {
        return closing ? error : cluster.onEngineError(replica, error);
    }

    /**
     * A new physical connection to {@code replica}. Its database found gone fails the replica (it is replaced) and
     * the caller gets the retryable 40M01, as for a statement that meets the loss.
     */
    private Connection open(Replica replica) throws SQLException {
        try {
            return cluster.openPhysical(replica, engineProperties);
        } catch (SQLException e) {
            throw engineError(replica, e);
        }
    }

    /** A failed slave is replaced by a new one: the session on the old one is closed when the new one is first used. */
    private void dropSessionsOfLostReplicas() {
        slaves.values().removeIf(session -> {
            if (!session.replica().isLost()) {
                return false;
            }
            statements.forEach(statement -> statement.forget(session));
            closeQuietly(session);
            return true;
        });
    }

    private void sync(PhysicalSession session) throws SQLException {
        session.sync(isolation, holdability, schema, sessionStatements);
    }

    /**
     * Ends the active transaction, if any: commit through the sequencer, or rollback. A commit that finds the
     * connection closed meanwhile (its transaction was rolled back by the close) fails with 08003.
     */
    private void end(boolean commit) throws SQLException {
        long committed;
        synchronized (ending) {
            committed = endHoldingLock(commit);
        }
        if (committed > 0) { // flow control, once committed: a close or abort meanwhile need not wait for it
            cluster.sequencer().keepSlavesWithinMaxLag(committed);
        }
    }

    /** @return the version an update transaction's commit got, for flow control; 0 when nothing was committed */
    private long endHoldingLock(boolean commit) throws SQLException {
        Transaction tx = transaction;
        if (tx == null) {
            if (commit && (closed || aborting)) {
                throw new SQLNonTransientConnectionException("This MacroDB connection was closed while the commit "
                        + "waited to run; the close rolled its transaction back.", MacroSqlState.CONNECTION_CLOSED);
            }
            return 0;
        }
        transaction = null;
        Connection physical = tx.session().connection();
        try {
            if (tx.isReadOnly()) {
                endReadOnly(tx, commit);
                if (tx.session().replica().role() == ReplicaRole.MASTER) {
                    // It may have read a commit whose version is in flight. (Its replica's role, not this connection's
                    // master session: a slave this connection read from may have been promoted since.)
                    cluster.sequencer().awaitPublished();
                }
            } else if (commit) {
                try {
                    return cluster.sequencer().commit(tx.session().replica(), physical, tx.capture());
                } catch (SQLException e) {
                    rollbackQuietly(physical);
                    throw engineError(tx.session().replica(), e);
                }
            } else {
                cluster.sequencer().rollback(tx.session().replica(), physical, tx.capture());
            }
            return 0;
        } finally {
            if (tx.isReadOnly()) {
                cluster.endRead(tx.read());
            } else {
                cluster.endUpdate(tx.session().replica());
            }
        }
    }

    /**
     * A read-only transaction ends with a commit of its engine transaction either way (it wrote nothing). When its
     * replica failed meanwhile, or recovery ended it early ({@link OpenRead}), committing fails with 40M01: the reads
     * are not trusted; rolling back just ends it.
     */
    private static void endReadOnly(Transaction tx, boolean commit) throws SQLException {
        Connection physical = tx.session().connection();
        if (!tx.session().replica().isLost() && !tx.read().endedEarly()) {
            try {
                physical.commit();
                return;
            } catch (SQLException e) {
                tx.checkReplica(e);
                throw e;
            }
        }
        rollbackQuietly(physical);
        if (commit) {
            tx.checkReplica(null);
        }
    }

    private void endQuietly() {
        try {
            end(false);
        } catch (SQLException ignored) {
            // the statement's own failure is what the caller sees
        }
    }

    private static void rollbackQuietly(Connection physical) {
        try {
            physical.rollback();
        } catch (SQLException ignored) {
            // the commit's failure is what the caller sees
        }
    }

    /** Runs {@code sql}, DDL or TRUNCATE, as {@code call}'s one engine statement. */
    private <T> T executeSchemaChange(String sql, Transaction.StatementCall<T> call) throws SQLException {
        return executeSchemaChange(sql, schemaChangeStatement(call), master -> sql);
    }

    /**
     * {@code call}, a schema change's own engine statement, run as such: a transaction it waits for may commit ahead
     * of it ({@link CommitSequencer#runSchemaChangeStatement}).
     */
    private <T> Transaction.StatementCall<T> schemaChangeStatement(Transaction.StatementCall<T> call) {
        return session -> cluster.sequencer().runSchemaChangeStatement(() -> call.run(session));
    }

    /** The same, the slaves replaying {@code replayed}'s text, read from the master once {@code sql} ran. */
    private <T> T executeSchemaChange(String sql, Transaction.StatementCall<T> call,
                                      CommitSequencer.ReplayedAs replayed) throws SQLException {
        checkOpen();
        if (readOnly || (transaction != null && transaction.isReadOnly())) {
            throw readOnlyViolation();
        }
        end(true); // as the engines do: DDL commits the transaction before it
        IdentityColumnAdded numbering = IdentityColumnAdded.of(sql);
        Replica on = cluster.beginUpdate();
        try {
            PhysicalSession session = masterSessionOn(on);
            sync(session);
            return cluster.sequencer().runSchemaChange(on, session.connection(), sql, settingsForDdl(), () -> {
                if (numbering != null) { // under the commit lock: no row can be committed in between
                    numbering.refuseIfRows(session.connection(), sql);
                }
                return call.run(session);
            }, replayed);
        } finally {
            cluster.endUpdate(on);
        }
    }

    /**
     * Runs DDL that computes values differing per evaluation in {@code change}'s steps: its first step as DDL (through
     * {@code first}, the caller's engine statement); then, if that changed the schema, each later step as DDL of its
     * own or as an update transaction of its own, committed at once as the engines commit DDL. If a later step fails,
     * the first is undone: the engine would not have run the statement at all.
     */
    <T> T runInSteps(SchemaChangeInSteps change, Transaction.StatementCall<T> first) throws SQLException {
        boolean[] changed = {false};
        T result = executeSchemaChange(change.firstStep(), session -> {
            // Under the commit lock, so no other DDL runs in between (an IF NOT EXISTS may change nothing, and then
            // nothing follows, and nothing is replayed: its query may read what no slave has).
            int before = change.schemaReading(session.connection());
            T done = schemaChangeStatement(first).run(session);
            changed[0] = change.schemaReading(session.connection()) != before;
            return done;
        }, master -> changed[0] ? change.replayedFirstStep(master, cluster.engineSupport()) : null);
        if (!changed[0]) {
            return result;
        }
        try {
            for (SchemaChangeInSteps.Step step : change.laterSteps()) {
                String sql = step.sql();
                if (step.schemaChange()) {
                    executeSchemaChange(sql, session -> runOwnStatement(session, sql));
                } else {
                    execute(kindOf(sql), sql, session -> runOwnStatement(session, sql));
                    end(true);
                }
            }
        } catch (SQLException e) {
            endQuietly();
            String undo = change.undo();
            try {
                executeSchemaChange(undo, session -> runOwnStatement(session, undo));
            } catch (SQLException undoFailed) {
                e.addSuppressed(undoFailed);
            }
            throw e;
        }
        return result;
    }

    /** Runs {@code sql} on an engine statement of its own (the caller's statement keeps the results of its own SQL). */
    static long runOwnStatement(PhysicalSession session, String sql) throws SQLException {
        try (Statement statement = session.connection().createStatement()) {
            statement.execute(sql);
            return statement.getLargeUpdateCount();
        }
    }

    /**
     * This connection's session settings, for a slave to run before DDL of this connection's (they can change how it
     * reads). A variable's value is left out: DDL that reads one is refused.
     */
    private List<String> settingsForDdl() {
        return sessionStatements.settings();
    }


    /** {@code SET ...} runs on the engine in use and is replayed on every other engine this connection uses. */
    private <T> T executeSessionStatement(String sql, Transaction.StatementCall<T> call) throws SQLException {
        checkOpen();
        PhysicalSession session = transaction == null ? master() : transaction.session();
        sync(session);
        T result = call.run(session);
        Connection engine = session.connection();
        if (SessionStatement.setsSchema(sql)) {
            // Kept as the connection's schema, not replayed as a statement: replayed after a later setSchema (sync
            // sets the schema first), it undid it.
            schema = engine.getSchema();
            session.schemaSet(schema);
            return result;
        }
        isolation = engine.getTransactionIsolation(); // SET TRANSACTION ISOLATION ... changes what JDBC reports
        long sequence = sessionStatements.record(SessionStatement.replayOf(sql, engine, cluster.engineSupport()));
        session.markSessionStatementsRun(sequence);
        return result;
    }

    /** Runs a setting of the master's database on the master only, never replayed elsewhere (see its kind). */
    private <T> T executeMasterSetting(Transaction.StatementCall<T> call) throws SQLException {
        checkOpen();
        if (readOnly || (transaction != null && transaction.isReadOnly())) {
            throw readOnlyViolation();
        }
        PhysicalSession session = transaction == null ? master() : transaction.session();
        sync(session);
        return call.run(session);
    }

    private static SQLException lockOnSlave() {
        return new SQLException("A locking read (SELECT ... FOR UPDATE) in a read-only transaction that runs on a slave: "
                + "its locks would keep out no writer (writers run on the master) and would hold back the slave's "
                + "replay. Take the lock in an update transaction (setReadOnly(false)), or as the read-only "
                + "transaction's first statement, which then runs on the master.", MacroSqlState.READ_ONLY_TRANSACTION);
    }

    private static SQLException readOnlyViolation() {
        return new SQLException("A write cannot run in a read-only transaction; it reached no engine. Call "
                + "setReadOnly(false) before the transaction begins to write.", MacroSqlState.READ_ONLY_TRANSACTION);
    }

    // ---- lifecycle ----

    void checkOpen() throws SQLException {
        if (closed || aborting) {
            throw new SQLNonTransientConnectionException("This MacroDB connection is closed.",
                    MacroSqlState.CONNECTION_CLOSED);
        }
        cluster.checkOpen();
    }

    Cluster cluster() {
        return cluster;
    }

    /** The master's engine connection, which can prepare any statement (for metadata before execution). */
    PhysicalSession masterSession() throws SQLException {
        return master();
    }

    String url() {
        return url;
    }

    void track(MacroStatement statement) {
        statements.add(statement);
    }

    void untrack(MacroStatement statement) {
        statements.remove(statement);
    }

    @Override
    public void close() throws SQLException {
        synchronized (ending) {
            closeHoldingLock();
        }
    }

    private void closeHoldingLock() throws SQLException {
        if (closed) {
            return;
        }
        closing = true;
        SQLException failure = null;
        for (MacroStatement statement : new ArrayList<>(statements)) {
            try {
                statement.close();
            } catch (SQLException e) {
                failure = failure == null ? e : failure;
            }
        }
        if (transaction != null && !cluster.isShutdown()) {
            try {
                end(false); // an open transaction is rolled back, never committed, on close
            } catch (SQLException e) {
                failure = failure == null ? e : failure;
            }
        }
        closed = true;
        for (PhysicalSession session : allSessions()) {
            try {
                session.close();
            } catch (SQLException e) {
                if (!session.replica().isLost()) { // a failed slave's database may be shutting down: nothing to keep
                    failure = failure == null ? e : failure;
                }
            }
        }
        if (failure != null && !cluster.isShutdown()) {
            throw failure;
        }
    }

    private List<PhysicalSession> allSessions() {
        List<PhysicalSession> all = new ArrayList<>(slaves.values());
        all.add(0, master);
        return all;
    }

    @Override
    public boolean isClosed() {
        return closed || aborting || cluster.isShutdown();
    }

    @Override
    public boolean isValid(int timeout) throws SQLException {
        if (timeout < 0) {
            throw new SQLException("isValid timeout must be >= 0, was " + timeout, "22023");
        }
        return !isClosed() && master().connection().isValid(timeout);
    }

    @Override
    public void abort(Executor executor) throws SQLException {
        if (executor == null) {
            throw new SQLException("abort needs an executor to run on.", "22023");
        }
        // Usually called from another thread than the one using the connection (a pool shutting down): its statement
        // in flight then fails on a closed engine connection, which must not be taken for a lost database.
        closing = true;
        aborting = true;
        executor.execute(() -> {
            try {
                close();
            } catch (SQLException ignored) {
                // closing what an abort leaves: nothing to tell anyone
            }
        });
    }

    // ---- transaction control ----

    @Override
    public void setAutoCommit(boolean autoCommit) throws SQLException {
        checkOpen();
        if (autoCommit && !this.autoCommit) {
            end(true); // JDBC: switching auto-commit on commits the active transaction
        }
        this.autoCommit = autoCommit;
    }

    @Override
    public boolean getAutoCommit() throws SQLException {
        checkOpen();
        return autoCommit;
    }

    /** In auto-commit mode there is never a transaction left to commit, so this does nothing (as in H2, HSQLDB). */
    @Override
    public void commit() throws SQLException {
        checkOpen();
        end(true);
    }

    @Override
    public void rollback() throws SQLException {
        checkOpen();
        end(false);
    }

    @Override
    public Savepoint setSavepoint() throws SQLException {
        return savepoint(null);
    }

    @Override
    public Savepoint setSavepoint(String name) throws SQLException {
        return savepoint(name);
    }

    private Savepoint savepoint(String name) throws SQLException {
        checkOpen();
        if (autoCommit) {
            throw new SQLException("A savepoint needs a transaction: call setAutoCommit(false) first.",
                    MacroSqlState.INVALID_TRANSACTION_STATE);
        }
        return judged(begin(new StatementKind(StatementKind.Type.QUERY, false)), tx -> tx.setSavepoint(name));
    }

    @Override
    public void rollback(Savepoint savepoint) throws SQLException {
        MacroSavepoint ours = activeSavepoint(savepoint);
        judged(ours.transaction(), tx -> {
            tx.rollbackTo(ours);
            return null;
        });
    }

    @Override
    public void releaseSavepoint(Savepoint savepoint) throws SQLException {
        MacroSavepoint ours = activeSavepoint(savepoint);
        judged(ours.transaction(), tx -> {
            tx.release(ours);
            return null;
        });
    }

    /** {@code work} in {@code tx}, an engine error it meets judged by the cluster ({@link #engineError}). */
    private <T> T judged(Transaction tx, TransactionWork<T> work) throws SQLException {
        try {
            return work.run(tx);
        } catch (SQLException e) {
            throw engineError(tx.session().replica(), e);
        }
    }

    private MacroSavepoint activeSavepoint(Savepoint savepoint) throws SQLException {
        checkOpen();
        if (!(savepoint instanceof MacroSavepoint ours) || ours.transaction() != transaction) {
            throw new SQLException("This savepoint does not belong to the active transaction of this connection.",
                    MacroSqlState.INVALID_TRANSACTION_STATE);
        }
        return ours;
    }

    @Override
    public void setReadOnly(boolean readOnly) throws SQLException {
        checkOpen();
        if (readOnly != this.readOnly && transaction != null) {
            throw activeTransaction("read-only");
        }
        this.readOnly = readOnly;
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        checkOpen();
        return readOnly;
    }

    @Override
    public void setTransactionIsolation(int level) throws SQLException {
        checkOpen();
        if (level != isolation && transaction != null) {
            throw activeTransaction("the isolation level");
        }
        master().connection().setTransactionIsolation(level); // the engine validates the level
        isolation = level;
    }

    @Override
    public int getTransactionIsolation() throws SQLException {
        checkOpen();
        return isolation;
    }

    private static SQLException activeTransaction(String what) {
        return new SQLException("Cannot change " + what + " while a transaction is active: commit or roll back "
                + "first. A MacroDB transaction runs on one engine, chosen when it begins.",
                MacroSqlState.INVALID_TRANSACTION_STATE);
    }

    // ---- statements ----

    @Override
    public Statement createStatement() throws SQLException {
        return createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY, holdability);
    }

    @Override
    public Statement createStatement(int type, int concurrency) throws SQLException {
        return createStatement(type, concurrency, holdability);
    }

    @Override
    public Statement createStatement(int type, int concurrency, int holdability) throws SQLException {
        checkOpen();
        return new MacroStatement(this, new StatementShape(type, concurrency, holdability));
    }

    @Override
    public PreparedStatement prepareStatement(String sql) throws SQLException {
        return prepare(sql, new StatementShape(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY, holdability));
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int type, int concurrency) throws SQLException {
        return prepare(sql, new StatementShape(type, concurrency, holdability));
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int type, int concurrency, int holdability)
            throws SQLException {
        return prepare(sql, new StatementShape(type, concurrency, holdability));
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys) throws SQLException {
        return prepare(sql, StatementShape.generatedKeys(holdability, autoGeneratedKeys));
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int[] columnIndexes) throws SQLException {
        return prepare(sql, StatementShape.generatedKeys(holdability, columnIndexes));
    }

    @Override
    public PreparedStatement prepareStatement(String sql, String[] columnNames) throws SQLException {
        return prepare(sql, StatementShape.generatedKeys(holdability, columnNames));
    }

    private PreparedStatement prepare(String sql, StatementShape shape) throws SQLException {
        checkOpen();
        return new MacroPreparedStatement(this, shape, sql, kindOfPrepared(sql));
    }

    @Override
    public CallableStatement prepareCall(String sql) throws SQLException {
        return prepareCall(sql, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY, holdability);
    }

    @Override
    public CallableStatement prepareCall(String sql, int type, int concurrency) throws SQLException {
        return prepareCall(sql, type, concurrency, holdability);
    }

    @Override
    public CallableStatement prepareCall(String sql, int type, int concurrency, int holdability)
            throws SQLException {
        checkOpen();
        return new MacroCallableStatement(this, new StatementShape(type, concurrency, holdability), sql,
                kindOfPrepared(sql));
    }

    @Override
    public String nativeSQL(String sql) throws SQLException {
        checkOpen();
        return master().connection().nativeSQL(sql);
    }

    // ---- session state, recorded and replayed on each engine connection ----

    @Override
    public void setHoldability(int holdability) throws SQLException {
        checkOpen();
        if (holdability != ResultSet.HOLD_CURSORS_OVER_COMMIT && holdability != ResultSet.CLOSE_CURSORS_AT_COMMIT) {
            throw new SQLException("Unknown holdability " + holdability + "; use ResultSet.HOLD_CURSORS_OVER_COMMIT "
                    + "or CLOSE_CURSORS_AT_COMMIT.", MacroSqlState.INVALID_OPTION);
        }
        this.holdability = holdability;
    }

    @Override
    public int getHoldability() throws SQLException {
        checkOpen();
        return holdability;
    }

    @Override
    public void setSchema(String schema) throws SQLException {
        checkOpen();
        PhysicalSession master = master();
        // A read-only transaction on a slave reads in it from its next statement, as on the engine alone (it read the
        // old schema until the next transaction's sync: found by a review, 2026-11-23). Set there first: a slave
        // that lags may lack the schema, and then nothing may have changed.
        PhysicalSession reading = transaction != null && transaction.session() != master ? transaction.session() : null;
        String readingBefore = reading == null ? null : reading.connection().getSchema();
        if (reading != null) {
            reading.connection().setSchema(schema);
        }
        try {
            master.connection().setSchema(schema); // fails here, at once, if the schema does not exist
        } catch (SQLException e) {
            if (reading != null) {
                reading.connection().setSchema(readingBefore);
            }
            throw e;
        }
        master.schemaSet(schema);
        if (reading != null) {
            reading.schemaSet(schema);
        }
        this.schema = schema;
    }

    @Override
    public String getSchema() throws SQLException {
        checkOpen();
        if (schema != null) { // set by setSchema or SET SCHEMA, on whichever engine: every engine gets it at sync
            return schema;
        }
        return (transaction == null ? master() : transaction.session()).connection().getSchema();
    }

    @Override
    public void setCatalog(String catalog) throws SQLException {
        checkOpen();
        master().connection().setCatalog(catalog); // both engines have one catalog per database: a no-op check
    }

    @Override
    public String getCatalog() throws SQLException {
        checkOpen();
        return master().connection().getCatalog();
    }

    @Override
    public DatabaseMetaData getMetaData() throws SQLException {
        checkOpen();
        return new MacroDatabaseMetaData(this, master().connection().getMetaData());
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return (transaction == null ? master() : transaction.session()).connection().getWarnings();
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
        for (PhysicalSession session : allSessions()) {
            session.connection().clearWarnings();
        }
    }

    @Override
    public Map<String, Class<?>> getTypeMap() throws SQLException {
        checkOpen();
        return master().connection().getTypeMap();
    }

    @Override
    public void setTypeMap(Map<String, Class<?>> map) throws SQLException {
        checkOpen();
        if (map != null && !map.isEmpty()) { // an empty map is what getTypeMap gives: nothing to support
            throw new java.sql.SQLFeatureNotSupportedException("MacroDB does not support custom type maps.",
                    MacroSqlState.FEATURE_NOT_SUPPORTED);
        }
    }

    /** Client info is kept by MacroDB (the engines keep none worth routing). */
    @Override
    public void setClientInfo(String name, String value) throws SQLClientInfoException {
        if (closed) {
            throw new SQLClientInfoException("This MacroDB connection is closed.", MacroSqlState.CONNECTION_CLOSED,
                    Map.of());
        }
        if (value == null) {
            clientInfo.remove(name);
        } else {
            clientInfo.setProperty(name, value);
        }
    }

    @Override
    public void setClientInfo(Properties properties) throws SQLClientInfoException {
        if (closed) {
            throw new SQLClientInfoException("This MacroDB connection is closed.", MacroSqlState.CONNECTION_CLOSED,
                    Map.of());
        }
        clientInfo.clear();
        clientInfo.putAll(properties);
    }

    @Override
    public String getClientInfo(String name) throws SQLException {
        checkOpen();
        return clientInfo.getProperty(name);
    }

    @Override
    public Properties getClientInfo() throws SQLException {
        checkOpen();
        Properties copy = new Properties();
        copy.putAll(clientInfo);
        return copy;
    }

    @Override
    public void setNetworkTimeout(Executor executor, int milliseconds) throws SQLException {
        checkOpen();
        if (milliseconds < 0) {
            throw new SQLException("A network timeout cannot be negative (" + milliseconds + ").", "22023");
        }
        networkTimeout = milliseconds; // embedded engines have no network; kept for pools that set it
    }

    @Override
    public int getNetworkTimeout() throws SQLException {
        checkOpen();
        return networkTimeout;
    }

    // ---- object factories: made by the master's engine connection ----

    @Override
    public Clob createClob() throws SQLException {
        checkOpen();
        return master().connection().createClob();
    }

    @Override
    public Blob createBlob() throws SQLException {
        checkOpen();
        return master().connection().createBlob();
    }

    @Override
    public NClob createNClob() throws SQLException {
        checkOpen();
        return master().connection().createNClob();
    }

    @Override
    public SQLXML createSQLXML() throws SQLException {
        checkOpen();
        return master().connection().createSQLXML();
    }

    @Override
    public Array createArrayOf(String typeName, Object[] elements) throws SQLException {
        checkOpen();
        return master().connection().createArrayOf(typeName, elements);
    }

    @Override
    public Struct createStruct(String typeName, Object[] attributes) throws SQLException {
        checkOpen();
        return master().connection().createStruct(typeName, attributes);
    }

    // ---- wrapper: the operator API is reached through unwrap ----

    /**
     * Unwraps to this connection or to the cluster's {@link MacroCluster}. The engines' own connections are not
     * handed out: a write through one would bypass replication (both engines are captured from the row log of
     * MacroDB's own sessions; {@code verify()} would find it).
     */
    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        if (iface.isInstance(cluster)) {
            return iface.cast(cluster);
        }
        throw new SQLException("A MacroDB connection unwraps to " + MacroCluster.class.getName()
                + " or to itself, not to " + iface.getName() + ".", MacroSqlState.FEATURE_NOT_SUPPORTED);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this) || iface.isInstance(cluster);
    }

    @Override
    public String toString() {
        return "MacroConnection[" + url + (closed ? ", closed" : "") + "]";
    }
}
