package io.macrodb.runtime.engine.h2;

import org.h2.mvstore.Cursor;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.RootReference;
import org.h2.mvstore.tx.Transaction;
import org.h2.mvstore.tx.TransactionStore;
import org.h2.value.VersionedValue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.sql.SQLException;

/**
 * Reads an H2 transaction's undo log: the record H2's MVStore keeps of every change the transaction made to a map (a
 * table's rows, an index's entries), in order, with the value it replaced, to roll the transaction back. A statement
 * that fails and a rollback to a savepoint take their records out again as they undo them.
 *
 * <p>H2 keeps the log in {@code TransactionStore.undoLogs}, one map per open transaction, keyed by the transaction's
 * id and a log id that counts its changes ({@code Transaction.setSavepoint()} gives the next one), its records of the
 * package-private class {@code Record} ({@code mapId}, {@code key}, {@code oldValue}). Both are reached by
 * reflection: {@code Transaction.getChanges}, the public way, looks up every record's map name in the store's
 * metadata, which cost more than the capture triggers it replaces.
 *
 * <p>The log is an append-only map: H2 keeps its newest records (up to a page's worth, 48) in the map's append buffer
 * ({@code MVMap.keysBuffer}, {@code valuesBuffer}, also private) and merges them into the map's pages when the buffer
 * is full, when the transaction commits, or when anyone reads the map through its public API. A statement's records
 * are mostly still in the buffer when it ends, so reading them the public way merged the buffer at every statement:
 * a copy of the map's last page and the path to it each time, about 5% of what a TPC-C transaction allocates on the
 * master. This reads the pages and the buffer as they are instead. Only the session's statements append to its
 * transaction's log, under the session's lock, which the caller holds; a merge by another thread (a file store's
 * background writer) copies the buffer out without changing it, and the pages are immutable, so the root read once
 * is a consistent view. Where the buffer cannot be reached (another layout, or {@code org.h2.mvstore} not opened to
 * MacroDB on the module path), the log is read the public way, merging it first: slower, the same records.
 *
 * <p>Written against H2 2.5.252 (the layout has held since 2.0): re-check it on an H2 upgrade; {@code H2RowLogTest}
 * fails if it no longer reads what a statement wrote, {@code H2UndoLogTest} if it misses records on either side of a
 * merge.
 */
final class H2UndoLog {

    /** One change: the map it was made in, the key, and the value the key had before it (null: none). */
    interface Visitor {
        void change(int mapId, Object key, Object before) throws SQLException;
    }

    private static final int LOG_ID_BITS = 40;
    private static final VarHandle UNDO_LOGS;
    private static final VarHandle MAP_ID;
    private static final VarHandle KEY;
    private static final VarHandle OLD_VALUE;
    /** The log map's append buffer; both null when it cannot be reached (then the log is merged before a read). */
    private static final VarHandle KEYS_BUFFER;
    private static final VarHandle VALUES_BUFFER;
    private static final String UNREACHABLE;

    static {
        VarHandle undoLogs = null;
        VarHandle mapId = null;
        VarHandle key = null;
        VarHandle oldValue = null;
        VarHandle keysBuffer = null;
        VarHandle valuesBuffer = null;
        String unreachable = null;
        try {
            MethodHandles.Lookup store = MethodHandles.privateLookupIn(TransactionStore.class, MethodHandles.lookup());
            undoLogs = store.findVarHandle(TransactionStore.class, "undoLogs", MVMap[].class);
            Class<?> record = Class.forName("org.h2.mvstore.tx.Record", false, TransactionStore.class.getClassLoader());
            MethodHandles.Lookup records = MethodHandles.privateLookupIn(record, MethodHandles.lookup());
            mapId = records.findVarHandle(record, "mapId", int.class);
            key = records.findVarHandle(record, "key", Object.class);
            oldValue = records.findVarHandle(record, "oldValue", VersionedValue.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            unreachable = e.toString();
        }
        try {
            MethodHandles.Lookup maps = MethodHandles.privateLookupIn(MVMap.class, MethodHandles.lookup());
            keysBuffer = maps.findVarHandle(MVMap.class, "keysBuffer", Object[].class);
            valuesBuffer = maps.findVarHandle(MVMap.class, "valuesBuffer", Object[].class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            keysBuffer = null;
            valuesBuffer = null;
        }
        UNDO_LOGS = undoLogs;
        MAP_ID = mapId;
        KEY = key;
        OLD_VALUE = oldValue;
        KEYS_BUFFER = keysBuffer;
        VALUES_BUFFER = valuesBuffer;
        UNREACHABLE = unreachable;
    }

    private H2UndoLog() {
    }

    /**
     * Fails when this H2 does not let MacroDB read its undo log (another layout, or H2 on the module path without
     * its transaction package opened): no write could then be captured, so the cluster must not open.
     */
    static void requireReadable() throws SQLException {
        if (UNREACHABLE != null) {
            throw new SQLException("MacroDB cannot read H2's undo log, from which it captures the rows each transaction "
                    + "writes (" + UNREACHABLE + "). Use H2 2.5.252 on the class path, or open its package to MacroDB: "
                    + "--add-opens com.h2database/org.h2.mvstore.tx=ALL-UNNAMED.",
                    io.macrodb.api.MacroSqlState.NOT_REPLICABLE);
        }
    }

    /**
     * Hands {@code visitor} the changes {@code transaction} made from log id {@code from} up to {@code to}
     * (excluded), in the order it made them. The caller holds the transaction's session lock.
     */
    static void read(TransactionStore store, Transaction transaction, long from, long to, Visitor visitor)
            throws SQLException {
        read(store, transaction, from, to, visitor, KEYS_BUFFER != null);
    }

    /** The same, reading the append buffer as it is, or merging it first ({@code inPlace} false). */
    @SuppressWarnings("unchecked")
    static void read(TransactionStore store, Transaction transaction, long from, long to, Visitor visitor,
                     boolean inPlace) throws SQLException {
        MVMap<Long, Object> log = logs(store)[transaction.getId()];
        long prefix = (long) transaction.getId() << LOG_ID_BITS;
        long first = prefix | from;
        long last = prefix | (to - 1);
        RootReference<Long, Object> root = inPlace ? log.getRoot() : log.flushAndGetRoot();
        // The buffer's records follow the pages' (keys only grow); the counter is not public, the total count is.
        int buffered = (int) (root.getTotalCount() - root.root.getTotalCount());
        Object[] keys = buffered == 0 ? null : (Object[]) KEYS_BUFFER.get(log);
        if (buffered == 0 || (Long) keys[0] > first) {
            Cursor<Long, Object> paged = log.cursor(root, first, last, false);
            while (paged.hasNext()) {
                paged.next();
                visit(paged.getValue(), visitor);
            }
        }
        if (buffered > 0) {
            Object[] values = (Object[]) VALUES_BUFFER.get(log);
            for (int i = 0; i < buffered; i++) {
                long key = (Long) keys[i];
                if (key >= first && key <= last) {
                    visit(values[i], visitor);
                }
            }
        }
    }

    /** Every open transaction's log, by transaction id (null where none is open). */
    @SuppressWarnings("unchecked")
    static MVMap<Long, Object>[] logs(TransactionStore store) {
        return (MVMap<Long, Object>[]) UNDO_LOGS.get(store);
    }

    private static void visit(Object record, Visitor visitor) throws SQLException {
        int mapId = (int) MAP_ID.get(record);
        if (mapId >= 0) {
            VersionedValue<?> old = (VersionedValue<?>) OLD_VALUE.get(record);
            visitor.change(mapId, KEY.get(record), old == null ? null : old.getCurrentValue());
        }
    }
}
