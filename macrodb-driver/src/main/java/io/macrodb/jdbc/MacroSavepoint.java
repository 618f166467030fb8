package io.macrodb.jdbc;

import java.sql.SQLException;
import java.sql.Savepoint;

/**
 * A savepoint of one transaction: the engine's own savepoint, plus how many captured rows the transaction had when it
 * was set, so a rollback to it also drops the rows captured after it.
 *
 * @param name the name it was set with; null for an unnamed one
 */
record MacroSavepoint(Savepoint physical, Transaction transaction, int captureMark, String name) implements Savepoint {

    @Override
    public int getSavepointId() throws SQLException {
        return physical.getSavepointId();
    }

    @Override
    public String getSavepointName() throws SQLException {
        return physical.getSavepointName();
    }
}
