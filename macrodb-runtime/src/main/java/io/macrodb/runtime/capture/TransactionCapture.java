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
 * before each statement and {@link #cutTo(int)} it when the statement fails (H2 fires triggers for rows written
 * before a multi-row statement fails, then undoes them), and a savepoint remembers its mark for a rollback to it.
 */
public final class TransactionCapture implements CaptureSink {

    private final Function<String, CapturedTable> catalog;
    private final List<WriteSet.Entry> entries = new ArrayList<>();
    private Set<CapturedTable.Name> identityTables = Set.of(); // most transactions insert no identity row
    private boolean usedSequences;
    private boolean mayHaveDrawnIdentities;
    private boolean wroteRows;

    /** @param catalog the cluster's current table shapes, by table key */
    public TransactionCapture(Function<String, CapturedTable> catalog) {
        this.catalog = catalog;
    }

    @Override
    public void rowChanged(String tableKey, Object[] before, Object[] after) throws SQLException {
        CapturedTable table = catalog.apply(tableKey);
        if (table == null) {
            throw new SQLException("MacroDB has no capture metadata for table " + tableKey
                    + "; it cannot replicate this write.", io.macrodb.api.MacroSqlState.NOT_REPLICABLE);
        }
        WriteSet.Kind kind = before == null ? WriteSet.Kind.INSERT
                : after == null ? WriteSet.Kind.DELETE : WriteSet.Kind.UPDATE;
        if (kind == WriteSet.Kind.INSERT) {
            notePossibleIdentityDraw(table);
        }
        entries.add(new WriteSet.RowChange(table, kind, table.capture(before), table.capture(after)));
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
        if (entries.size() == mark) {
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

    public void cutTo(int mark) {
        entries.subList(mark, entries.size()).clear();
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
        return new WriteSet(version, java.util.Collections.unmodifiableList(entries));
    }
}
