package io.macrodb.runtime.engine.hsqldb;

import io.macrodb.runtime.capture.CaptureScope;
import io.macrodb.runtime.engine.CaptureTriggers;
import org.hsqldb.HsqlException;
import org.hsqldb.Trigger;
import org.hsqldb.jdbc.JDBCDriver;

import java.sql.SQLException;

/**
 * HSQLDB's row trigger (one per event, created with {@code QUEUE 0} so it fires synchronously in the writer's
 * thread): hands each row to the thread's {@link CaptureScope}. HSQLDB's trigger may not throw a checked exception,
 * so a refusal travels as an {@link HsqlException} carrying MacroDB's message and SQLState.
 *
 * <p>Before it calls a Java trigger, HSQLDB puts the session's internal connection in a thread-local of its driver
 * (for {@code jdbc:default:connection}) and, inside a statement, never takes it out again: the writer's thread then
 * keeps the whole database reachable, even after {@code SHUTDOWN} (measured: a shut-down in-memory master stayed on
 * the heap until that thread fired a trigger of another database). The trigger empties it after each row; HSQLDB
 * sets it again before every call, so nothing that needs it goes without.
 */
public final class HsqldbCaptureTrigger implements Trigger {

    /**
     * Read from the trigger's name at its first row (HSQLDB makes one instance per trigger and has no init call), not
     * at every row: the same String each time, whose hash the catalog lookup then need not compute again.
     */
    private String tableKey;

    @Override
    public void fire(int type, String triggerName, String table, Object[] before, Object[] after) {
        String key = tableKey;
        if (key == null) {
            key = CaptureTriggers.tableKey(triggerName);
            tableKey = key; // a race writes the same value
        }
        try {
            // HSQLDB passes the new row as "before" too for some event types; the event decides.
            switch (type) {
                case INSERT_AFTER_ROW -> CaptureScope.rowChanged(key, null, after);
                case DELETE_AFTER_ROW -> CaptureScope.rowChanged(key, before, null);
                default -> CaptureScope.rowChanged(key, before, after);
            }
        } catch (SQLException e) {
            throw new HsqlException(e, e.getMessage(), e.getSQLState(), -1);
        } finally {
            JDBCDriver.driverInstance.threadConnection.set(null);
        }
    }
}
