package io.macrodb.jdbc;

import io.macrodb.api.MacroSqlState;
import io.macrodb.runtime.cluster.Replica;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientException;
import java.sql.Statement;

/**
 * An engine's result set whose {@link #getStatement()} is the MacroDB statement that made it. Moving the cursor after
 * its replica has failed (its database may be shut down under it) fails with the retryable 40M01, as the
 * transaction's next statement would.
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

    // The cursor moves are where an engine reads on (H2 and HSQLDB hand over fetched rows as values, and a lazily
    // read result fetches more): each translates a lost replica's error.

    @Override
    public boolean next() throws SQLException {
        try {
            return delegate.next();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public boolean previous() throws SQLException {
        return move(delegate::previous);
    }

    @Override
    public boolean first() throws SQLException {
        return move(delegate::first);
    }

    @Override
    public boolean last() throws SQLException {
        return move(delegate::last);
    }

    @Override
    public boolean absolute(int row) throws SQLException {
        return move(() -> delegate.absolute(row));
    }

    @Override
    public boolean relative(int rows) throws SQLException {
        return move(() -> delegate.relative(rows));
    }

    /** A cursor move on the engine's result. */
    @FunctionalInterface
    private interface Move {
        boolean run() throws SQLException;
    }

    private boolean move(Move move) throws SQLException {
        try {
            return move.run();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    /** The retryable 40M01 when this result's replica has failed (its database may be gone), else the error. */
    private SQLException translated(SQLException e) {
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
