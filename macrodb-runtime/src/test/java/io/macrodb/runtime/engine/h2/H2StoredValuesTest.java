package io.macrodb.runtime.engine.h2;

import io.macrodb.runtime.capture.CapturedTable;
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

    private static final CapturedTable.Name T = new CapturedTable.Name("PUBLIC", "T");

    @Test
    void everySlaveGetsTheSameConvertedRowAndTheEngineStoresItsValues() throws Exception {
        try (Connection slave = DriverManager.getConnection("jdbc:h2:mem:stored_values_test")) {
            var engine = new H2Engine();
            try (var s = slave.createStatement()) {
                s.execute("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10), d DECIMAL(8, 2), n INT)");
            }
            Object[] captured = {42, "text", new BigDecimal("12.50"), null};
            var change = new WriteSet.RowChange(null, WriteSet.Kind.INSERT, null, captured);
            var conversions = new AtomicInteger();
            WriteSet.StoredValues convert = (table, row, columns) -> {
                conversions.incrementAndGet();
                return engine.storedValues(slave, T, row, columns);
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
            Object[] stored = new H2Engine().storedValues(slave, T, captured, 0b100);
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
            try (var s = slave.createStatement()) {
                s.execute("CREATE TABLE t (b BLOB, v VARBINARY(4))");
            }
            Object[] stored = new H2Engine().storedValues(slave, T, new Object[] {blob, new byte[] {4}},
                    WriteSet.ALL_COLUMNS);
            assertSame(blob, stored[0]);
            assertArrayEquals(new byte[] {4}, ((Value) stored[1]).getBytes());
        }
    }

    /**
     * A value is converted to its column's type too, as the column would convert it when storing it: a CHAR column
     * makes a ValueChar of a bound string. Done once here, every slave stores that very object (the column's own
     * conversion gives it back unchanged) instead of each making one of its own.
     */
    @Test
    void valuesAreConvertedToTheirColumnsTypesOnce() throws Exception {
        try (Connection slave = DriverManager.getConnection("jdbc:h2:mem:stored_values_char_test")) {
            try (var s = slave.createStatement()) {
                s.execute("CREATE TABLE t (id INT PRIMARY KEY, code CHAR(4), amount DECIMAL(8, 2))");
            }
            var session = (org.h2.engine.SessionLocal) slave.unwrap(org.h2.jdbc.JdbcConnection.class).getSession();
            var columns = session.getDatabase().findSchema("PUBLIC").findTableOrView(session, "T").getColumns();
            Object[] stored = new H2Engine().storedValues(slave, T, new Object[] {7, "ab", new BigDecimal("3.5")},
                    WriteSet.ALL_COLUMNS);
            assertInstanceOf(org.h2.value.ValueChar.class, stored[1]);
            assertEquals(new BigDecimal("3.50"), ((Value) stored[2]).getBigDecimal(), "the column's scale");
            for (int i = 0; i < stored.length; i++) {
                Value value = (Value) stored[i];
                assertSame(value, value.convertForAssignTo(columns[i].getType(), session, columns[i]),
                        "the slave's column keeps the object as it is: " + columns[i].getName());
            }
        }
    }
}
