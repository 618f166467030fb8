package io.macrodb.runtime.engine.h2;

import io.macrodb.runtime.capture.CapturedTable;
import io.macrodb.runtime.capture.WriteSet;
import io.macrodb.runtime.engine.DirectRowWriter;
import org.h2.engine.SessionLocal;
import org.h2.index.Cursor;
import org.h2.index.Index;
import org.h2.message.DbException;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.db.MVPrimaryIndex;
import org.h2.mvstore.db.MVTable;
import org.h2.result.Row;
import org.h2.result.SearchRow;
import org.h2.table.Column;
import org.h2.table.Table;
import org.h2.value.Value;
import org.h2.value.VersionedValue;

import java.sql.SQLException;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Applies a slave's row changes through H2's table API, as H2's own INSERT, UPDATE and DELETE do once they have
 * computed their rows: the table's indexes are maintained in the applier's transaction, which the applier commits.
 *
 * <p>Why: a slave stores the master's very row object ({@code Row}, holding the master's {@code Value[]}: {@link
 * H2RowLog}), and an inserted row's index entries the first slave made ({@link H2SharedRowInsert}), instead of a copy
 * of every value and a row object and entries of its own; and the slave skips what SQL would do again for nothing:
 * parse and bind, convert each value to its column, and check constraints the master checked.
 *
 * <p>A row object holds the row's key in its table (the primary key's value, or a key H2 counts up where the primary
 * key is not one integer column), which a slave's table must then give it too: a slave shares the master's row only
 * where its own row has the same key (an update), or, for an insert, where its table has no row with that key yet,
 * else it stores a row of its own with the master's values. Keys stay the same on every replica as long as rows are
 * only added this way and copied with their keys ({@link H2StoredRowsCopy}); H2's UPDATE keeps a row's key. H2 sets
 * a row's key as it stores it, and {@code updateRow} sets it again on the new row: on a shared row both write the
 * value it already has.
 *
 * <p>What it leaves to SQL (returns {@link #NOT_WRITTEN}): a table without a primary key (matched on all its old
 * values, exactly, by SQL), one with a LOB column (H2 copies a LOB into the table's own storage as it stores the
 * row), a table whose H2 columns are not the captured ones, an update that moves a primary key or unique value (H2
 * would have to re-key the row), and a row not captured in {@code Value}s.
 *
 * <p>Sharing the master's rows relies on H2 never changing a stored row in place, which its MVCC needs too (a
 * reader of an older snapshot reads the same object). In 2.5.252 only the primary index's LOB copy changes a row's
 * array, as it stores the row (before the row log reads it), and LOB tables are left to SQL.
 * A change there would reach every slave at once, outside the version order, and no test need notice: re-read H2's
 * DML paths on an upgrade.
 */
final class H2DirectWriter implements DirectRowWriter {

    /**
     * A captured table's H2 table, its primary key index and the map of its rows by key (its primary index's), or
     * {@link #SQL} for a table left to SQL.
     */
    private record Target(MVTable table, Index key, int[] keyColumns, MVMap<Long, VersionedValue<SearchRow>> rows) {
    }

    private static final Target SQL = new Target(null, null, null, null);

    private final SessionLocal session;
    private final Map<CapturedTable, Target> targets = new IdentityHashMap<>();

    H2DirectWriter(SessionLocal session) {
        this.session = session;
    }

    @Override
    public int apply(WriteSet.RowChange change, WriteSet.StoredValues toStored) throws SQLException {
        CapturedTable captured = change.table();
        Target target = targets.computeIfAbsent(captured, this::find);
        if (target == SQL) {
            return NOT_WRITTEN;
        }
        Value[] after = null;
        if (change.kind() != WriteSet.Kind.DELETE) {
            if (change.kind() == WriteSet.Kind.UPDATE && captured.changesUniqueColumns(change.before(), change.after())) {
                return NOT_WRITTEN;
            }
            if (!(change.storedAfter(toStored, WriteSet.ALL_COLUMNS) instanceof Value[] stored)) {
                return NOT_WRITTEN;
            }
            after = stored;
        }
        try {
            session.startStatementWithinTransaction(null);
            try {
                return write(target, change, after);
            } finally {
                session.endStatement();
            }
        } catch (DbException e) {
            throw DbException.toSQLException(e);
        }
    }

    private int write(Target target, WriteSet.RowChange change, Value[] after) {
        MVTable table = target.table();
        table.lock(session, Table.WRITE_LOCK);
        if (change.kind() == WriteSet.Kind.INSERT) {
            add(table, change, after);
            return 1;
        }
        Row old = byMasterKey(target, change);
        if (old == null) {
            SearchRow key = table.getTemplateSimpleRow(false);
            for (int i : target.keyColumns()) {
                if (!(change.before()[i] instanceof Value value)) {
                    return NOT_WRITTEN;
                }
                key.setValue(i, value);
            }
            Cursor rows = target.key().find(session, key, key, false);
            if (!rows.next()) {
                return 0;
            }
            old = rows.get();
            if (rows.next()) {
                return 2;
            }
        }
        if (change.kind() == WriteSet.Kind.DELETE) {
            table.removeRow(session, old);
        } else {
            Row shared = masterRow(change, after);
            table.updateRow(session, old, shared != null && shared.getKey() == old.getKey() ? shared
                    : table.createRow(after, Row.MEMORY_CALCULATE));
        }
        return 1;
    }

    /**
     * The slave's row at the key the master's table gives the changed row, where it holds the primary key the change
     * names; else null, and the row is looked up by its primary key. Why: the slave gives rows the master's keys, and
     * one lookup in the map of rows by key costs far less than one in the primary key's index and then that map (a
     * composite primary key is a secondary index in H2): the lookup was more than a quarter of an applier's CPU under
     * TPC-C (JFR, 2026-11-29).
     */
    private Row byMasterKey(Target target, WriteSet.RowChange change) {
        if (!(change.masterRow() instanceof Row master) || master.getKey() == 0) {
            return null;
        }
        Object found = session.getTransaction().openMapX(target.rows()).getFromSnapshot(master.getKey());
        if (!(found instanceof Row row)) {
            return null;
        }
        Object[] before = change.before();
        for (int i : target.keyColumns()) {
            if (!row.getValue(i).equals(before[i])) {
                return null;
            }
        }
        return row;
    }

    /**
     * Adds the master's row object ({@link H2SharedRowInsert}), or a row of the slave's own where there is none to
     * share or the master's key is taken in the slave's table (keys the replicas gave differently, in a table applied
     * through SQL before).
     */
    private void add(MVTable table, WriteSet.RowChange change, Value[] after) {
        Row shared = masterRow(change, after);
        if (shared == null || !H2SharedRowInsert.add(session, table, shared, change)) {
            table.addRow(session, table.createRow(after, Row.MEMORY_CALCULATE));
        }
    }

    /**
     * The master's row object holding {@code after}, or null where the change carries none, or one whose key is 0,
     * which H2 would take for "no key yet" and replace with one of the slave's, in the master's row.
     */
    private static Row masterRow(WriteSet.RowChange change, Value[] after) {
        return change.masterRow() instanceof Row row && row.getValueList() == after && row.getKey() != 0 ? row : null;
    }

    /** The H2 table a captured table's rows can be written to directly, or {@link #SQL}. */
    private Target find(CapturedTable captured) {
        if (!captured.keyed()) {
            return SQL;
        }
        Table found = H2Engine.findTable(session, captured.name().schema(), captured.name().table());
        if (!(found instanceof MVTable table) || table.getContainsLargeObject() || !sameColumns(table, captured)) {
            return SQL;
        }
        Index key = table.findPrimaryKey();
        int[] keyColumns = captured.matchColumns();
        Column[] indexed = key == null ? new Column[0] : key.getColumns();
        if (indexed.length != keyColumns.length) {
            return SQL;
        }
        for (int i = 0; i < keyColumns.length; i++) {
            if (indexed[i].getColumnId() != keyColumns[i]) {
                return SQL;
            }
        }
        return new Target(table, key, keyColumns, ((MVPrimaryIndex) table.getScanIndex(session)).getMVMap());
    }

    private static boolean sameColumns(Table table, CapturedTable captured) {
        Column[] columns = table.getColumns();
        List<CapturedTable.Column> expected = captured.columns();
        if (columns.length != expected.size()) {
            return false;
        }
        for (int i = 0; i < columns.length; i++) {
            if (!columns[i].getName().equals(expected.get(i).name())) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void forgetTables() {
        targets.clear();
    }
}
