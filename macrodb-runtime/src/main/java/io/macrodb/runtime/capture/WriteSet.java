package io.macrodb.runtime.capture;

import java.util.List;
import java.util.Map;

/**
 * What one committed update transaction changed, stamped with the version its commit got. Immutable: the same
 * object is queued for every slave, so the values it carries are shared by all replicas, never copied.
 */
public record WriteSet(long version, List<Entry> entries) {

    /** One change, applied on a slave in the order the master made it. */
    public sealed interface Entry permits RowChange, SchemaChange, CounterState {
    }

    /** A row written at the master, as captured by the capture trigger after the engine stored it. */
    public record RowChange(CapturedTable table, Kind kind, Object[] before, Object[] after) implements Entry {
    }

    public enum Kind { INSERT, UPDATE, DELETE }

    /** A DDL (or TRUNCATE) statement, replayed as text in the schema the master ran it in. */
    public record SchemaChange(String schema, String sql) implements Entry {
    }

    /**
     * The master's sequence and identity counters after the transaction, for the counters it may have moved, so a
     * slave (and a slave promoted to master) continues the master's numbering.
     *
     * @param sequences quoted qualified sequence name to next value
     * @param identities table key to the identity column's next value
     */
    public record CounterState(Map<String, Long> sequences, Map<String, Long> identities) implements Entry {
    }
}
