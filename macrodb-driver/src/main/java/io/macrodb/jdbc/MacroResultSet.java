package io.macrodb.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** An engine's result set whose {@link #getStatement()} is the MacroDB statement that made it. */
final class MacroResultSet extends ForwardingResultSet {

    private final MacroStatement owner;

    /** @param owner the statement that made it; null for metadata result sets, as JDBC allows */
    MacroResultSet(ResultSet delegate, MacroStatement owner) {
        super(delegate);
        this.owner = owner;
    }

    @Override
    public Statement getStatement() {
        return owner;
    }

    @Override
    public void close() throws SQLException {
        try {
            delegate.close();
        } finally {
            if (owner != null) {
                owner.resultClosed(this);
            }
        }
    }
}
