package io.macrodb.runtime.capture;

import io.macrodb.api.MacroSqlState;

import java.sql.SQLException;

/**
 * Binds the running thread to the sink that receives its rows, for an engine captured with row triggers (H2; HSQLDB
 * is read from its {@link RowLog}). The engine fires them in the thread that runs the statement, so the statement's
 * caller opens a scope around each statement it sends to the master, and an applier opens an
 * {@link CaptureSink#IGNORE} scope for its whole life.
 *
 * <p>A row written with no scope open is a write that did not come through MacroDB (a second connection opened
 * straight to a replica's database, or a write that reached a slave): the trigger refuses it, so the statement fails
 * and no replica diverges.
 */
public final class CaptureScope {

    private static final ThreadLocal<CaptureSink> CURRENT = new ThreadLocal<>();

    private CaptureScope() {
    }

    /** Opens {@code sink} for this thread and returns the sink it replaces, to hand back to {@link #close}. */
    public static CaptureSink open(CaptureSink sink) {
        CaptureSink previous = CURRENT.get();
        CURRENT.set(sink);
        return previous;
    }

    /** Restores the sink {@link #open} replaced (null: none; kept as a null entry, cheaper than removing it). */
    public static void close(CaptureSink previous) {
        CURRENT.set(previous);
    }

    /** Called by the capture triggers for every row the engine writes. */
    public static void rowChanged(String tableKey, Object[] before, Object[] after) throws SQLException {
        CaptureSink sink = CURRENT.get();
        if (sink == null) {
            throw new SQLException("MacroDB refuses a write to " + tableKey + " that did not come through a MacroDB "
                    + "connection: replicas are written only by MacroDB (update transactions on the master, appliers "
                    + "on slaves). Use the jdbc:macrodb: URL, and setReadOnly(false) for writes.",
                    MacroSqlState.READ_ONLY_TRANSACTION);
        }
        sink.rowChanged(tableKey, before, after);
    }
}
