package io.macrodb.runtime.capture;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * What one committed update transaction changed, stamped with the version its commit got. Immutable: the same
 * object is queued for every slave, so the values it carries are shared by all replicas, never copied.
 *
 * @param sessionSettings the writer's session settings a slave must apply its rows under, because a slave computes
 *                        values from them (a computed column or CHECK reading the session's time zone); empty for
 *                        most
 */
public record WriteSet(long version, List<Entry> entries, List<String> sessionSettings) {

    public WriteSet(long version, List<Entry> entries) {
        this(version, entries, List.of());
    }

    /** One change, applied on a slave in the order the master made it. */
    public sealed interface Entry permits RowChange, SchemaChange, CounterState {
    }

    /**
     * A row written at the master, as captured after the engine stored it (from the engine's record of the
     * transaction, {@link io.macrodb.runtime.capture.RowLog}).
     *
     * <p>The new row also exists as the engine stores it ({@link #storedAfter}): made once, by whichever slave's
     * applier gets there first, and bound by every slave, so all slaves keep the same immutable value objects
     * instead of one copy each (H2 wraps every stored value in one).
     */
    public static final class RowChange implements Entry {
        private final CapturedTable table;
        private final Kind kind;
        private final Object[] before;
        private final Object[] after;
        private final Object masterRow;
        private volatile Object[] storedAfter;
        private volatile Object sharedBySlaves;

        public RowChange(CapturedTable table, Kind kind, Object[] before, Object[] after) {
            this(table, kind, before, after, null);
        }

        /** @param masterRow see {@link #masterRow()} */
        public RowChange(CapturedTable table, Kind kind, Object[] before, Object[] after, Object masterRow) {
            this.table = table;
            this.kind = kind;
            this.before = before;
            this.after = after;
            this.masterRow = masterRow;
        }

        public CapturedTable table() {
            return table;
        }

        public Kind kind() {
            return kind;
        }

        /** The row before the change (null for an insert), as captured. */
        public Object[] before() {
            return before;
        }

        /** The row after the change (null for a delete), as captured. */
        public Object[] after() {
            return after;
        }

        /**
         * The engine's own object for the row in the master's table (H2's {@code Row}, with the row's key there): the
         * one that holds {@link #after()}, which a slave may store as it is instead of a row object of its own, or
         * for a delete the one that held {@link #before()}; null where the engine has none to share (HSQLDB, a row
         * the capture converted).
         */
        public Object masterRow() {
            return masterRow;
        }

        /**
         * What the first slave to store {@link #masterRow()} made of it for the other slaves to store too (H2: the
         * row's index entries), or null. The others check it fits their own table before they store it.
         */
        public Object sharedBySlaves() {
            return sharedBySlaves;
        }

        /**
         * Offers {@code made} to the other slaves, unless another slave offered first; returns what is offered now,
         * for this slave to store too. Two appliers that get here at once both make theirs, one is kept, and both
         * store that one. {@code made} is fully built before it is published, and never changed after.
         */
        public Object shareWithSlaves(Object made) {
            Object earlier = SHARED_BY_SLAVES.compareAndExchange(this, null, made);
            return earlier == null ? made : earlier;
        }

        private static final VarHandle SHARED_BY_SLAVES;

        static {
            try {
                SHARED_BY_SLAVES = MethodHandles.lookup().findVarHandle(RowChange.class, "sharedBySlaves",
                        Object.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        /**
         * The row after the change as the engine stores it, converted by {@code toStored} on first use and shared
         * from then on. Two appliers that get here at once may both convert; either result is right, and the
         * array is fully built before the volatile write publishes it.
         *
         * @param columns the columns a slave binds (bit i = column i; {@link #ALL_COLUMNS}): only those are converted,
         *                the others are left as captured. Every slave asks for the same ones, since they follow from
         *                the change itself (an update binds the columns it changed), so the first conversion serves
         *                all. An update of a wide row that changed a few columns then converts only those.
         */
        public Object[] storedAfter(StoredValues toStored, long columns) throws SQLException {
            Object[] stored = storedAfter;
            if (stored == null) {
                stored = toStored.convert(table, after, columns);
                storedAfter = stored;
            }
            return stored;
        }
    }

    /** Every column, as a column mask for {@link RowChange#storedAfter} (also for tables of more than 64 columns). */
    public static final long ALL_COLUMNS = -1L;

    /** Turns a captured row into the value objects an engine stores (see {@link RowChange#storedAfter}). */
    @FunctionalInterface
    public interface StoredValues {
        /** @param columns the columns to convert (bit i = column i; {@link #ALL_COLUMNS}); the rest stay as captured */
        Object[] convert(CapturedTable table, Object[] row, long columns) throws SQLException;
    }

    public enum Kind { INSERT, UPDATE, DELETE }

    /**
     * A DDL (or TRUNCATE) statement, replayed as text in the schema the master ran it in.
     *
     * @param session the writer's session settings ({@code SET ...}) in force when it ran, which can change how the
     *                text reads ({@code SET NON_KEYWORDS}, {@code SET SCHEMA_SEARCH_PATH}); a slave runs them, then
     *                the statement, on a session of its own. Empty for most.
     */
    public record SchemaChange(String schema, String sql, List<String> session) implements Entry {
    }

    /**
     * The master's sequence and identity counters after the transaction, for the counters it may have moved, so a
     * slave (and a slave promoted to master) continues the master's numbering.
     *
     * @param sequences  quoted qualified sequence name to next value
     * @param identities table, as the master's catalog had it at this version, to the identity column's next value.
     *                   The table itself, not its name: a slave applies this after the master's catalog has moved on
     *                   (a rename committed just after it left the slaves' lookup by name empty, and the counter
     *                   unset, now and then)
     */
    public record CounterState(Map<String, Long> sequences, Map<CapturedTable, Long> identities) implements Entry {
    }
}
