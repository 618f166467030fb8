package io.macrodb.jdbc;

import io.macrodb.api.MacroSqlState;
import io.macrodb.runtime.capture.CaptureScope;
import io.macrodb.runtime.capture.CaptureSink;
import io.macrodb.runtime.capture.TransactionCapture;
import io.macrodb.runtime.cluster.Replica;

import java.sql.SQLException;
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
        try {
            T result = call.run(session);
            noteCounters(kind, mark);
            return result;
        } catch (SQLException | RuntimeException e) {
            capture.cutTo(mark);
            noteCounters(kind, mark); // a failed statement may still have drawn from a sequence or an identity
            if (e instanceof SQLException failure) {
                checkReplica(failure);
            }
            throw e;
        } finally {
            CaptureScope.close(previous);
        }
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
