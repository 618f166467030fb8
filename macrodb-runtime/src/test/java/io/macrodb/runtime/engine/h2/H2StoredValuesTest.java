package io.macrodb.runtime.engine.h2;

import io.macrodb.runtime.capture.WriteSet;
import org.h2.value.Value;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.rowset.serial.SerialBlob;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/** A row change is converted into H2's stored values once, and those values are what a slave stores. */
class H2StoredValuesTest {

    @Test
    void everySlaveGetsTheSameConvertedRowAndTheEngineStoresItsValues() throws Exception {
        try (Connection slave = DriverManager.getConnection("jdbc:h2:mem:stored_values_test")) {
            var engine = new H2Engine();
            Object[] captured = {42, "text", new BigDecimal("12.50"), null};
            var change = new WriteSet.RowChange(null, WriteSet.Kind.INSERT, null, captured);
            var conversions = new AtomicInteger();
            WriteSet.StoredValues convert = (row, columns) -> {
                conversions.incrementAndGet();
                return engine.storedValues(slave, row, columns);
            };

            Object[] first = change.storedAfter(convert, WriteSet.ALL_COLUMNS);
            assertSame(first, change.storedAfter(convert, WriteSet.ALL_COLUMNS),
                    "the second slave binds the same objects");
            assertEquals(1, conversions.get());
            assertInstanceOf(Value.class, first[0]);
            assertInstanceOf(Value.class, first[1]);
            assertEquals("text", ((Value) first[1]).getString());
            assertEquals(new BigDecimal("12.50"), ((Value) first[2]).getBigDecimal());
            assertSame(captured, change.after(), "the captured row stays as it was");

            try (var s = slave.createStatement()) {
                s.execute("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10), d DECIMAL(8, 2), n INT)");
            }
            try (var insert = slave.prepareStatement("INSERT INTO t VALUES (?, ?, ?, ?)")) {
                for (int i = 0; i < first.length; i++) {
                    insert.setObject(i + 1, first[i]);
                }
                insert.executeUpdate();
            }
            try (var rows = slave.createStatement().executeQuery("SELECT id, v, d, n FROM t")) {
                rows.next();
                assertEquals(42, rows.getInt(1));
                assertEquals("text", rows.getString(2));
                assertEquals(new BigDecimal("12.50"), rows.getBigDecimal(3));
                assertNull(rows.getObject(4));
            }
        }
    }

    /** An update binds only the columns it changed: the others are not converted (a wide row's long strings). */
    @Test
    void onlyTheColumnsAskedForAreConverted() throws Exception {
        try (Connection slave = DriverManager.getConnection("jdbc:h2:mem:stored_values_columns_test")) {
            Object[] captured = {42, "a long unchanged text", new BigDecimal("1.50")};
            Object[] stored = new H2Engine().storedValues(slave, captured, 0b100);
            assertSame(captured[0], stored[0], "not asked for: left as captured");
            assertSame(captured[1], stored[1]);
            assertInstanceOf(Value.class, stored[2]);
            assertEquals(new BigDecimal("1.50"), ((Value) stored[2]).getBigDecimal());
        }
    }

    @Test
    void aValueThatWouldBeALobOfOneDatabaseStaysAPlainValue() throws Exception {
        try (Connection slave = DriverManager.getConnection("jdbc:h2:mem:stored_values_lob_test")) {
            var blob = new SerialBlob(new byte[] {1, 2, 3});
            Object[] stored = new H2Engine().storedValues(slave, new Object[] {blob, new byte[] {4}},
                    WriteSet.ALL_COLUMNS);
            assertSame(blob, stored[0]);
            assertArrayEquals(new byte[] {4}, ((Value) stored[1]).getBytes());
        }
    }
}
