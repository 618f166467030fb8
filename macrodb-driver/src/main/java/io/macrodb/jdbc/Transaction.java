package io.macrodb.jdbc;

import io.macrodb.api.MacroSqlState;
import io.macrodb.runtime.capture.TransactionCapture;
import io.macrodb.runtime.cluster.OpenRead;
import io.macrodb.runtime.cluster.Replica;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.SQLTransientException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One transaction of a MacroDB connection, from its first statement to commit or rollback: the engine it runs on
 * (chosen once, at the start, and never switched mid-transaction: a transaction is atomic only on one engine) and,
 * for an update transaction, the capture of its writes.
 */
final class Transaction {

    /** How H2 names a savepoint set with no name. */
    private static final String UNNAMED_PREFIX = "SYSTEM_SAVEPOINT_";

    private final PhysicalSession session;
    /** A read-only transaction's place on its replica, which recovery may end early; null for an update transaction. */
    private final OpenRead read;
    private final TransactionCapture capture;
    /**
     * The capture mark of each savepoint, by its name (an unnamed one by its id). Both engines let a name be set
     * again, which replaces the savepoint, and a rollback to any savepoint object of that name goes to the latest:
     * cutting the capture to the first one's mark dropped rows the master kept (found by a review, 2026-11-23).
     * Made at the first savepoint: most transactions set none.
     */
    private Map<String, Integer> savepointMarks;

    private Transaction(PhysicalSession session, OpenRead read, TransactionCapture capture) {
        this.session = session;
        this.read = read;
        this.capture = capture;
    }

    static Transaction readOnly(PhysicalSession session, OpenRead read) {
        return new Transaction(session, read, null);
    }

    static Transaction update(PhysicalSession master, TransactionCapture capture) {
        return new Transaction(master, null, capture);
    }

    boolean isReadOnly() {
        return capture == null;
    }

    /** Sets a savepoint on the engine, named if {@code name} is not null, at this transaction's capture mark now. */
    MacroSavepoint setSavepoint(String name) throws SQLException {
        if (name != null && name.toUpperCase(Locale.ROOT).startsWith(UNNAMED_PREFIX)) {
            // H2 names its unnamed savepoints so: one set under such a name replaces an unnamed one in the engine,
            // and a rollback through the unnamed object goes to it (found by a review, 2026-11-23). HSQLDB refuses
            // such names itself.
            throw new SQLException("Savepoint names beginning with " + UNNAMED_PREFIX + " are the engine's own, for "
                    + "savepoints set with no name; choose another name.", "3B001");
        }
        checkReplica(null);
        Savepoint savepoint = setEngineSavepoint(name);
        MacroSavepoint ours = new MacroSavepoint(savepoint, this, name);
        if (savepointMarks == null) {
            savepointMarks = new HashMap<>();
        }
        savepointMarks.put(ours.key(), isReadOnly() ? 0 : capture.mark());
        return ours;
    }

    /** Sets a savepoint on the engine, named if {@code name} is not null; for MacroDB's own use too. */
    Savepoint setEngineSavepoint(String name) throws SQLException {
        return onEngine(engine -> name == null ? engine.setSavepoint() : engine.setSavepoint(name));
    }

    /** Rolls the engine back to {@code savepoint}, and the capture to where the engine's savepoint of it was set. */
    void rollbackTo(MacroSavepoint savepoint) throws SQLException {
        checkReplica(null);
        onEngine(engine -> {
            engine.rollback(savepoint.physical());
            return null;
        });
        if (!isReadOnly()) {
            capture.cutTo(savepointMarks.get(savepoint.key()));
        }
    }

    /** Releases {@code savepoint} (and those set after it) on the engine. */
    void release(MacroSavepoint savepoint) throws SQLException {
        checkReplica(null);
        onEngine(engine -> {
            engine.releaseSavepoint(savepoint.physical());
            return null;
        });
    }

    /**
     * {@code call} on this transaction's engine connection; an unchecked exception out of it becomes
     * {@link #engineFailure}'s.
     */
    private <T> T onEngine(EngineCall<T> call) throws SQLException {
        try {
            return call.run(session.connection());
        } catch (RuntimeException e) {
            throw engineFailure(e);
        }
    }

    /** A call on the engine's connection. */
    @FunctionalInterface
    private interface EngineCall<T> {
        T run(Connection engine) throws SQLException;
    }

    PhysicalSession session() {
        return session;
    }

    OpenRead read() {
        return read;
    }

    TransactionCapture capture() {
        return capture;
    }

    /**
     * Runs one statement on this transaction's engine. For an update transaction the rows it writes are captured;
     * if it fails, the rows it captured are dropped, as the engine drops the rows it wrote.
     */
    <T> T run(StatementCall<T> call, StatementKind kind) throws SQLException {
        checkReplica(null);
        if (capture == null) {
            try {
                return read.run(() -> call.run(session));
            } catch (SQLException e) {
                checkReplica(e); // a failed replica's database may have been shut down under the statement
                throw e;
            } catch (RuntimeException e) {
                throw engineFailure(e);
            }
        }
        int mark = capture.mark();
        Savepoint statementStart = kind.undoneOnlyBySavepoint() ? setEngineSavepoint(null) : null;
        try {
            session.statementBegins();
            T result = call.run(session);
            if (statementStart != null) {
                session.connection().releaseSavepoint(statementStart);
            }
            session.statementEnded(capture);
            capture.statementEnded(mark);
            noteCounters(kind, mark);
            return result;
        } catch (SQLException | RuntimeException e) {
            if (statementStart != null) {
                rollbackTo(session.connection(), statementStart); // what the engine left of it goes, as its rows do
            }
            capture.cutTo(session.rolledBackWholeTransaction(e) ? 0 : mark);
            noteCounters(kind, mark); // a failed statement may still have drawn from a sequence or an identity
            if (e instanceof RuntimeException unchecked) {
                throw engineFailure(unchecked);
            }
            checkReplica((SQLException) e);
            throw e;
        }
    }

    /**
     * Runs a JDBC batch as one statement; for an update transaction, see {@link BatchRun} for how its rows are
     * captured when an element fails.
     */
    long[] runBatch(BatchRun.Elements batch, StatementKind kind) throws SQLException {
        if (capture == null) {
            return run(batch::runWhole, kind);
        }
        return new BatchRun(this, batch, kind).run();
    }

    /** HSQLDB's "statement execution aborted: timeout reached", for a cancel too. */
    private static final String STATEMENT_CANCELLED = "40502";

    /**
     * Whether {@code error} says the engine rolled back the whole transaction, not just the statement: SQLState class
     * 40, "transaction rollback" (H2's deadlock victim). Every row captured before goes then, not only the statement's:
     * an application may go on after the error (the engine's session simply begins a new transaction) and commit, and
     * the slaves received the rows the master had rolled back. (A batch's failure carries its elements' errors as next
     * exceptions.) But not HSQLDB's 40502, a statement cancelled or past its query timeout: HSQLDB undoes only that
     * statement, and dropping the rows before it lost them on every slave. On an HSQLDB master the row log answers
     * instead ({@link PhysicalSession#rolledBackWholeTransaction}): its 40501 may undo the statement alone too.
     */
    static boolean rolledBackWholeTransaction(Throwable error) {
        for (SQLException e = error instanceof SQLException s ? s : null; e != null; e = e.getNextException()) {
            if (e.getSQLState() != null && e.getSQLState().startsWith("40")
                    && !e.getSQLState().equals(STATEMENT_CANCELLED)) {
                return true;
            }
            if (e.getNextException() == e) {
                break;
            }
        }
        return false;
    }

    /** Rolls back to {@code savepoint}; false when it is gone (the engine rolled the whole transaction back). */
    static boolean rollbackTo(Connection engine, Savepoint savepoint) {
        try {
            engine.rollback(savepoint);
            return true;
        } catch (SQLException | RuntimeException gone) {
            return false;
        }
    }

    /** Tells the capture which counters (sequences, identity columns) the statement begun at {@code mark} moved. */
    void noteCounters(StatementKind kind, int mark) {
        if (kind.usesSequence()) {
            capture.usedSequences();
        }
        if (kind.type() == StatementKind.Type.WRITE) {
            capture.wroteRows();
        }
        if (kind.mayDrawIdentity()) {
            capture.insertStatementEnded(mark);
        }
    }

    /**
     * Fails with the retryable 40M01 when the replica this transaction runs on has failed: a failed slave's reads
     * are not trusted, and nothing commits on a failed master any more. The transaction must run again elsewhere
     * (an update transaction: on the new master). A read-only transaction fails so too once recovery has ended it
     * early ({@link OpenRead}).
     *
     * @param cause the engine's error that made the caller look, if any
     */
    void checkReplica(SQLException cause) throws SQLException {
        Replica replica = session.replica();
        if (replica.isLost()) {
            throw new SQLTransientException("Replica " + replica.index() + " failed while this transaction ran on it; "
                    + "roll back and run the transaction again.", MacroSqlState.REPLICA_LOST, cause);
        }
        if (read != null) {
            read.checkNotEndedEarly();
        }
    }

    /**
     * An unchecked exception out of the engine, as the {@link SQLException} JDBC promises: the retryable 40M01 when
     * this transaction's replica has failed meanwhile, else {@link MacroSqlState#ENGINE_FAILURE} with the engine's
     * exception as its cause, which the connection hands to the cluster to look whether the replica's database is
     * gone ({@code Cluster.isDatabaseLost}). HSQLDB's {@code setSavepoint} throws a NullPointerException on a session
     * whose database has been shut down ({@code Session.savepoint} does not check for a closed session): writers whose
     * master was failed over got that instead of 40M01, and were not retried (found by CI, 2026-11-29).
     */
    SQLException engineFailure(RuntimeException e) {
        SQLException failure = new SQLException("The engine failed unexpectedly on replica "
                + session.replica().index() + ": " + e + ". Roll the transaction back.", MacroSqlState.ENGINE_FAILURE,
                e);
        try {
            checkReplica(failure);
        } catch (SQLException lost) {
            return lost;
        }
        return failure;
    }

    /** A statement's work on one engine connection. */
    @FunctionalInterface
    interface StatementCall<T> {
        T run(PhysicalSession session) throws SQLException;
    }
}
