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

    /** A lost replica's error, from any call on the result (H2 checks its session on each), is the retryable 40M01. */
    @Override
    protected SQLException translated(SQLException e) {
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
