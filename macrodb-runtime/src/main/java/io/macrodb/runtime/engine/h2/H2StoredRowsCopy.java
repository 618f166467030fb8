package io.macrodb.runtime.engine.h2;

import io.macrodb.runtime.capture.CapturedTable;
import org.h2.engine.SessionLocal;
import org.h2.index.Cursor;
import org.h2.index.Index;
import org.h2.message.DbException;
import org.h2.mvstore.db.MVTable;
import org.h2.result.Row;
import org.h2.table.Table;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Copies a table's rows to a new slave as its source stores them: each row object, the very one the source holds
 * (with its key and value array), added with the source's own index entries for it ({@link H2SharedRowInsert}), as
 * {@link H2DirectWriter} writes applied rows. A rebuilt slave then shares its rows with the other replicas, as a slave
 * that applied them does; copied through JDBC it held a copy of every value, so a cluster after a rebuild used more
 * memory than before the failure.
 *
 * <p>The source stands still while it is copied (a paused slave, or a master whose commits are held), so its
 * committed rows are the ones read. The slave's table was just created from the source's own script: the same
 * columns, indexes and constraints, and referential integrity off. No trigger fires and no constraint is checked
 * again: the source checked each row when it stored it.
 */
final class H2StoredRowsCopy {

    private H2StoredRowsCopy() {
    }

    /**
     * Copies {@code table}, committing the slave every {@code commitEvery} rows; false, having copied nothing, where
     * either side's table is not a plain H2 table of the same width or holds a LOB column (H2 copies a LOB into the
     * table's own storage as it stores the row, so the source's array cannot be stored as it is).
     */
    static boolean copy(Connection source, Connection slave, CapturedTable.Name table, int commitEvery)
            throws SQLException {
        SessionLocal from = H2Engine.session(source);
        SessionLocal to = H2Engine.session(slave);
        if (!(H2Engine.findTable(from, table.schema(), table.table()) instanceof MVTable read)
                || !(H2Engine.findTable(to, table.schema(), table.table()) instanceof MVTable write)
                || read.getContainsLargeObject() || write.getColumns().length != read.getColumns().length) {
            return false;
        }
        try {
            from.startStatementWithinTransaction(null);
            try {
                Cursor rows = read.getScanIndex(from).find(from, null, null, false);
                Index[] sources = H2SharedRowInsert.sourceIndexes(write, read);
                int pending = 0;
                while (rows.next()) {
                    add(to, write, rows.get(), sources);
                    if (++pending == commitEvery) {
                        slave.commit();
                        pending = 0;
                    }
                }
            } finally {
                from.endStatement();
            }
        } catch (DbException e) {
            throw DbException.toSQLException(e);
        }
        slave.commit();
        return true;
    }

    /** One row, in its own statement of the slave's transaction, under the table's write lock, as H2's INSERT does. */
    private static void add(SessionLocal session, MVTable table, Row row, Index[] sources) {
        session.startStatementWithinTransaction(null);
        try {
            table.lock(session, Table.WRITE_LOCK);
            if (row.getKey() != 0) {
                // The source's row object itself, with its key, so that the slave's keys stay the master's and the
                // slave can go on sharing the master's rows (H2DirectWriter), and the source's index entries.
                H2SharedRowInsert.addCopied(session, table, row, sources);
            } else { // a key H2 would take for none, and replace, in the source's row
                table.addRow(session, table.createRow(row.getValueList(), Row.MEMORY_CALCULATE));
            }
        } finally {
            session.endStatement();
        }
    }
}
