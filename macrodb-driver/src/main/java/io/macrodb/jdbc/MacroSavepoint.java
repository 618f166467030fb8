package io.macrodb.jdbc;

import java.sql.SQLException;
import java.sql.Savepoint;

/**
 * A savepoint of one transaction: the engine's own savepoint; its transaction keeps how many captured rows it had when
 * the savepoint was set ({@link #key}), so a rollback to it also drops the rows captured after it.
 *
 * @param name the name it was set with; null for an unnamed one
 */
record MacroSavepoint(Savepoint physical, Transaction transaction, String name) implements Savepoint {

    /** What identifies it in the engine: its name, or for an unnamed one its id. */
    String key() throws SQLException {
        return name != null ? "name " + name : "id " + physical.getSavepointId();
    }

    @Override
    public int getSavepointId() throws SQLException {
        return physical.getSavepointId();
    }

    @Override
    public String getSavepointName() throws SQLException {
        return physical.getSavepointName();
    }
}
