package io.macrodb.runtime.engine.hsqldb;

import io.macrodb.api.MacroSqlState;
import io.macrodb.runtime.capture.CapturedTable;
import io.macrodb.runtime.capture.RowLog;
import io.macrodb.runtime.capture.TransactionCapture;
import org.hsqldb.Database;
import org.hsqldb.HsqlNameManager.HsqlName;
import org.hsqldb.Row;
import org.hsqldb.RowAction;
import org.hsqldb.RowActionBase;
import org.hsqldb.Session;
import org.hsqldb.Table;
import org.hsqldb.TableBase;
import org.hsqldb.TransactionManager;
import org.hsqldb.lib.HsqlArrayList;

import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Captures the rows an update transaction writes on an HSQLDB master from the session's row actions: the list HSQLDB
 * keeps of every row its transaction inserted or deleted, in order, to commit them or roll them back
 * ({@code Session.getRowActionList()}). A statement that fails, a rollback to a savepoint and a whole-transaction
 * rollback take their rows out of the list as they undo them, so what a statement leaves there is exactly what it
 * wrote. It is read after each statement, from where the statement began.
 *
 * <p>Why not triggers, as on H2. HSQLDB calls a Java row trigger inside a fresh session context (it pushes and pops
 * the session's state, allocating new arrays and hash maps) with a copy of the row, for every row. With one replica,
 * TPC-C's standard mix at 1 client ran at 0.77x of HSQLDB alone with the capture triggers and 0.94x with this log
 * (client CPU per transaction 1.29x and 1.07x of HSQLDB alone's; 5 repetitions each, 2026-11-27, README).
 *
 * <p>It rests on HSQLDB 2.7.4's behaviour behind public methods: the session's list and what undoing takes out of it
 * ({@code getRowActionList}, {@code rollbackAction}, {@code getActionSCN}), a row action's row, visibility and
 * committed deletes ({@code getRow}, {@code getType}, {@code canRead}, {@code isDeleted}), and {@code Session.close}
 * running under the session's monitor. Re-check them on an HSQLDB upgrade; {@code HsqldbRowLogTest},
 * {@code HsqldbRowLogAdversarialTest} and {@code HsqldbFailoverTest} cover what they must do, in each transaction
 * mode.
 *
 * <p>HSQLDB updates a row as a delete of the old one and an insert of the new. A slave applies an UPDATE of the
 * columns that changed, so within a statement a deleted row and an inserted row of the same table with the same
 * primary key are one change, the old row's to the new one's; a row inserted and deleted by the same statement is
 * none. Whether an entry inserted or deleted its row is read from the row action ({@code RowAction.canRead} for a
 * session of no transaction: a row this transaction inserted is not visible yet to others) and, in MVCC and MVLOCKS
 * modes, where a row's entries form one chain and a deleted row can be deleted again, from what the transaction did
 * to that row before ({@code rowStates}).
 *
 * <p>Rows of temporary tables (the session's own) and of HSQLDB's own schemas are not captured, as they had no
 * capture trigger. There is no trigger either to refuse a write that did not come through MacroDB: a connection
 * opened straight to the master's database writes rows no slave gets (README, Limits; {@code verify()} finds them).
 */
final class HsqldbRowLog implements RowLog {

    private final Session session;
    /** Where the statement running now began in the session's list. */
    private int statementStart;
    /** The session's change number before the statement: every row action of the statement has a later one. */
    private long beforeStatement;

    HsqldbRowLog(Session session) {
        this.session = session;
    }

    /**
     * In HSQLDB's MVCC and MVLOCKS modes only: what this transaction has done so far to each row it wrote, true for a
     * row it inserted and has not deleted, false for one it deleted. There a row this transaction deleted stays in the
     * table's index until commit, and HSQLDB's TRUNCATE, which walks the index without asking what the session still
     * sees, deletes it again: the list then names the row a second time, in that statement or a later one, and
     * neither that entry nor the session's view of the row tells a second delete from a first (found by a review,
     * 2026-11-27: TRUNCATE in a procedure after a DELETE failed every slave or left the deleted row on it). In LOCKS
     * mode a deleted row leaves the index at once, and each entry is a row action of its own.
     */
    private Map<Row, Boolean> rowStates = new IdentityHashMap<>();
    /** The list's length when {@link #rowStates} was last brought up to date with it. */
    private int statesRead;

    /** Whether the database runs in an MVCC mode (read at each statement: SQL can switch the mode between them). */
    private boolean multiVersion;

    @Override
    public void statementBegins() {
        HsqlArrayList<RowAction> actions = session.getRowActionList();
        statementStart = actions.size();
        beforeStatement = session.getActionSCN();
        Database database = session.getDatabase(); // null once the session is closed: the statement fails in HSQLDB
        multiVersion = database != null && database.txManager.getTransactionControl() != TransactionManager.LOCKS;
        if (!multiVersion) {
            forgetRowStates();
        } else if (statementStart < statesRead) {
            // A commit, a rollback or a rollback to a savepoint took entries out: the states are read again from what
            // is left (rows of the temporary and the engine's own tables too: harmless, they are never captured).
            forgetRowStates();
            for (int i = 0; i < statementStart; i++) {
                RowAction action = actions.get(i);
                if (action != null && action.getType() != RowActionBase.ACTION_NONE) {
                    nextAction(action.getRow(), action);
                }
            }
        }
        statesRead = statementStart;
    }

    /**
     * Empties {@link #rowStates}; one that a large transaction grew is replaced, since emptying a map keeps its table
     * and a pooled connection would hold that for good.
     */
    private void forgetRowStates() {
        if (rowStates.size() > LARGE_ROW_STATES) {
            rowStates = new IdentityHashMap<>();
        } else if (!rowStates.isEmpty()) {
            rowStates.clear();
        }
    }

    private static final int LARGE_ROW_STATES = 1024;

    @Override
    public void statementEnded(TransactionCapture capture) throws SQLException {
        HsqlArrayList<RowAction> actions = session.getRowActionList();
        if (actions.size() == statementStart && !session.isClosed()) {
            return; // wrote nothing (a query of an update transaction)
        }
        HsqldbEngine.LOB_READER.set(session); // a LOB column's value is read through the writer's session
        try {
            // HSQLDB closes a session under its monitor (a SHUTDOWN from another thread closes every session): held
            // here, the list is read whole before a close or not at all after it.
            synchronized (session) {
                if (session.isClosed() || actions.size() < statementStart) {
                    throw transactionEnded();
                }
                if (actions.size() == statementStart) {
                    return;
                }
                readStatementRows(actions, capture);
                pairUpdates();
            }
            for (Written row : rows) {
                if (!row.cancelled && !row.becameUpdate) {
                    capture.storedRowChanged(row.table, row.inserted ? null : row.values,
                            row.inserted ? row.values : row.newRow == null ? null : row.newRow.values, null);
                }
            }
        } catch (SQLException | RuntimeException e) {
            if (!session.isClosed()) {
                // Undone as HSQLDB undoes a failed statement: its row actions from where it began, by change number.
                session.rollbackAction(statementStart, beforeStatement + 1);
            }
            statesRead = Integer.MAX_VALUE; // rowStates may hold what the statement did: read again at the next one
            throw e;
        } finally {
            HsqldbEngine.LOB_READER.set(null);
            rows.clear();
        }
    }

    /**
     * The engine ended the transaction while the statement ran, though the statement returned: HSQLDB's shutdown
     * waits for a running statement, then closes its session, which rolls the transaction back and empties the list
     * (found by a review, 2026-11-28). Captured as it stood, the transaction committed on the slaves without this
     * statement's rows (HSQLDB's commit on a closed session reports no error), or with rows read while the close undid
     * them, which failed the slave.
     */
    private static SQLException transactionEnded() {
        return new SQLTransactionRollbackException("HSQLDB ended this transaction while its statement ran (its "
                + "session was closed, or its transaction rolled back from outside); nothing of it was committed. "
                + "Run it again.", MacroSqlState.SERIALIZATION_FAILURE);
    }

    /** A statement's undoing leaves the list as long as it was when the statement began; a rollback empties it. */
    @Override
    public boolean transactionRolledBack() {
        return session.getRowActionList().size() < statementStart;
    }

    /**
     * Up to this many rows in a statement are matched with each other by looking through them all, without the hash
     * maps a larger statement needs: most statements write a row or two, and the maps cost them more than the look.
     */
    private static final int FEW_ROWS = 16;

    /** The statement's captured rows, in the list's order (kept between statements, emptied after each). */
    private final List<Written> rows = new ArrayList<>();

    /** One row the statement inserted or deleted, with what it became in the capture. */
    private static final class Written {
        final Row row;
        final CapturedTable table;
        final Object[] values;
        final boolean inserted;
        /** Inserted and deleted again by the same statement: nothing to capture. */
        boolean cancelled;
        /** For a deleted row: the row inserted in its place (same table and key), making the pair an update. */
        Written newRow;
        /** An inserted row that is the new row of such an update. */
        boolean becameUpdate;

        Written(Row row, CapturedTable table, boolean inserted) {
            this.row = row;
            this.table = table;
            this.values = row.getData();
            this.inserted = inserted;
        }

        boolean sameKey(Written other) {
            if (table != other.table || !table.keyed()) {
                return false;
            }
            for (int column : table.matchColumns()) {
                if (!Objects.equals(values[column], other.values[column])) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Reads the statement's part of the list into {@link #rows}: the captured tables' rows, each once. */
    private void readStatementRows(HsqlArrayList<RowAction> actions, TransactionCapture capture) throws SQLException {
        int end = actions.size();
        Map<Row, Written> byRow = end - statementStart > FEW_ROWS ? new IdentityHashMap<>() : null;
        TableBase lastTable = null;
        CapturedTable lastCaptured = null;
        for (int i = statementStart; i < end; i++) {
            RowAction action = actions.get(i);
            if (action == null || action.getType() == RowActionBase.ACTION_NONE) {
                continue; // nothing left of it (HSQLDB's own rollback skips these too)
            }
            Row row = action.getRow();
            TableBase table = row.getTable();
            if (table != lastTable) {
                lastTable = table;
                lastCaptured = capturedTable(table, capture);
            }
            if (lastCaptured == null) {
                continue;
            }
            Written earlier = byRow == null ? seenAmongFew(row) : byRow.get(row);
            if (earlier != null) {
                if (earlier.inserted) {
                    earlier.cancelled = true; // its insert and its delete, both in this statement
                    if (multiVersion) {
                        nextAction(row, action);
                    }
                } // else deleted again (see rowStates): nothing more to capture
                continue;
            }
            Action written = multiVersion ? nextAction(row, action) : firstAction(action);
            if (written != Action.DELETED_AGAIN) {
                Written entry = new Written(row, lastCaptured, written == Action.INSERTED);
                rows.add(entry);
                if (byRow != null) {
                    byRow.put(row, entry);
                }
            }
        }
        statesRead = end;
    }

    /** What an entry of the list did to its row. */
    private enum Action { INSERTED, DELETED, DELETED_AGAIN }

    /**
     * What {@code action}, the first entry of its row in a statement, did in LOCKS mode, where every entry is a row
     * action of its own: an insert this transaction made is not there for others to see yet (a session of no
     * transaction reads only what is committed); a delete leaves the row there for them until commit.
     */
    private static Action firstAction(RowAction action) {
        return action.canRead(null, TransactionManager.ACTION_READ, null) ? Action.DELETED : Action.INSERTED;
    }

    /**
     * What {@code action}, the first entry of its row in this transaction, did in an MVCC mode, where a row's entries
     * are one chain that other sessions change as this one reads it. A row others can still read was deleted by it
     * (as in LOCKS mode, {@link #firstAction}). One they cannot read was inserted by it, unless a committed transaction
     * had deleted the row already ({@code isDeleted}): HSQLDB keeps such a row in the index while an older transaction
     * may read it, and TRUNCATE deletes it again (found by a review, 2026-11-28: shipped as an insert, it failed every
     * slave on a unique key).
     *
     * <p>{@code canRead} is asked first: it reads the chain under the row action's monitor, as HSQLDB changes it, and
     * skips rolled-back entries; {@code isDeleted} does neither. Asked first, {@code isDeleted} took a plain delete for
     * a delete again, and the UPDATE reached the slaves as the insert of its new row alone (every slave failed on the
     * primary key; HSQLDB MVCC, two writers and ALTER TABLE, once in a CI run, 2026-11-29). It does so while another
     * session's rollback has marked its own delete of the row rolled back, with a commit number, and not yet unlinked
     * it (two holds of the monitor, this session's delete between them: {@code HsqldbRowLogChainTest}), and may while
     * a commit merging the chain rewrites the entry it reads. Where {@code canRead} says no, the chain holds this
     * transaction's own insert, which no other session touches, or a committed delete, which stays one.
     */
    private static Action firstMultiVersionAction(RowAction action) {
        if (action.canRead(null, TransactionManager.ACTION_READ, null)) {
            return Action.DELETED;
        }
        return action.isDeleted() ? Action.DELETED_AGAIN : Action.INSERTED;
    }

    /**
     * What {@code action}, the next entry of {@code row} in the list, did, from {@link #rowStates} (updated): the
     * first entry of a row in this transaction says itself ({@link #firstMultiVersionAction}); the next one of a row
     * it inserted deletes it; any other deletes a row this transaction has deleted already.
     */
    private Action nextAction(Row row, RowAction action) {
        Boolean inserted = rowStates.get(row);
        if (inserted == null) {
            Action first = firstMultiVersionAction(action);
            rowStates.put(row, first == Action.INSERTED);
            return first;
        }
        if (inserted) {
            rowStates.put(row, false);
            return Action.DELETED;
        }
        return Action.DELETED_AGAIN;
    }

    private Written seenAmongFew(Row row) {
        for (Written written : rows) {
            if (written.row == row) {
                return written;
            }
        }
        return null;
    }

    /**
     * Makes each deleted row of a keyed table whose key the statement inserted again one update, old row to new, as a
     * trigger would have seen it. Its place is the delete's; a statement's updates that move a unique value are
     * ordered apart by {@link TransactionCapture#statementEnded}.
     */
    private void pairUpdates() {
        if (rows.size() < 2) {
            return;
        }
        if (rows.size() <= FEW_ROWS) {
            for (Written deleted : rows) {
                if (!deleted.inserted && !deleted.cancelled) {
                    for (Written inserted : rows) {
                        if (inserted.inserted && !inserted.cancelled && !inserted.becameUpdate
                                && deleted.sameKey(inserted)) {
                            pair(deleted, inserted);
                            break;
                        }
                    }
                }
            }
            return;
        }
        Map<RowKey, Written> inserted = new HashMap<>();
        for (Written row : rows) {
            if (row.inserted && !row.cancelled && row.table.keyed()) {
                inserted.put(RowKey.of(row), row);
            }
        }
        for (Written row : rows) {
            if (!row.inserted && !row.cancelled && row.table.keyed()) {
                Written newRow = inserted.remove(RowKey.of(row));
                if (newRow != null) {
                    pair(row, newRow);
                }
            }
        }
    }

    private static void pair(Written deleted, Written inserted) {
        deleted.newRow = inserted;
        inserted.becameUpdate = true;
    }

    /**
     * A row's table and primary key values, as HSQLDB stores them: its value types compare by value (its binary,
     * date and interval types included), and a key never holds an array.
     */
    private record RowKey(CapturedTable table, Object[] key) {
        static RowKey of(Written row) {
            int[] columns = row.table.matchColumns();
            Object[] key = new Object[columns.length];
            for (int i = 0; i < columns.length; i++) {
                key[i] = row.values[columns[i]];
            }
            return new RowKey(row.table, key);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof RowKey that && table == that.table && Arrays.equals(key, that.key);
        }

        @Override
        public int hashCode() {
            return 31 * table.hashCode() + Arrays.hashCode(key);
        }
    }

    /**
     * The catalog's shape of {@code table}, or null for a table whose rows no slave gets: a temporary table, or one
     * of HSQLDB's own schemas. A table the catalog does not have is refused ({@link TransactionCapture#table}).
     */
    private CapturedTable capturedTable(TableBase table, TransactionCapture capture) throws SQLException {
        if (!(table instanceof Table persistent) || !isPersistent(table.getTableType())) {
            return null;
        }
        HsqlName name = persistent.getName();
        if (HsqldbEngine.isOwnSchema(name.schema.name)) {
            return null;
        }
        return capture.table(tableKey(name));
    }

    /**
     * The catalog's key of the table named {@code name} ("SCHEMA.TABLE"), made once per name and kept while the name
     * holds the same strings: HSQLDB renames a table or a schema by giving its name object a new string.
     */
    private String tableKey(HsqlName name) {
        TableKey known = tableKeys.get(name);
        String schema = name.schema.name;
        if (known == null || known.schema != schema || known.table != name.name) {
            if (tableKeys.size() >= MAX_TABLE_KEYS) {
                tableKeys.clear(); // names of tables dropped since: made again as they are met
            }
            known = new TableKey(schema, name.name, schema + "." + name.name);
            tableKeys.put(name, known);
        }
        return known.key;
    }

    /** A table's key, with the two strings it was made of, compared by identity. */
    private record TableKey(String schema, String table, String key) {
    }

    private final Map<HsqlName, TableKey> tableKeys = new IdentityHashMap<>();
    private static final int MAX_TABLE_KEYS = 256;

    private static boolean isPersistent(int tableType) {
        return tableType == TableBase.MEMORY_TABLE || tableType == TableBase.CACHED_TABLE
                || tableType == TableBase.TEXT_TABLE;
    }
}
