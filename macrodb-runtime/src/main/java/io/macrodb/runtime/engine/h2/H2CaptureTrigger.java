package io.macrodb.runtime.engine.h2;

import io.macrodb.runtime.capture.CaptureScope;
import io.macrodb.runtime.engine.CaptureTriggers;
import org.h2.api.Trigger;

import java.sql.Connection;
import java.sql.SQLException;

/** H2's row trigger (AFTER INSERT, UPDATE, DELETE): hands each row to the thread's {@link CaptureScope}. */
public final class H2CaptureTrigger implements Trigger {

    private String tableKey;

    @Override
    public void init(Connection connection, String schema, String triggerName, String table, boolean before,
                     int type) {
        // The table name H2 passes is temporary after ALTER TABLE; the trigger's name is not.
        this.tableKey = CaptureTriggers.tableKey(triggerName);
    }

    @Override
    public void fire(Connection connection, Object[] before, Object[] after) throws SQLException {
        CaptureScope.rowChanged(tableKey, before, after);
    }
}
