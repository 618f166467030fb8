package io.macrodb.runtime.engine.h2;

import io.macrodb.runtime.capture.CapturedTable;
import org.h2.engine.SessionLocal;
import org.h2.table.Column;
import org.h2.table.Table;
import org.h2.value.Value;
import org.h2.value.ValueLob;
import org.h2.value.ValueToObjectConverter;

import java.util.Arrays;

/**
 * A captured row's values as a slave's H2 stores them ({@link H2Engine#storedValues}, which says why). Apart from
 * {@link H2Engine} so that the engine class names no H2 type where the JVM's verifier must check one against another
 * (a {@code SessionLocal} passed as a {@code Session}): it would load H2 to verify {@link H2Engine}, which the
 * service loader instantiates on every class path, and an application with HSQLDB alone failed to open any MacroDB
 * connection (found 2026-11-27; {@code EngineOnTheClassPathAloneTest}).
 */
final class H2StoredValues {

    private H2StoredValues() {
    }

    static Object[] of(SessionLocal slave, CapturedTable.Name table, Object[] row, long columns) {
        if (row instanceof Value[]) {
            return row;
        }
        Column[] target = columnsOf(slave, table, row.length);
        Object[] values = new Object[row.length];
        boolean allValues = true;
        for (int i = 0; i < row.length; i++) {
            if (i < Long.SIZE && (columns & (1L << i)) == 0) {
                values[i] = row[i]; // not bound: an update binds only the columns it changed
            } else {
                Value value = ValueToObjectConverter.objectToValue(slave, row[i], Value.UNKNOWN);
                if (target != null && !(value instanceof ValueLob)) {
                    // As the column converts it when it stores it (a CHAR column makes a ValueChar of the bound
                    // ValueVarchar): done here once, every slave stores this object as it is, instead of each making
                    // its own (1.4 million per slave for TPC-C's CHAR columns at one warehouse).
                    value = value.convertForAssignTo(target[i].getType(), slave, target[i]);
                }
                // A LOB value belongs to the database that made it: each slave makes its own from the plain value.
                // (Captured rows hold stored values, never a stream that this conversion would use up.)
                values[i] = value instanceof ValueLob ? row[i] : value;
            }
            allValues &= values[i] instanceof Value;
        }
        return allValues ? Arrays.copyOf(values, values.length, Value[].class) : values;
    }

    /**
     * {@code table}'s columns in {@code slave}'s database, or null where they are not the {@code width} columns a
     * captured row holds (the slave then converts as it binds, as before).
     */
    private static Column[] columnsOf(SessionLocal slave, CapturedTable.Name table, int width) {
        Table found = H2Engine.findTable(slave, table.schema(), table.table());
        Column[] columns = found == null ? null : found.getColumns();
        return columns != null && columns.length == width ? columns : null;
    }
}
