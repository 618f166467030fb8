package io.macrodb.runtime.capture;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The writes of one update transaction at the master, in the order the engine made them.
 *
 * <p>Statement atomicity and savepoints are handled by cutting the list back: the caller takes a {@link #mark()}
 * before each statement and {@link #cutTo(int)} it when the statement fails (the engine's record then loses the
 * statement's rows too), and a savepoint remembers its mark for a rollback to it.
 */
public final class TransactionCapture {

    private final Function<String, CapturedTable> catalog;
    private final List<WriteSet.Entry> entries = new ArrayList<>();
    private Set<CapturedTable.Name> identityTables = Set.of(); // most transactions insert no identity row
    private boolean usedSequences;
    private boolean mayHaveDrawnIdentities;
    private boolean wroteRows;

    private final List<String> sessionSettings;

    /**
     * @param catalog         the cluster's current table shapes, by table key
     * @param sessionSettings the writer's settings a slave applies the rows under ({@link WriteSet#sessionSettings})
     */
    public TransactionCapture(Function<String, CapturedTable> catalog, List<String> sessionSettings) {
        this.catalog = catalog;
        this.sessionSettings = sessionSettings;
    }

    /**
     * A row read from the engine's own record of the transaction ({@link RowLog}): the arrays are the ones the engine
     * stores, which neither engine changes once a row is stored (an UPDATE stores a new row in a new array: H2's
     * {@code Row} holds immutable {@code Value}s; HSQLDB 2.7.4 writes a row's {@code Object[]} only before storing it,
     * in its INSERT and UPDATE, BEFORE triggers and ALTER TABLE's copy, and reads it after). So they are kept as they
     * are, converted only where a column needs it: slaves apply the master's own arrays, and the capture copies
     * nothing (copying HSQLDB's was 2% of a TPC-C client's allocations).
     *
     * @param masterRow the engine's object for the row in the master's table ({@link WriteSet.RowChange#masterRow}:
     *                  it holds {@code after}, or for a delete {@code before}), or null where slaves cannot store it
     *                  (HSQLDB's); kept only where no column needed converting
     */
    public void storedRowChanged(CapturedTable table, Object[] before, Object[] after, Object masterRow)
            throws SQLException {
        Object[] capturedAfter = table.capture(after);
        Object[] capturedBefore = table.captureOld(before, after, capturedAfter);
        add(table, capturedBefore, capturedAfter,
                capturedBefore == before && capturedAfter == after ? masterRow : null);
    }

    /** The catalog's shape of the table with key {@code tableKey}; a table it does not have cannot be replicated. */
    public CapturedTable table(String tableKey) throws SQLException {
        CapturedTable table = catalog.apply(tableKey);
        if (table == null) {
            throw new SQLException("MacroDB has no capture metadata for table " + tableKey
                    + "; it cannot replicate this write.", io.macrodb.api.MacroSqlState.NOT_REPLICABLE);
        }
        return table;
    }

    private void add(CapturedTable table, Object[] before, Object[] after, Object masterRow) {
        WriteSet.Kind kind = before == null ? WriteSet.Kind.INSERT
                : after == null ? WriteSet.Kind.DELETE : WriteSet.Kind.UPDATE;
        if (kind == WriteSet.Kind.INSERT) {
            notePossibleIdentityDraw(table);
        }
        entries.add(new WriteSet.RowChange(table, kind, before, after, masterRow));
    }

    /**
     * Called after each statement that succeeded, which began at {@code mark}. Both engines check a primary key or
     * unique index at the end of a statement, not at each row: {@code UPDATE t SET k = k + 1} over keys 1, 2, 3 runs,
     * but its rows, replayed one by one on a slave ({@code SET k = 2 WHERE k = 1} while 2 is still there), break the
     * index, and the slave failed. So a statement of several row changes of which an UPDATE moved a unique value is
     * replaced by its net effect: every old row it changed or deleted is deleted first, then every row it left is
     * inserted. The slave passes through no state the master's statement did not allow at its end (its foreign keys
     * are off, and CHECKs look at one row). Other statements keep their rows as they are (an update applies only the
     * columns it changed).
     */
    public void statementEnded(int mark) {
        if (entries.size() - mark < 2 || !movesUniqueValues(mark)) {
            return;
        }
        List<WriteSet.Entry> statement = entries.subList(mark, entries.size());
        List<WriteSet.RowChange> deleted = new ArrayList<>();
        List<WriteSet.RowChange> left = new ArrayList<>(); // rows the statement wrote, still there
        for (WriteSet.Entry entry : statement) {
            WriteSet.RowChange change = (WriteSet.RowChange) entry; // a statement captures rows only
            if (change.kind() != WriteSet.Kind.INSERT) {
                int written = indexOf(left, change.table(), change.before());
                if (written >= 0) {
                    left.remove(written); // a row this statement wrote, changed again (MERGE of one key twice)
                } else {
                    deleted.add(new WriteSet.RowChange(change.table(), WriteSet.Kind.DELETE, change.before(), null));
                }
            }
            if (change.kind() != WriteSet.Kind.DELETE) {
                left.add(new WriteSet.RowChange(change.table(), WriteSet.Kind.INSERT, null, change.after(),
                        change.masterRow()));
            }
        }
        statement.clear();
        entries.addAll(deleted);
        entries.addAll(left);
    }

    private boolean movesUniqueValues(int mark) {
        for (WriteSet.Entry entry : entries.subList(mark, entries.size())) {
            if (entry instanceof WriteSet.RowChange change && change.kind() == WriteSet.Kind.UPDATE
                    && change.table().changesUniqueColumns(change.before(), change.after())) {
                return true;
            }
        }
        return false;
    }

    /**
     * The row of {@code table} among {@code rows} equal to {@code row} in every column (exactly: BigDecimal's scale,
     * -0.0, array contents). Two rows equal in every column are interchangeable: either one gives the same contents.
     */
    private static int indexOf(List<WriteSet.RowChange> rows, CapturedTable table, Object[] row) {
        for (int i = 0; i < rows.size(); i++) {
            WriteSet.RowChange candidate = rows.get(i);
            if (candidate.table() == table && java.util.Arrays.deepEquals(candidate.after(), row)) {
                return i;
            }
        }
        return -1;
    }

    /** Notes that a statement of this transaction used a sequence, whose state must then reach the slaves. */
    public void usedSequences() {
        usedSequences = true;
    }

    /**
     * Called after each {@code INSERT}, {@code MERGE}, {@code REPLACE} or {@code UPSERT} statement (succeeded or
     * failed, its rows cut), which began at {@code mark}. Such a statement draws identity values for the rows it means
     * to insert even when it inserts none: it failed on a duplicate key, or updated the existing row instead (an
     * upsert), or ignored it. Its identity counter must then reach the slaves, which see no inserted row. A statement
     * changes rows of one table: if it changed any, that is the table; if none, which table it drew from is unknown.
     */
    public void insertStatementEnded(int mark) {
        if (entries.size() <= mark) { // none left (or all cut: the engine rolled the transaction back)
            mayHaveDrawnIdentities = true;
            return;
        }
        for (WriteSet.Entry entry : entries.subList(mark, entries.size())) {
            if (entry instanceof WriteSet.RowChange change) {
                notePossibleIdentityDraw(change.table());
            }
        }
    }

    private void notePossibleIdentityDraw(CapturedTable table) {
        if (table.identityColumn() >= 0 && !identityTables.contains(table.name())) {
            Set<CapturedTable.Name> grown = new LinkedHashSet<>(identityTables);
            grown.add(table.name());
            identityTables = grown;
        }
    }

    /**
     * Notes that a statement of this transaction wrote rows (or meant to): a column default may have drawn from a
     * sequence that the statement's text does not name.
     */
    public void wroteRows() {
        wroteRows = true;
    }

    /** Whether a statement of this transaction wrote rows (or meant to), see {@link #wroteRows()}. */
    public boolean hasWrittenRows() {
        return wroteRows;
    }

    /** Whether an insert of this transaction may have drawn from an identity column of a table not known. */
    public boolean mayHaveDrawnIdentities() {
        return mayHaveDrawnIdentities;
    }

    public boolean usesSequences() {
        return usedSequences;
    }

    public Set<CapturedTable.Name> identityTables() {
        return identityTables;
    }

    public int mark() {
        return entries.size();
    }

    /** Drops the entries after {@code mark}; a mark past the end (set before the capture was cut to 0) drops none. */
    public void cutTo(int mark) {
        if (mark < entries.size()) {
            entries.subList(mark, entries.size()).clear();
        }
    }

    /** Whether this transaction changed no row (the counters it may have moved aside). */
    public boolean isEmpty() {
        return entries.isEmpty();
    }

    /**
     * The captured entries followed by {@code counters} (may be null), stamped with {@code version}. The list is
     * handed over, not copied: a capture is sealed once, at the end of its transaction, and not used afterwards.
     */
    public WriteSet seal(long version, WriteSet.CounterState counters) {
        if (counters != null) {
            entries.add(counters);
        }
        return new WriteSet(version, java.util.Collections.unmodifiableList(entries), sessionSettings);
    }
}
