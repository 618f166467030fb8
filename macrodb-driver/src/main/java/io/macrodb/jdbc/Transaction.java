package io.macrodb.jdbc;

import io.macrodb.api.MacroSqlState;
import io.macrodb.runtime.capture.CaptureScope;
import io.macrodb.runtime.capture.CaptureSink;
import io.macrodb.runtime.capture.TransactionCapture;
import io.macrodb.runtime.cluster.Replica;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.SQLTransientException;

/**
 * One transaction of a MacroDB connection, from its first statement to commit or rollback: the engine it runs on
 * (chosen once, at the start, and never switched mid-transaction: a transaction is atomic only on one engine) and,
 * for an update transaction, the capture of its writes.
 */
final class Transaction {

    private final PhysicalSession session;
    private final TransactionCapture capture;

    private Transaction(PhysicalSession session, TransactionCapture capture) {
        this.session = session;
        this.capture = capture;
    }

    static Transaction readOnly(PhysicalSession session) {
        return new Transaction(session, null);
    }

    static Transaction update(PhysicalSession master, TransactionCapture capture) {
        return new Transaction(master, capture);
    }

    boolean isReadOnly() {
        return capture == null;
    }

    PhysicalSession session() {
        return session;
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
                return call.run(session);
            } catch (SQLException e) {
                checkReplica(e); // a failed replica's database may have been shut down under the statement
                throw e;
            }
        }
        int mark = capture.mark();
        CaptureSink previous = CaptureScope.open(capture);
        Savepoint statementStart = kind.undoneOnlyBySavepoint() ? session.connection().setSavepoint() : null;
        try {
            T result = call.run(session);
            if (statementStart != null) {
                session.connection().releaseSavepoint(statementStart);
            }
            capture.statementEnded(mark);
            noteCounters(kind, mark);
            return result;
        } catch (SQLException | RuntimeException e) {
            if (statementStart != null) {
                rollbackTo(session.connection(), statementStart); // what the engine left of it goes, as its rows do
            }
            capture.cutTo(rolledBackWholeTransaction(e) ? 0 : mark);
            noteCounters(kind, mark); // a failed statement may still have drawn from a sequence or an identity
            if (e instanceof SQLException failure) {
                checkReplica(failure);
            }
            throw e;
        } finally {
            CaptureScope.close(previous);
        }
    }

    /**
     * Runs a JDBC batch as one statement. A batch is not atomic: when an element fails, H2 runs the others and HSQLDB
     * stops, and both keep the elements that succeeded. The rows captured must then be exactly those of the elements
     * the engine kept; but an engine batch gives no boundary between its elements' rows. So the batch runs under an
     * engine savepoint: when it succeeds (the common case, one engine call as before) the savepoint is released;
     * when it fails, the engine is rolled back to it, and the batch runs again element by element, each with its own
     * capture mark, continuing past a failure as the engine did (H2) or stopping at it (HSQLDB). The application
     * then sees the second run's update counts; its generated keys, if it asked for them, are the last element's.
     * (Before this, the rows of every element were dropped while the master kept those that succeeded: the slaves
     * silently lacked them.)
     */
    long[] runBatch(BatchCall batch, StatementKind kind) throws SQLException {
        if (capture == null) {
            return run(batch::runWhole, kind);
        }
        checkReplica(null);
        Connection engine = session.connection();
        int mark = capture.mark();
        CaptureSink previous = CaptureScope.open(capture);
        try {
            Savepoint before = engine.setSavepoint();
            try {
                long[] counts = batch.runWhole(session);
                engine.releaseSavepoint(before);
                capture.statementEnded(mark); // every element ended: the engine's indexes hold at this point
                noteCounters(kind, mark);
                return counts;
            } catch (SQLException | RuntimeException e) {
                boolean wholeTransaction = rolledBackWholeTransaction(e);
                capture.cutTo(wholeTransaction ? 0 : mark);
                if (wholeTransaction && e instanceof BatchUpdateException failed) {
                    throw stoppedAtTransactionRollback(engine, failed, kind, mark);
                }
                boolean undone = !wholeTransaction && rollbackTo(engine, before);
                if (!(e instanceof BatchUpdateException failed) || !undone) {
                    // Not an element's failure, or the engine rolled the whole transaction back (then running the
                    // batch again would hide that from the application, which might commit what remains): the batch
                    // left nothing behind, as a failed statement.
                    noteCounters(kind, mark);
                    if (e instanceof SQLException failure) {
                        checkReplica(failure);
                    }
                    throw e;
                }
                return runOneByOne(batch, kind, mark, failed);
            }
        } finally {
            CaptureScope.close(previous);
        }
    }

    private long[] runOneByOne(BatchCall batch, StatementKind kind, int mark, BatchUpdateException first)
            throws SQLException {
        boolean continues = first.getLargeUpdateCounts() != null
                && first.getLargeUpdateCounts().length == batch.size(); // H2: a count for every element
        batch.clearEngineBatch(session);
        long[] counts = new long[batch.size()];
        int reported = batch.size();
        SQLException failure = null;
        for (int i = 0; i < batch.size(); i++) {
            int elementMark = capture.mark();
            try {
                counts[i] = batch.runOne(session, i);
                capture.statementEnded(elementMark);
            } catch (SQLException e) {
                boolean wholeTransaction = rolledBackWholeTransaction(e);
                capture.cutTo(wholeTransaction ? 0 : elementMark);
                checkReplica(e);
                if (failure == null) {
                    failure = e;
                } else {
                    failure.setNextException(e);
                }
                counts[i] = Statement.EXECUTE_FAILED;
                if (wholeTransaction) { // nothing runs after it (see stoppedAtTransactionRollback)
                    reported = i + 1;
                    break;
                }
                if (!continues) {
                    reported = i; // HSQLDB's counts end before the element that failed
                    break;
                }
            }
        }
        noteCounters(kind, mark);
        if (kind.mayDrawIdentity()) {
            // An insert that failed, in either run, drew from its table's identity column, and the rows kept may be
            // another table's: every identity counter goes with the transaction.
            capture.insertStatementEnded(capture.mark());
        }
        if (failure == null) {
            return counts; // the element that failed the first time succeeded now
        }
        BatchUpdateException result = new BatchUpdateException(failure.getMessage(), failure.getSQLState(),
                failure.getErrorCode(), java.util.Arrays.copyOf(counts, reported), failure);
        result.setNextException(failure);
        throw result;
    }

    /**
     * A batch element made the engine roll the whole transaction back. H2 then runs the elements after it, in a new
     * transaction of the session; their rows, captured among the rolled-back ones, cannot be told apart from them. So
     * what they did is rolled back too, and they are reported as not executed: the batch stops at the rollback, as
     * HSQLDB's does (unlike H2 alone). The application learns of the rollback either way (40001 in the chain).
     */
    private BatchUpdateException stoppedAtTransactionRollback(Connection engine, BatchUpdateException failed,
                                                              StatementKind kind, int mark) throws SQLException {
        rollbackQuietly(engine);
        capture.cutTo(0);
        noteCounters(kind, mark);
        if (kind.mayDrawIdentity()) {
            capture.insertStatementEnded(capture.mark());
        }
        checkReplica(failed);
        long[] counts = failed.getLargeUpdateCounts() == null ? new long[0] : failed.getLargeUpdateCounts().clone();
        // The i-th element that failed carries the i-th exception of the chain.
        int failures = 0;
        boolean stopped = false;
        SQLException next = failed.getNextException();
        for (int i = 0; i < counts.length; i++) {
            if (stopped) {
                counts[i] = Statement.EXECUTE_FAILED;
            } else if (counts[i] == Statement.EXECUTE_FAILED) {
                SQLException cause = next;
                for (int k = 0; k < failures && cause != null; k++) {
                    cause = cause.getNextException();
                }
                failures++;
                stopped = cause == null || rolledBackWholeTransaction(cause);
            }
        }
        BatchUpdateException result = new BatchUpdateException(failed.getMessage(), failed.getSQLState(),
                failed.getErrorCode(), counts, failed);
        result.setNextException(failed.getNextException());
        return result;
    }

    private static void rollbackQuietly(Connection engine) {
        try {
            engine.rollback();
        } catch (SQLException ignored) {
            // the failure the application sees is the batch's
        }
    }

    /**
     * Whether {@code error} says the engine rolled back the whole transaction, not just the statement: SQLState class
     * 40, "transaction rollback" (H2's deadlock victim, HSQLDB's serialization failure under MVCC; checked on both).
     * Every row captured before goes then, not only the statement's: an application may go on after the error (the
     * engine's session simply begins a new transaction) and commit, and the slaves received the rows the master had
     * rolled back. (A batch's failure carries its elements' errors as next exceptions.)
     */
    static boolean rolledBackWholeTransaction(Throwable error) {
        for (SQLException e = error instanceof SQLException s ? s : null; e != null; e = e.getNextException()) {
            if (e.getSQLState() != null && e.getSQLState().startsWith("40")) {
                return true;
            }
            if (e.getNextException() == e) {
                break;
            }
        }
        return false;
    }

    /** Rolls back to {@code savepoint}; false when it is gone (the engine rolled the whole transaction back). */
    private static boolean rollbackTo(Connection engine, Savepoint savepoint) {
        try {
            engine.rollback(savepoint);
            return true;
        } catch (SQLException gone) {
            return false;
        }
    }

    /** A batch of row statements, whole (one engine call) or one element at a time. */
    interface BatchCall {
        int size();

        long[] runWhole(PhysicalSession session) throws SQLException;

        /** Runs element {@code index} alone, after {@link #clearEngineBatch}; returns its update count. */
        long runOne(PhysicalSession session, int index) throws SQLException;

        void clearEngineBatch(PhysicalSession session) throws SQLException;
    }

    /** Tells the capture which counters (sequences, identity columns) the statement begun at {@code mark} moved. */
    private void noteCounters(StatementKind kind, int mark) {
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
     * (an update transaction: on the new master).
     *
     * @param cause the engine's error that made the caller look, if any
     */
    void checkReplica(SQLException cause) throws SQLException {
        Replica replica = session.replica();
        if (replica.isLost()) {
            throw new SQLTransientException("Replica " + replica.index() + " failed while this transaction ran on it; "
                    + "roll back and run the transaction again.", MacroSqlState.REPLICA_LOST, cause);
        }
    }

    /** A statement's work on one engine connection. */
    @FunctionalInterface
    interface StatementCall<T> {
        T run(PhysicalSession session) throws SQLException;
    }
}
