package io.macrodb.runtime.engine.h2;

import io.macrodb.runtime.capture.CaptureScope;
import io.macrodb.runtime.engine.CaptureTriggers;
import org.h2.jdbc.JdbcResultSet;
import org.h2.result.ResultInterface;
import org.h2.tools.TriggerAdapter;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * H2's row trigger (AFTER INSERT, UPDATE, DELETE): hands each row to the thread's {@link CaptureScope}.
 *
 * <p>It takes the rows as H2 holds them, arrays of H2's own immutable {@code Value} objects, not as the plain Java
 * values H2's {@code Trigger} interface converts them to. An inserted row's array is the very one the master's
 * table stores, so a slave can store it as it is ({@link H2DirectWriter}): every replica then shares the master's
 * values instead of holding a copy of each, and nothing is converted on the master's commit path.
 */
public final class H2CaptureTrigger extends TriggerAdapter {

    private String tableKey;

    @Override
    public void init(Connection connection, String schema, String triggerName, String table, boolean before,
                     int type) throws SQLException {
        super.init(connection, schema, triggerName, table, before, type);
        // The table name H2 passes is temporary after ALTER TABLE; the trigger's name is not.
        this.tableKey = CaptureTriggers.tableKey(triggerName);
    }

    @Override
    public void fire(Connection connection, ResultSet before, ResultSet after) throws SQLException {
        CaptureScope.rowChanged(tableKey, values(before), values(after));
    }

    /** The row in the result H2 made for the trigger (positioned on it already), or null where there is none. */
    private static Object[] values(ResultSet row) {
        if (row == null) {
            return null;
        }
        ResultInterface result = ((JdbcResultSet) row).getResult();
        return result.getRowCount() == 0 ? null : result.currentRow();
    }
}
