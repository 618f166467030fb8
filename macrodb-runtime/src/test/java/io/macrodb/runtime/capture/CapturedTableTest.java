package io.macrodb.runtime.capture;

import org.junit.jupiter.api.Test;

import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

class CapturedTableTest {

    /** Converts a column's engine value ("t1") to what slaves bind ("T1"), counting what it converts. */
    private final List<Object> converted = new ArrayList<>();
    private final CapturedTable table = new CapturedTable(new CapturedTable.Name("PUBLIC", "T"),
            List.of(new CapturedTable.Column("ID", Types.INTEGER, "INTEGER"),
                    new CapturedTable.Column("A", Types.TIMESTAMP, "TIMESTAMP"),
                    new CapturedTable.Column("B", Types.TIMESTAMP, "TIMESTAMP")),
            new int[] {0}, -1, false, new ValueConverter[] {null, this::convert, this::convert},
            new KeylessMatch("", ""), 1);

    private Object convert(Object engineValue) {
        converted.add(engineValue);
        return ((String) engineValue).toUpperCase();
    }

    @Test
    void anUpdatesOldRowTakesTheConvertedValuesOfTheColumnsItKept() throws Exception {
        String kept = new String("a1");
        Object[] before = {1, kept, "b1"};
        Object[] after = {1, kept, "b2"};
        Object[] capturedAfter = table.capture(after);
        Object[] capturedBefore = table.captureOld(before, after, capturedAfter);

        assertArrayEquals(new Object[] {1, "A1", "B1"}, capturedBefore);
        assertArrayEquals(new Object[] {1, "A1", "B2"}, capturedAfter);
        assertSame(capturedAfter[1], capturedBefore[1], "the kept column was converted once");
        assertEquals(List.of("a1", "b2", "b1"), converted);
    }

    @Test
    void anEqualValueThatIsNotTheSameObjectIsConvertedOnItsOwn() throws Exception {
        Object[] after = {1, new String("a1"), "b1"};
        Object[] capturedAfter = table.capture(after);
        assertArrayEquals(new Object[] {1, "A1", "B1"},
                table.captureOld(new Object[] {1, new String("a1"), new String("b1")}, after, capturedAfter));
        assertEquals(4, converted.size(), "only the very same value is taken: " + converted);
    }

    @Test
    void aDeletesOldRowIsConvertedWhole() throws Exception {
        assertArrayEquals(new Object[] {1, "A1", null}, table.captureOld(new Object[] {1, "a1", null}, null, null));
        assertEquals(List.of("a1"), converted);
    }
}
