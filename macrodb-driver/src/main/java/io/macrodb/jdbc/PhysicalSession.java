package io.macrodb.jdbc;

import io.macrodb.runtime.capture.RowLog;
import io.macrodb.runtime.capture.TransactionCapture;
import io.macrodb.runtime.cluster.Replica;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * One physical engine connection owned by a MacroDB connection, and which of the MacroDB connection's session state
 * it has received so far. State (isolation, holdability, schema, {@code SET} statements) is recorded on the MacroDB
 * connection and brought to a physical connection only when a transaction begins on it, so a connection that has
 * never read from some slave never pays for that slave.
 */
final class PhysicalSession {

    private final Replica replica;
    private final Connection connection;
    private final RowLog rowLog;
    private int isolation = -1;
    private int holdability = -1;
    private String schema;
    /** The sequence number of the last session statement this engine connection ran ({@link SessionStatements}). */
    private long sessionStatementsRun;

    /**
     * @param rowLog where the rows of update transactions on this connection are read from; null for a connection to
     *               a slave, which runs no update transaction
     */
    PhysicalSession(Replica replica, Connection connection, RowLog rowLog) {
        this.replica = replica;
        this.connection = connection;
        this.rowLog = rowLog;
    }

    Replica replica() {
        return replica;
    }

    Connection connection() {
        return connection;
    }

    /** Called before each statement of an update transaction: see {@link RowLog}. */
    void statementBegins() {
        if (rowLog != null) {
            rowLog.statementBegins();
        }
    }

    /**
     * Called once that statement has succeeded: the rows it wrote are read from the engine's record of them
     * ({@link RowLog}) and captured now.
     */
    void statementEnded(TransactionCapture capture) throws SQLException {
        if (rowLog != null) {
            rowLog.statementEnded(capture);
        }
    }

    /**
     * Called when a statement of an update transaction failed with {@code error}: whether the engine rolled the whole
     * transaction back, not just the statement: the engine's record of the rows written says
     * ({@link RowLog#transactionRolledBack}); on a connection to a slave, the error's SQLState
     * ({@link Transaction#rolledBackWholeTransaction}).
     */
    boolean rolledBackWholeTransaction(Throwable error) {
        return rowLog != null ? rowLog.transactionRolledBack() : Transaction.rolledBackWholeTransaction(error);
    }

    /** Brings this engine connection up to the MacroDB connection's session state. */
    void sync(int isolation, int holdability, String schema, SessionStatements sessionStatements)
            throws SQLException {
        if (this.isolation != isolation) {
            connection.setTransactionIsolation(isolation);
            this.isolation = isolation;
        }
        if (this.holdability != holdability) {
            connection.setHoldability(holdability);
            this.holdability = holdability;
        }
        if (schema != null && !schema.equals(this.schema)) {
            connection.setSchema(schema);
            this.schema = schema;
        }
        sessionStatementsRun = sessionStatements.replayAfter(sessionStatementsRun, connection);
    }

    /** Records that this engine connection's schema was set to {@code schema} other than by {@link #sync}. */
    void schemaSet(String schema) {
        this.schema = schema;
    }

    /** Records that the session statements up to {@code sequence} already ran here. */
    void markSessionStatementsRun(long sequence) {
        sessionStatementsRun = sequence;
    }

    void close() throws SQLException {
        connection.close();
    }
}
