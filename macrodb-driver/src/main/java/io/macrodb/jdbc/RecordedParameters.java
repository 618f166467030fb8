package io.macrodb.jdbc;

import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.Arrays;

/**
 * The parameters the application set on a prepared statement, recorded to be bound at each execution to the engine
 * statement of whichever replica runs it, through the setter the application called (so the engine converts each
 * value exactly as it would have). Indexes count from 1, as in JDBC.
 *
 * <p>The setters applications call most keep their value in a slot of its kind, no object per call; any other is kept
 * as a {@link Binding}. A TPC-C New-Order sets over a hundred parameters, and a binding object for each setter call
 * was 4% of what a client thread allocated on HSQLDB, 1% on H2 (JFR, {@code replicas=1}, 2026-11-29).
 */
final class RecordedParameters {

    /** What a slot holds: which setter to call, and where its value is (null: not set). */
    private enum Kind {
        NULL, BOOLEAN, BYTE, SHORT, INT, LONG, FLOAT, DOUBLE, BIG_DECIMAL, STRING, TIMESTAMP, OBJECT, BINDING
    }

    private final Kind[] kinds;
    /** The primitive setters' values (a float or double as its bits), and setNull's SQL type. */
    private final long[] numbers;
    /** The object setters' values: the value itself, or the {@link Binding} for {@link Kind#BINDING}. */
    private final Object[] objects;

    /**
     * @param parameters how many parameters the statement has: every index given later is from 1 to this (its
     *                   caller refuses any other), so the slots never grow, and binding looks at these only
     */
    RecordedParameters(int parameters) {
        this(new Kind[parameters + 1], new long[parameters + 1], new Object[parameters + 1]);
    }

    private RecordedParameters(Kind[] kinds, long[] numbers, Object[] objects) {
        this.kinds = kinds;
        this.numbers = numbers;
        this.objects = objects;
    }

    /** A copy that setting this one's parameters later leaves as it is: a batch row. */
    RecordedParameters copy() {
        return new RecordedParameters(kinds.clone(), numbers.clone(), objects.clone());
    }

    boolean isSet(int index) {
        return index < kinds.length && kinds[index] != null;
    }

    void clear() {
        Arrays.fill(kinds, null);
        Arrays.fill(objects, null);
    }

    void setNull(int index, int sqlType) {
        number(index, Kind.NULL, sqlType);
    }

    void setBoolean(int index, boolean value) {
        number(index, Kind.BOOLEAN, value ? 1 : 0);
    }

    void setByte(int index, byte value) {
        number(index, Kind.BYTE, value);
    }

    void setShort(int index, short value) {
        number(index, Kind.SHORT, value);
    }

    void setInt(int index, int value) {
        number(index, Kind.INT, value);
    }

    void setLong(int index, long value) {
        number(index, Kind.LONG, value);
    }

    void setFloat(int index, float value) {
        number(index, Kind.FLOAT, Float.floatToRawIntBits(value));
    }

    void setDouble(int index, double value) {
        number(index, Kind.DOUBLE, Double.doubleToRawLongBits(value));
    }

    void setBigDecimal(int index, BigDecimal value) {
        object(index, Kind.BIG_DECIMAL, value);
    }

    void setString(int index, String value) {
        object(index, Kind.STRING, value);
    }

    /** @param value a copy of the caller's, which may change it after the setter ({@link ParameterValues}) */
    void setTimestamp(int index, Timestamp value) {
        object(index, Kind.TIMESTAMP, value);
    }

    /** @param value what {@link ParameterValues#copyObject} made of the caller's */
    void setObject(int index, Object value) {
        object(index, Kind.OBJECT, value);
    }

    void set(int index, Binding binding) {
        object(index, Kind.BINDING, binding);
    }

    /** Sets every recorded parameter on {@code statement}, with the setter the application called. */
    void bindTo(PreparedStatement statement) throws SQLException {
        for (int i = 1; i < kinds.length; i++) {
            Kind kind = kinds[i];
            if (kind == null) {
                continue;
            }
            switch (kind) {
                case NULL -> statement.setNull(i, (int) numbers[i]);
                case BOOLEAN -> statement.setBoolean(i, numbers[i] != 0);
                case BYTE -> statement.setByte(i, (byte) numbers[i]);
                case SHORT -> statement.setShort(i, (short) numbers[i]);
                case INT -> statement.setInt(i, (int) numbers[i]);
                case LONG -> statement.setLong(i, numbers[i]);
                case FLOAT -> statement.setFloat(i, Float.intBitsToFloat((int) numbers[i]));
                case DOUBLE -> statement.setDouble(i, Double.longBitsToDouble(numbers[i]));
                case BIG_DECIMAL -> statement.setBigDecimal(i, (BigDecimal) objects[i]);
                case STRING -> statement.setString(i, (String) objects[i]);
                case TIMESTAMP -> statement.setTimestamp(i, (Timestamp) objects[i]);
                case OBJECT -> statement.setObject(i, ParameterValues.fresh(objects[i]));
                case BINDING -> ((Binding) objects[i]).bind(statement, i);
            }
        }
    }

    private void number(int index, Kind kind, long value) {
        kinds[index] = kind;
        numbers[index] = value;
        objects[index] = null;
    }

    private void object(int index, Kind kind, Object value) {
        kinds[index] = kind;
        objects[index] = value;
    }
}
