package io.macrodb.jdbc;

import io.macrodb.runtime.capture.TransactionCapture;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.Arrays;

/**
 * One JDBC batch of an update transaction, run as one statement with its rows captured exactly.
 *
 * <p>A batch is not atomic: when an element fails, H2 runs the others and HSQLDB stops, and both keep the elements that
 * succeeded. The rows captured must then be exactly those of the elements the engine kept; but an engine batch gives
 * no boundary between its elements' rows. So the batch runs under an engine savepoint: when it succeeds (the common
 * case, one engine call) the savepoint is released; when it fails, the engine is rolled back to it, and the batch runs
 * again element by element, each with its own capture mark, continuing past a failure as the engine did (H2) or
 * stopping at it (HSQLDB). The application then sees the second run's update counts; its generated keys, if it asked
 * for them, are the last element's. (Before this, the rows of every element were dropped while the master kept those
 * that succeeded: the slaves silently lacked them.)
 */
final class BatchRun {

    private final Transaction transaction;
    private final TransactionCapture capture;
    private final Connection engine;
    private final Elements batch;
    private final StatementKind kind;

    BatchRun(Transaction transaction, Elements batch, StatementKind kind) {
        this.transaction = transaction;
        this.capture = transaction.capture();
        this.engine = transaction.session().connection();
        this.batch = batch;
        this.kind = kind;
    }

    long[] run() throws SQLException {
        transaction.checkReplica(null);
        int mark = capture.mark();
        Savepoint before = transaction.setEngineSavepoint(null);
        try {
            transaction.session().statementBegins();
            long[] counts = batch.runWhole(transaction.session());
            engine.releaseSavepoint(before);
            transaction.session().statementEnded(capture);
            capture.statementEnded(mark); // every element ended: the engine's indexes hold at this point
            transaction.noteCounters(kind, mark);
            return counts;
        } catch (SQLException | RuntimeException e) {
            boolean wholeTransaction = transaction.session().rolledBackWholeTransaction(e);
            capture.cutTo(wholeTransaction ? 0 : mark);
            if (wholeTransaction && e instanceof BatchUpdateException failed) {
                throw stoppedAtTransactionRollback(failed, mark);
            }
            boolean undone = !wholeTransaction && Transaction.rollbackTo(engine, before);
            if (!(e instanceof BatchUpdateException failed) || !undone) {
                // Not an element's failure, or the engine rolled the whole transaction back (then running the
                // batch again would hide that from the application, which might commit what remains): the batch
                // left nothing behind, as a failed statement.
                transaction.noteCounters(kind, mark);
                if (e instanceof RuntimeException unchecked) {
                    throw transaction.engineFailure(unchecked);
                }
                transaction.checkReplica((SQLException) e);
                throw e;
            }
            return runOneByOne(mark, failed);
        }
    }

    private long[] runOneByOne(int mark, BatchUpdateException first) throws SQLException {
        boolean continues = first.getLargeUpdateCounts() != null
                && first.getLargeUpdateCounts().length == batch.size(); // H2: a count for every element
        batch.clearEngineBatch(transaction.session());
        long[] counts = new long[batch.size()];
        int reported = batch.size();
        SQLException failure = null;
        for (int i = 0; i < batch.size(); i++) {
            int elementMark = capture.mark();
            try {
                transaction.session().statementBegins();
                counts[i] = batch.runOne(transaction.session(), i);
                transaction.session().statementEnded(capture);
                capture.statementEnded(elementMark);
            } catch (SQLException e) {
                boolean wholeTransaction = transaction.session().rolledBackWholeTransaction(e);
                capture.cutTo(wholeTransaction ? 0 : elementMark);
                transaction.checkReplica(e);
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
            } catch (RuntimeException e) {
                capture.cutTo(elementMark); // the element's rows go, as a failed element's do
                noteIdentityCounters(mark);
                throw transaction.engineFailure(e);
            }
        }
        noteIdentityCounters(mark);
        if (failure == null) {
            return counts; // the element that failed the first time succeeded now
        }
        BatchUpdateException result = new BatchUpdateException(failure.getMessage(), failure.getSQLState(),
                failure.getErrorCode(), Arrays.copyOf(counts, reported), failure);
        result.setNextException(failure);
        throw result;
    }

    /**
     * A batch element made the engine roll the whole transaction back. H2 then runs the elements after it, in a new
     * transaction of the session; their rows, captured among the rolled-back ones, cannot be told apart from them. So
     * what they did is rolled back too, and they are reported as not executed: the batch stops at the rollback, as
     * HSQLDB's does (unlike H2 alone). The application learns of the rollback either way (40001 in the chain).
     */
    private BatchUpdateException stoppedAtTransactionRollback(BatchUpdateException failed, int mark)
            throws SQLException {
        rollbackQuietly();
        capture.cutTo(0);
        noteIdentityCounters(mark);
        transaction.checkReplica(failed);
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
                stopped = cause == null || Transaction.rolledBackWholeTransaction(cause);
            }
        }
        BatchUpdateException result = new BatchUpdateException(failed.getMessage(), failed.getSQLState(),
                failed.getErrorCode(), counts, failed);
        result.setNextException(failed.getNextException());
        return result;
    }

    /**
     * The counters the batch moved, after it ran in pieces. An insert that failed, in either run, drew from its table's
     * identity column, and the rows kept may be another table's: every identity counter goes with the transaction.
     */
    private void noteIdentityCounters(int mark) {
        transaction.noteCounters(kind, mark);
        if (kind.mayDrawIdentity()) {
            capture.insertStatementEnded(capture.mark());
        }
    }

    private void rollbackQuietly() {
        try {
            engine.rollback();
        } catch (SQLException ignored) {
            // the failure the application sees is the batch's
        }
    }

    /** A batch of row statements, whole (one engine call) or one element at a time. */
    interface Elements {
        int size();

        long[] runWhole(PhysicalSession session) throws SQLException;

        /** Runs element {@code index} alone, after {@link #clearEngineBatch}; returns its update count. */
        long runOne(PhysicalSession session, int index) throws SQLException;

        void clearEngineBatch(PhysicalSession session) throws SQLException;
    }
}
