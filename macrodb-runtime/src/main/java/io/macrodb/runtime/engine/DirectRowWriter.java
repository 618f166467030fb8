package io.macrodb.runtime.engine;

import io.macrodb.runtime.capture.WriteSet;

import java.sql.SQLException;

/**
 * Writes a slave's captured row changes straight into its tables, past SQL, where the engine allows it
 * ({@link Engine#directWriter}). One per applier, used by its thread only, inside the applier's open transaction.
 */
public interface DirectRowWriter {

    /** What {@link #apply} returns for a change it left alone: the applier then writes it with SQL. */
    int NOT_WRITTEN = -1;

    /**
     * Applies one row change.
     *
     * @param toStored turns the captured row into the values the engine stores ({@link WriteSet.RowChange#storedAfter})
     * @return the rows it touched (1 on a slave that holds the master's rows), or {@link #NOT_WRITTEN}, having
     *         changed nothing, where the table or the change needs SQL
     */
    int apply(WriteSet.RowChange change, WriteSet.StoredValues toStored) throws SQLException;

    /** Forgets what it learnt of the slave's tables: called after each schema change the slave applies. */
    void forgetTables();
}
