package io.macrodb.jdbc;

import io.macrodb.api.MacroSqlState;
import io.macrodb.runtime.cluster.Replica;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientException;
import java.sql.Statement;

/**
 * An engine's result set whose {@link #getStatement()} is the MacroDB statement that made it. Reading on after its
 * replica has failed (its database may be shut down under it) fails with the retryable 40M01, as the transaction's
 * next statement would.
 */
final class MacroResultSet extends ForwardingResultSet {

    private final MacroStatement owner;
    private final Replica replica;

    /**
     * @param owner   the statement that made it; null for metadata result sets, as JDBC allows
     * @param replica the replica it was read on; null for metadata result sets
     */
    MacroResultSet(ResultSet delegate, MacroStatement owner, Replica replica) {
        super(delegate);
        this.owner = owner;
        this.replica = replica;
    }

    /**
     * A lost replica's error, from any call on the result (H2 checks its session on each), is the retryable 40M01;
     * once the cluster has shut down (its replicas all gone), it is the connection's 08003, as for any other call: a
     * pool retrying a 40M01 would retry into a cluster that is gone.
     */
    @Override
    protected SQLException translated(SQLException e) {
        if (owner != null) {
            try {
                owner.connection.cluster().checkOpen();
            } catch (SQLException shutDown) {
                shutDown.initCause(e);
                return shutDown;
            }
        }
        if (replica != null && replica.isLost()) {
            return new SQLTransientException("Replica " + replica.index() + " failed while this result was read; "
                    + "roll back and run the transaction again.", MacroSqlState.REPLICA_LOST, e);
        }
        return e;
    }

    @Override
    public Statement getStatement() {
        return owner;
    }

    // ---- an updatable result's changes: writes of the connection's transaction, captured like a statement's ----

    @Override
    public void updateRow() throws SQLException {
        writeThrough(ResultSet::updateRow, false);
    }

    @Override
    public void insertRow() throws SQLException {
        writeThrough(ResultSet::insertRow, true);
    }

    @Override
    public void deleteRow() throws SQLException {
        writeThrough(ResultSet::deleteRow, false);
    }

    /**
     * Runs a row change made through this result as a write of the connection's transaction (a new one in auto-commit
     * mode), so that it is captured and reaches the slaves (it runs through the engine's result set, not MacroDB's
     * statements). A result read on a slave (a read-only transaction) cannot write: the
     * transaction refuses with 25006, as for any write in it.
     */
    private void writeThrough(RowChange change, boolean inserts) throws SQLException {
        if (owner == null) { // a metadata result: never updatable, the engine says so
            change.run(delegate);
            return;
        }
        StatementKind write = new StatementKind(StatementKind.Type.WRITE, false, inserts);
        owner.connection.execute(write, null, session -> {
            if (session.replica() != replica) {
                throw new SQLTransientException("This result was read on replica " + replica.index() + ", which is "
                        + "no longer the master; run the query again to change its rows.", MacroSqlState.REPLICA_LOST);
            }
            try {
                change.run(delegate);
            } catch (SQLException e) {
                throw translated(e);
            }
            return null;
        });
    }

    @FunctionalInterface
    private interface RowChange {
        void run(ResultSet engineResult) throws SQLException;
    }

    @Override
    public void close() throws SQLException {
        try {
            delegate.close();
        } catch (SQLException e) {
            if (replica == null || !replica.isLost()) { // a failed replica's database may be gone: nothing to free
                throw e;
            }
        } finally {
            if (owner != null) {
                owner.resultClosed(this);
            }
        }
    }
}
