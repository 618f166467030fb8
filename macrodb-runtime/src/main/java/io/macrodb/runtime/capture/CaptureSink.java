package io.macrodb.runtime.capture;

import java.sql.SQLException;

/** Where a capture trigger hands the rows it sees; which sink is current is the thread's {@link CaptureScope}. */
public interface CaptureSink {

    /**
     * @param tableKey   the catalog key of the table written (from the trigger's name)
     * @param before     the row before the change (null for an insert), as the engine gives it
     * @param after      the row after the change (null for a delete), as the engine gives it
     */
    void rowChanged(String tableKey, Object[] before, Object[] after) throws SQLException;

    /** Takes nothing: an applier replaying a write set, or the engine copying a table inside a DDL statement. */
    CaptureSink IGNORE = (tableKey, before, after) -> {
    };
}
