package io.macrodb.runtime.engine.h2;

import io.macrodb.runtime.capture.WriteSet;
import org.h2.api.ErrorCode;
import org.h2.engine.SessionLocal;
import org.h2.index.Index;
import org.h2.message.DbException;
import org.h2.mvstore.db.MVSecondaryIndex;
import org.h2.mvstore.db.MVTable;
import org.h2.mvstore.tx.Transaction;
import org.h2.result.Row;
import org.h2.result.SearchRow;
import org.h2.table.Column;
import org.h2.value.ValueNull;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;

/**
 * Adds the master's row object to a slave's table ({@link H2DirectWriter}), with index entries the slaves share.
 *
 * <p>Why: H2's {@code addRow} makes each secondary index an entry of its own for the row (a {@code Sparse} row with an
 * array of the indexed values and the row's key). With row objects shared, those entries were most of what a slave
 * still held alone (TPC-C at one warehouse: 0.53 million, about 38 MB a slave; its composite primary keys are
 * secondary indexes in H2). So the first slave to store a change's row makes the entries as H2 does and leaves them
 * on the change ({@link WriteSet.RowChange#shareWithSlaves}), and every slave stores those objects. An entry
 * holds nothing of one database's own: the row's key, which every replica gives the row alike ({@link
 * H2DirectWriter}), and the row's values, which they share. H2 never changes an entry it stores (its B-tree's order
 * rests on it). A slave takes an offered entry only where it holds, for each of its index's columns, the very value
 * of the row, and the row's key: else (another index at that place, after a schema change) it makes its own.
 *
 * <p>What {@code MVTable.addRow} does besides is done the same way here: each other kind of index (the primary one,
 * with its duplicate check) adds the row through its own {@code add}, a failure undoes the row's writes, the table is
 * registered as updated and counted towards its next automatic ANALYZE (a private method, reached by reflection;
 * where it is not reachable, {@code addRow} adds the row and the slave makes its own entries). Left out: a unique
 * index's check for another row with the same values, which the master made before it committed. A slave that
 * stored such a row would already differ from the master, which {@code verify()} reports.
 */
final class H2SharedRowInsert {

    /** {@code MVTable.analyzeIfRequired(SessionLocal)}, or null where this H2 does not let MacroDB call it. */
    private static final MethodHandle ANALYZE_IF_REQUIRED = analyzeIfRequired();

    private H2SharedRowInsert() {
    }

    /**
     * Adds {@code row}, the master's, whose key is set, to the slave's {@code table} in the current statement of
     * {@code session}'s transaction, which holds the table's write lock; false, having added nothing, where the
     * slave's table holds another row with that key.
     */
    static boolean add(SessionLocal session, MVTable table, Row row, WriteSet.RowChange change) {
        if (ANALYZE_IF_REQUIRED == null) {
            return addRow(session, table, row);
        }
        return write(session, table, row, entries(change, table.getIndexes(), row));
    }

    /**
     * Adds {@code row}, a copy source's, whose key is set, to a new slave's {@code table} ({@link H2StoredRowsCopy}),
     * with the index entries the source stores for it: {@code sources} holds, at the place of each of the table's
     * indexes, the source's index of the same name, or null. The caller holds the table's write lock.
     */
    static void addCopied(SessionLocal session, MVTable table, Row row, Index[] sources) {
        boolean added = ANALYZE_IF_REQUIRED == null ? addRow(session, table, row)
                : write(session, table, row, storedEntries(sources, row));
        if (!added) {
            throw DbException.get(ErrorCode.DUPLICATE_KEY_1, "row key " + row.getKey() + " copied twice");
        }
    }

    /** The copy source's index of the same name for each of {@code table}'s indexes, or null, at its place. */
    static Index[] sourceIndexes(MVTable table, MVTable source) {
        List<Index> indexes = table.getIndexes();
        Index[] sources = new Index[indexes.size()];
        for (int i = 0; i < sources.length; i++) {
            for (Index candidate : source.getIndexes()) {
                if (candidate instanceof MVSecondaryIndex && candidate.getName().equals(indexes.get(i).getName())) {
                    sources[i] = candidate;
                }
            }
        }
        return sources;
    }

    private static boolean write(SessionLocal session, MVTable table, Row row, SearchRow[] shared) {
        List<Index> indexes = table.getIndexes();
        Transaction transaction = session.getTransaction();
        long savepoint = transaction.setSavepoint();
        try {
            for (int i = 0; i < indexes.size(); i++) {
                Index index = indexes.get(i);
                if (index instanceof MVSecondaryIndex secondary) {
                    SearchRow entry = fits(shared[i], secondary, row) ? shared[i] : entry(secondary, row);
                    transaction.openMapX(secondary.getMVMap()).put(entry, ValueNull.INSTANCE);
                } else {
                    index.add(session, row);
                }
            }
        } catch (Throwable e) {
            try {
                transaction.rollbackToSavepoint(savepoint);
            } catch (Throwable undo) {
                e.addSuppressed(undo);
            }
            if (keyTaken(e)) {
                return false;
            }
            throw DbException.convert(e);
        }
        session.registerTableAsUpdated(table);
        try {
            ANALYZE_IF_REQUIRED.invokeExact(table, session);
        } catch (Throwable e) {
            throw DbException.convert(e);
        }
        return true;
    }

    /** H2's own {@code addRow}, which makes the slave's own index entries. */
    private static boolean addRow(SessionLocal session, MVTable table, Row row) {
        try {
            table.addRow(session, row);
            return true;
        } catch (DbException e) {
            if (keyTaken(e)) {
                return false;
            }
            throw e;
        }
    }

    /**
     * The row's entries, one per index of the table at the index's place (null for an index of another kind): those
     * another slave offered, or those this slave makes and offers, or those another slave offered meanwhile.
     */
    private static SearchRow[] entries(WriteSet.RowChange change, List<Index> indexes, Row row) {
        if (change.sharedBySlaves() instanceof SearchRow[] offered && offered.length == indexes.size()) {
            return offered;
        }
        SearchRow[] made = new SearchRow[indexes.size()];
        boolean any = false;
        for (int i = 0; i < made.length; i++) {
            if (indexes.get(i) instanceof MVSecondaryIndex secondary) {
                made[i] = entry(secondary, row);
                any = true;
            }
        }
        if (!any) {
            return made; // a table without secondary indexes: nothing to offer
        }
        return change.shareWithSlaves(made) instanceof SearchRow[] shared && shared.length == made.length ? shared
                : made;
    }

    /** For each of {@code sources}, the entry it stores for {@code row}, or null where it has none. */
    private static SearchRow[] storedEntries(Index[] sources, Row row) {
        SearchRow[] stored = new SearchRow[sources.length];
        for (int i = 0; i < sources.length; i++) {
            if (sources[i] instanceof MVSecondaryIndex source) {
                SearchRow entry = entry(source, row);
                SearchRow found = source.getMVMap().ceilingKey(entry); // the stored one, equal to it if there
                stored[i] = found != null && source.getRowFactory().getRowDataType().compare(found, entry) == 0
                        ? found : null;
            }
        }
        return stored;
    }

    /** The entry {@code index} makes for {@code row}, as {@code MVSecondaryIndex.add} does. */
    private static SearchRow entry(MVSecondaryIndex index, Row row) {
        SearchRow entry = index.getRowFactory().createRow();
        entry.copyFrom(row);
        return entry;
    }

    /** Whether {@code entry} holds {@code row}'s key and, for each column {@code index} orders by, its very value. */
    private static boolean fits(SearchRow entry, MVSecondaryIndex index, Row row) {
        if (entry == null || entry.getKey() != row.getKey() || entry.getColumnCount() != row.getColumnCount()) {
            return false;
        }
        for (Column column : index.getColumns()) {
            if (entry.getValue(column.getColumnId()) != row.getValue(column.getColumnId())) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the primary index refused the row for its key: the slave's keys differ from the master's there (a table
     * once applied through SQL), or, where the key is the primary key's value, a duplicate.
     */
    private static boolean keyTaken(Throwable e) {
        return e instanceof DbException db && (db.getErrorCode() == ErrorCode.DUPLICATE_KEY_1
                || db.getErrorCode() == ErrorCode.CONCURRENT_UPDATE_1);
    }

    private static MethodHandle analyzeIfRequired() {
        try {
            return MethodHandles.privateLookupIn(MVTable.class, MethodHandles.lookup()).findVirtual(MVTable.class,
                    "analyzeIfRequired", MethodType.methodType(void.class, SessionLocal.class));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
