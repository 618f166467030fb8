package io.macrodb.jdbc;

import io.macrodb.runtime.capture.CaptureScope;
import io.macrodb.runtime.capture.CaptureSink;
import io.macrodb.runtime.capture.TransactionCapture;

import java.sql.SQLException;

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
        if (capture == null) {
            return call.run(session);
        }
        int mark = capture.mark();
        CaptureSink previous = CaptureScope.open(capture);
        try {
            T result = call.run(session);
            if (kind.usesSequence()) {
                capture.usedSequences();
            }
            return result;
        } catch (SQLException | RuntimeException e) {
            capture.cutTo(mark);
            if (kind.usesSequence()) {
                capture.usedSequences(); // a failed statement may still have drawn from a sequence
            }
            throw e;
        } finally {
            CaptureScope.close(previous);
        }
    }

    /** A statement's work on one engine connection. */
    @FunctionalInterface
    interface StatementCall<T> {
        T run(PhysicalSession session) throws SQLException;
    }
}
