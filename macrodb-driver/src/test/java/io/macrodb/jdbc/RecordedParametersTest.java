package io.macrodb.jdbc;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every recorded parameter is set again through the setter the application called, with its value. */
class RecordedParametersTest {

    @Test
    void eachSetterIsReplayedAsCalled() throws Exception {
        RecordedParameters recorded = new RecordedParameters(16);
        Timestamp time = Timestamp.valueOf("2020-01-02 03:04:05.123456789");
        Binding date = (s, i) -> s.setDate(i, java.sql.Date.valueOf("2020-01-02"));
        recorded.setNull(1, Types.VARCHAR);
        recorded.setBoolean(2, true);
        recorded.setByte(3, (byte) -7);
        recorded.setShort(4, (short) -300);
        recorded.setInt(5, Integer.MIN_VALUE);
        recorded.setLong(6, Long.MAX_VALUE);
        recorded.setFloat(7, -0.1f);
        recorded.setDouble(8, Double.MIN_VALUE);
        recorded.setBigDecimal(9, new BigDecimal("12.50"));
        recorded.setString(10, "text");
        recorded.setTimestamp(11, time);
        recorded.setObject(12, 42L);
        recorded.set(13, date);
        recorded.setString(14, null);
        recorded.setBoolean(15, false);
        recorded.setFloat(16, Float.NaN);

        assertEquals(List.of("setNull 1 12", "setBoolean 2 true", "setByte 3 -7", "setShort 4 -300",
                "setInt 5 -2147483648", "setLong 6 9223372036854775807", "setFloat 7 -0.1", "setDouble 8 4.9E-324",
                "setBigDecimal 9 12.50", "setString 10 text", "setTimestamp 11 2020-01-02 03:04:05.123456789",
                "setObject 12 42", "setDate 13 2020-01-02", "setString 14 null", "setBoolean 15 false",
                "setFloat 16 NaN"), calls(recorded));
        assertEquals(calls(recorded), calls(recorded), "binding again binds the same");
    }

    @Test
    void aCopyKeepsItsValuesWhenTheRecordedOnesChange() throws Exception {
        RecordedParameters recorded = new RecordedParameters(3);
        recorded.setInt(1, 1);
        recorded.setString(2, "one");
        RecordedParameters row = recorded.copy();
        recorded.setInt(1, 2);
        recorded.setNull(2, Types.VARCHAR);
        recorded.setLong(3, 3);

        assertEquals(List.of("setInt 1 1", "setString 2 one"), calls(row));
        assertEquals(List.of("setInt 1 2", "setNull 2 12", "setLong 3 3"), calls(recorded));
    }

    @Test
    void clearingUnsetsEveryParameterOfAStatementOfManyParameters() throws Exception {
        RecordedParameters recorded = new RecordedParameters(40);
        recorded.setInt(40, 40);
        recorded.setString(3, "three");
        assertTrue(recorded.isSet(40));
        assertFalse(recorded.isSet(39));
        assertFalse(recorded.isSet(400));
        assertEquals(List.of("setString 3 three", "setInt 40 40"), calls(recorded));

        recorded.clear();
        assertFalse(recorded.isSet(3));
        assertFalse(recorded.isSet(40));
        assertEquals(List.of(), calls(recorded));
        recorded.setInt(2, 2);
        assertEquals(List.of("setInt 2 2"), calls(recorded));
    }

    /** The setter calls {@link RecordedParameters#bindTo} makes, as "name index value". */
    private static List<String> calls(RecordedParameters recorded) throws Exception {
        List<String> calls = new ArrayList<>();
        PreparedStatement statement = (PreparedStatement) Proxy.newProxyInstance(RecordedParametersTest.class.getClassLoader(),
                new Class<?>[] {PreparedStatement.class}, (proxy, method, args) -> {
                    calls.add(method.getName() + " " + String.join(" ",
                            Arrays.stream(args).map(String::valueOf).toList()));
                    return null;
                });
        recorded.bindTo(statement);
        return calls;
    }
}
