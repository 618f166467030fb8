package io.macrodb.e2e;

import io.macrodb.api.MacroCluster;
import io.macrodb.api.MacroSqlState;
import io.macrodb.api.ReplicaResult;
import io.macrodb.api.ReplicaRole;
import io.macrodb.api.VerificationReport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayInputStream;
import java.io.Serializable;
import java.io.StringReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.Period;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.UUID;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every column type an application would use, on each engine: edge values written through the setter of their
 * natural Java type and through SQL literals, updated to other edge values, to NULL and back, and deleted; then every
 * replica must hold exactly the master's values. Exactness is proved twice: by {@code verify()}, and independently by
 * reading every column on every replica with {@code getString} and {@code getObject} (doubles compared by their bit
 * patterns, so -0.0 and NaN count); and again after a slave is rebuilt, since its copy reads and binds every value
 * anew. The other tests: values a slave could not store exactly are refused cleanly; a table without a key changes
 * the exact row among look-alikes; and {@code verify()} itself tells apart values that look alike (same instant,
 * other offset; -0.0 and 0.0; a trailing blank; letter case; a nanosecond; a bit string's length; 2 BC and AD 2).
 *
 * <p>Left out, because the engine has no such type: DECFLOAT, ENUM, JSON, GEOMETRY and JAVA_OBJECT on HSQLDB (its
 * OTHER is tested as refused), BIT(n)/BIT VARYING on H2 (its BIT is BOOLEAN), negative years and 1582-10-05..14
 * literals on HSQLDB (its parser refuses them), INTERVAL arrays on HSQLDB. H2 normalizes -0.0 to 0.0 and DECFLOAT's
 * 1.10 to 1.1 itself, so those edges are exercised there but cannot differ.
 */
class ColumnTypesTest {

    private static final int REPLICAS = 3;

    /** A serializable application object, for JAVA_OBJECT (H2) and OTHER (HSQLDB). */
    record Point(int x, int y) implements Serializable {
    }

    /** An array value, bound with {@code setArray(connection.createArrayOf(type, elements))}. */
    record Arr(String type, Object... elements) {
    }

    /** A CLOB value bound as a character stream. */
    record Chars(String text) {
    }

    /** A BLOB value bound as a binary stream. */
    record Bytes(byte[] bytes) {
    }

    /**
     * One table of one type family: its column types; at least 3 rows bound through setters (null for NULL); at least
     * 2 rows of SQL literals. {@link #exercise} adds an all-NULL row of its own.
     */
    record Family(String table, List<String> types, List<Object[]> bound, List<String[]> literals) {
        Family {
            for (Object[] row : bound) {
                assertEquals(types.size(), row.length, table);
            }
            for (String[] row : literals) {
                assertEquals(types.size(), row.length, table);
            }
        }

        int width() {
            return types.size();
        }

        String columnList() {
            StringJoiner columns = new StringJoiner(", ");
            for (int i = 1; i <= width(); i++) {
                columns.add("c" + i);
            }
            return columns.toString();
        }
    }

    private static Object[] row(Object... values) {
        return values;
    }

    private static String[] sql(String... literals) {
        return literals;
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] allByteValues() {
        byte[] bytes = new byte[256];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) i;
        }
        return bytes;
    }

    // ------------------------------------------------------------------------------------------------------------
    // The type families

    private static List<Family> families(Engine engine) {
        boolean h2 = engine == Engine.H2;
        String dbl = h2 ? "DOUBLE PRECISION" : "DOUBLE";
        List<Family> families = new ArrayList<>();

        families.add(new Family("integers", List.of("TINYINT", "SMALLINT", "INTEGER", "BIGINT"),
                List.of(row(Byte.MIN_VALUE, Short.MIN_VALUE, Integer.MIN_VALUE, Long.MIN_VALUE),
                        row(Byte.MAX_VALUE, Short.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE),
                        row((byte) 0, (short) -1, 0, -1L)),
                List.of(sql("-128", "-32768", "-2147483648", "-9223372036854775808"),
                        sql("127", "32767", "2147483647", "9223372036854775807"),
                        sql("0", "1", "-1", "0"))));

        // Scale matters: 1.10 and 1.1 are different values to an application (and to BigDecimal.equals); a fixed
        // scale stores both as 1.10, which every replica must then hold too. DECIMAL(38,10) at full precision.
        List<String> decimalTypes = new ArrayList<>(List.of("DECIMAL(38,10)", "NUMERIC(5,2)", "DECIMAL(20,0)"));
        List<Object[]> decimals = new ArrayList<>(List.of(
                row(new BigDecimal("9999999999999999999999999999.9999999999"), new BigDecimal("1.10"),
                        new BigDecimal("99999999999999999999")),
                row(new BigDecimal("-0.0000000001"), new BigDecimal("1.1"), new BigDecimal("-99999999999999999999")),
                row(new BigDecimal("-0.00"), new BigDecimal("-999.99"), BigDecimal.ZERO),
                row(new BigDecimal("1E-11"), new BigDecimal("0.005"), new BigDecimal("1E+5"))));
        List<String[]> decimalLiterals = new ArrayList<>(List.of(
                sql("-9999999999999999999999999999.9999999999", "1.1", "0"),
                sql("0.00000000005", "-0.01", "12345678901234567890"),
                sql("1.10", "999.99", "-1")));
        if (h2) { // DECFLOAT keeps any precision and no fixed scale (H2 strips trailing zeros itself)
            decimalTypes.add("DECFLOAT");
            List<BigDecimal> decfloats = List.of(new BigDecimal("1.10"), new BigDecimal("-1E-100"),
                    new BigDecimal("123456789012345678901234567890.123456789"), new BigDecimal("1E+100"));
            List<String> decfloatLiterals = List.of("1.10", "-1E+100", "0.000");
            for (int r = 0; r < decimals.size(); r++) {
                decimals.set(r, append(decimals.get(r), decfloats.get(r)));
            }
            for (int r = 0; r < decimalLiterals.size(); r++) {
                decimalLiterals.set(r, append(decimalLiterals.get(r), decfloatLiterals.get(r)));
            }
        }
        families.add(new Family("decimals", decimalTypes, decimals, decimalLiterals));

        // -0.0 vs 0.0 and NaN are where a value compared with == or equals() goes wrong; MIN_VALUE is subnormal.
        families.add(new Family("floats", List.of("REAL", dbl, "FLOAT"),
                List.of(row(-0.0f, -0.0d, 0.0d),
                        row(Float.NaN, Double.NaN, Double.NEGATIVE_INFINITY),
                        row(Float.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, -0.0d),
                        row(Float.MIN_VALUE, Double.MIN_VALUE, Double.MAX_VALUE),
                        row(Float.MAX_VALUE, 0.1d, -Double.MAX_VALUE),
                        row(Float.NEGATIVE_INFINITY, 1e-320d, 0.30000000000000004d)),
                List.of(sql("-0E0", "-0E0", "0E0"),
                        sql("CAST('NaN' AS REAL)", "CAST('NaN' AS " + dbl + ")", "1.7976931348623157E308"),
                        sql("0.1", "0.1", "4.9E-324"))));

        // CHAR pads (so '' and 'a  ' become blanks and 'a    '), VARCHAR keeps trailing blanks, '' is not NULL,
        // characters outside the BMP take two UTF-16 units; the case-insensitive column gets a case-only update.
        families.add(new Family("texts", List.of("CHAR(5)", "VARCHAR(100)", "LONGVARCHAR", "VARCHAR_IGNORECASE(100)"),
                List.of(row("", "", "", ""),
                        row("a", "trailing  ", "  leading", "MiXeD"),
                        row("a  ", "Grüße 日本語 \uD83D\uDE00\uD834\uDD1E", "tab\there\nnewline\r\n", "mixed"),
                        row("\uD83D\uDE00", "it's \"quoted\" \\ back", "x".repeat(1000), "ÀÉÎ STRASSE straße"),
                        row("abcde", "x".repeat(100), "a", "a ")),
                List.of(sql("''", "''", "''", "''"),
                        sql("'a  '", "'a '", "'é'", "'ABC'"),
                        sql("'日本'", "'\uD83D\uDE00'", "'it''s'", "'abc'"))));

        families.add(new Family("booleans", List.of("BOOLEAN"),
                List.of(row(true), row(false), row(true)),
                List.of(sql("TRUE"), sql("FALSE"), sql("NULL"))));

        // BINARY(4) pads with zero bytes; VARBINARY keeps X'' apart from NULL and from X'00'.
        families.add(new Family("binaries", List.of("BINARY(4)", "VARBINARY(300)", "LONGVARBINARY", "UUID"),
                List.of(row(new byte[0], new byte[0], new byte[0], new UUID(0, 0)),
                        row(new byte[] {1}, new byte[] {0}, allByteValues(),
                                UUID.fromString("ffffffff-ffff-ffff-ffff-ffffffffffff")),
                        row(new byte[] {-1, 0, 0, -1}, allByteValues(), new byte[] {(byte) 0x80},
                                new UUID(Long.MIN_VALUE, 1)),
                        row(new byte[] {0, 0, 0, 0}, new byte[] {0, 0, 0}, new byte[] {0}, new UUID(1, 0))),
                List.of(sql("X''", "X''", "X'00'", "'00000000-0000-0000-0000-000000000001'"),
                        sql("X'01'", "X'FF00'", "X''", "'123e4567-e89b-12d3-a456-426614174000'"),
                        sql("X'01020304'", "X'00'", "X'7F'", "'ffffffff-ffff-ffff-ffff-ffffffffffff'"))));

        families.add(temporals(engine));

        // YEAR TO MONTH counts months; DAY TO SECOND seconds and a fraction; both signed.
        families.add(new Family("intervals", List.of("INTERVAL YEAR(4) TO MONTH", "INTERVAL DAY(5) TO SECOND(6)"),
                List.of(row(Period.ofMonths(-14), Duration.ofSeconds(-273906, -123456000)),
                        row(Period.ZERO, Duration.ZERO),
                        row(Period.of(9999, 11, 0), Duration.ofDays(99999).plusSeconds(86399).plusNanos(999999000)),
                        row(Period.ofYears(-1), Duration.ofNanos(1000))),
                List.of(sql("INTERVAL '-1-2' YEAR TO MONTH", "INTERVAL '-3 04:05:06.123456' DAY TO SECOND"),
                        sql("INTERVAL '0-0' YEAR TO MONTH", "INTERVAL '0 00:00:00' DAY TO SECOND"),
                        sql("INTERVAL '12-11' YEAR TO MONTH", "INTERVAL '99999 23:59:59.999999' DAY(5) TO SECOND"))));

        // NULL elements, empty arrays, and element types that need converting (TIMESTAMP) or exact comparing.
        families.add(new Family("arrays", List.of("INTEGER ARRAY", "VARCHAR(20) ARRAY", dbl + " ARRAY",
                "TIMESTAMP(9) ARRAY", "DECIMAL(10,2) ARRAY"),
                List.of(row(new Arr("INTEGER", 1, null, 3), new Arr("VARCHAR", "a", null, "", "\uD83D\uDE00", "a,b"),
                                new Arr("DOUBLE", -0.0d, Double.NaN, Double.POSITIVE_INFINITY),
                                new Arr("TIMESTAMP", Timestamp.valueOf("2020-01-01 00:00:00.123456789"), null),
                                new Arr("DECIMAL", new BigDecimal("1.1"), new BigDecimal("-0.50"))),
                        row(new Arr("INTEGER"), new Arr("VARCHAR"), new Arr("DOUBLE"), new Arr("TIMESTAMP"),
                                new Arr("DECIMAL")),
                        row(new Arr("INTEGER", (Object) null), new Arr("VARCHAR", (Object) null),
                                new Arr("DOUBLE", Double.MIN_VALUE, null),
                                new Arr("TIMESTAMP", Timestamp.valueOf("1969-12-31 23:59:59.999999999")),
                                new Arr("DECIMAL", (Object) null))),
                List.of(sql("ARRAY[1, NULL, 3]", "ARRAY['a', NULL, '']", "ARRAY[-0E0, 1E0]",
                                "ARRAY[TIMESTAMP '2020-01-01 00:00:00.123456789', NULL]", "ARRAY[1.10, -0.5]"),
                        sql("ARRAY[]", "ARRAY[]", "ARRAY[]", "ARRAY[]", "ARRAY[]"),
                        sql("ARRAY[NULL]", "ARRAY['a,b', 'c']", "ARRAY[0.1]",
                                "ARRAY[TIMESTAMP '9999-12-31 23:59:59.999999999']", "ARRAY[-99999999.99]"))));

        if (h2) {
            // JSON keeps its number text (2.50); ENUM by name, with a trailing blank, and by 1-based ordinal.
            // GEOMETRY without JTS on the class path is EWKT text (an SRID included).
            families.add(new Family("h2_types", List.of("JSON", "ENUM('small','MEDIUM','large ')", "JAVA_OBJECT",
                    "GEOMETRY"),
                    List.of(row(utf8("{\"a\":[1,2.50,null],\"b\":\"\uD83D\uDE00\"}"), "MEDIUM", new Point(1, 2),
                                    "POINT (1 2)"),
                            row(utf8("null"), "large ", new Point(-1, Integer.MAX_VALUE),
                                    "SRID=4326;POINT (1.5 -2.25)"),
                            row(utf8("\"str\""), "small", new Point(0, 0), "LINESTRING (0 0, 1 1)"),
                            row(utf8("1.10"), "small", null, "POINT (0.1 0.2)")),
                    List.of(sql("JSON '{\"a\":1}'", "'small'", "NULL", "'POINT (3 4)'"),
                            sql("JSON '[]'", "2", "NULL", "'SRID=3857;POINT (-1 -1)'"),
                            sql("JSON '1.1'", "'large '", "NULL", "'POINT EMPTY'"))));
        } else {
            // HSQLDB's bit strings: BIT is BIT(1), bound as a boolean; BIT(n) and BIT VARYING as '0'/'1' text.
            families.add(new Family("bits", List.of("BIT", "BIT(3)", "BIT VARYING(16)"),
                    List.of(row(true, "101", "1"), row(false, "000", ""), row(true, "111", "0000000000000001"),
                            row(false, "100", "1010")),
                    List.of(sql("B'1'", "B'101'", "B'101'"), sql("B'0'", "B'010'", "B''"),
                            sql("B'1'", "B'001'", "B'1111111111111111'"))));
        }
        // Above H2's in-row limit, so stored as real LOBs. H2's trigger sees a Blob/Clob, HSQLDB's an id in the
        // master's LOB store: both are read at capture.
        families.add(new Family("lobs", List.of("CLOB", "BLOB"),
                List.of(row("small", utf8("small")),
                        row(new Chars("x".repeat(10_000) + "\uD83D\uDE00"), new Bytes(repeat(allByteValues(), 40))),
                        row("", new byte[0])),
                List.of(sql("'literal'", "X'0102'"), sql("''", "X''"), sql("'é'", "X'FF'"))));
        return families;
    }

    private static Family temporals(Engine engine) {
        boolean h2 = engine == Engine.H2;
        List<Object[]> bound = new ArrayList<>(List.of(
                // before 1900 and before the Gregorian switch; one nanosecond; +05:30
                row(LocalDate.of(1500, 1, 1), LocalTime.MIDNIGHT, LocalTime.of(12, 34, 56, 1),
                        LocalDateTime.of(1500, 1, 1, 0, 0, 0, 1), OffsetTime.of(12, 0, 0, 0, ZoneOffset.ofHoursMinutes(5, 30)),
                        OffsetDateTime.of(2020, 1, 1, 5, 30, 0, 0, ZoneOffset.ofHoursMinutes(5, 30))),
                // the same instant as above at another offset: an update that changes only the offset
                row(LocalDate.of(1582, 10, 4), LocalTime.of(23, 59, 59), LocalTime.MAX,
                        LocalDateTime.of(1582, 10, 15, 0, 0), OffsetTime.of(LocalTime.MAX, ZoneOffset.ofHours(-8)),
                        OffsetDateTime.of(2020, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC)),
                // the last nanosecond before the epoch (negative epoch seconds with a fraction), -08:00
                row(LocalDate.of(1582, 10, 15), LocalTime.NOON, LocalTime.ofNanoOfDay(1),
                        LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999), OffsetTime.of(0, 0, 0, 0, ZoneOffset.UTC),
                        OffsetDateTime.of(1969, 12, 31, 16, 0, 0, 0, ZoneOffset.ofHours(-8))),
                // the java.sql types, as older code binds them
                row(java.sql.Date.valueOf("1899-12-31"), java.sql.Time.valueOf("01:02:03"), LocalTime.of(0, 0, 0, 999),
                        Timestamp.valueOf("2000-02-29 12:00:00.123456789"),
                        OffsetTime.of(23, 0, 0, 0, ZoneOffset.ofHours(14)),
                        OffsetDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_999, ZoneOffset.ofHours(14))),
                row(LocalDate.of(9999, 12, 31), LocalTime.of(0, 0, 1), LocalTime.of(6, 0, 0, 100_000_000),
                        LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_999),
                        OffsetTime.of(6, 0, 0, 0, ZoneOffset.ofHoursMinutes(-9, -30)),
                        OffsetDateTime.of(1500, 1, 1, 0, 0, 0, 0, ZoneOffset.ofHours(1)))));
        if (h2) { // H2's calendar is proleptic: 1582-10-10 exists, and so do years before 1
            bound.add(row(LocalDate.of(1582, 10, 10), LocalTime.of(1, 2, 3), LocalTime.of(1, 2, 3, 4),
                    LocalDateTime.of(-1, 1, 1, 0, 0), OffsetTime.of(1, 0, 0, 0, ZoneOffset.ofHours(-14)),
                    OffsetDateTime.of(-1, 1, 1, 0, 0, 0, 0, ZoneOffset.ofHoursMinutes(5, 45))));
        }
        String tz = h2 ? "TIMESTAMP WITH TIME ZONE" : "TIMESTAMP";
        String tmz = h2 ? "TIME WITH TIME ZONE" : "TIME";
        List<String[]> literals = new ArrayList<>(List.of(
                sql("DATE '1899-12-31'", "TIME '12:34:56'", "TIME '12:34:56.123456789'",
                        "TIMESTAMP '1582-10-04 23:59:59.999999999'", tmz + " '12:00:00+05:30'",
                        tz + " '2020-01-01 05:30:00+05:30'"),
                sql("DATE '1970-01-01'", "TIME '00:00:00'", "TIME '23:59:59.999999999'",
                        "TIMESTAMP '1970-01-01 00:00:00'", tmz + " '06:30:00+00:00'",
                        tz + " '2020-01-01 00:00:00+00:00'"),
                sql("DATE '9999-12-31'", "TIME '23:59:59'", "TIME '00:00:00.000000001'",
                        "TIMESTAMP '0001-01-01 00:00:00'", tmz + " '23:59:59.999999999-08:00'",
                        tz + " '1900-01-01 00:00:00.000000001-08:00'")));
        if (h2) {
            literals.add(sql("DATE '1582-10-10'", "TIME '00:00:01'", "TIME '00:00:00'",
                    "TIMESTAMP '-0001-01-01 00:00:00'", tmz + " '00:00:00Z'", tz + " '1582-10-10 00:00:00Z'"));
        }
        return new Family("temporals", List.of("DATE", "TIME", "TIME(9)", "TIMESTAMP(9)", "TIME(9) WITH TIME ZONE",
                "TIMESTAMP(9) WITH TIME ZONE"), bound, literals);
    }

    private static Object[] append(Object[] row, Object value) {
        Object[] longer = Arrays.copyOf(row, row.length + 1);
        longer[row.length] = value;
        return longer;
    }

    private static String[] append(String[] row, String value) {
        String[] longer = Arrays.copyOf(row, row.length + 1);
        longer[row.length] = value;
        return longer;
    }

    private static byte[] repeat(byte[] bytes, int times) {
        byte[] all = new byte[bytes.length * times];
        for (int i = 0; i < times; i++) {
            System.arraycopy(bytes, 0, all, i * bytes.length, bytes.length);
        }
        return all;
    }

    // ------------------------------------------------------------------------------------------------------------
    // The tests

    @ParameterizedTest
    @EnumSource(Engine.class)
    void everyTypeReplicatesExactly(Engine engine) throws Exception {
        List<Family> families = families(engine);
        try (Connection c = Engine.connect(engine.url(REPLICAS))) {
            for (Family family : families) {
                exercise(c, family);
            }
            MacroCluster cluster = c.unwrap(MacroCluster.class);
            assertEveryReplicaReadsAsTheMaster(c, cluster, families);
            assertEquals(0, cluster.metrics().failures(), "no slave failed to apply a value");
            assertTrue(cluster.verify().identical(), "verify agrees");
            // A rebuilt slave is copied row by row from another replica, not replayed: that copy must be exact too.
            cluster.rebuildReplica(2);
            assertEveryReplicaReadsAsTheMaster(c, cluster, families);
            Engine.assertIdenticalAndShutdown(c);
        }
    }

    /**
     * Values a slave could not store exactly are refused with a clean SQLException before they commit; the
     * statement leaves nothing behind, the transaction goes on, and the replicas stay identical.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void valuesThatCannotBeReplicatedAreRefusedCleanly(Engine engine) throws Exception {
        try (Connection c = Engine.connect(engine.url(REPLICAS))) {
            c.setAutoCommit(false);
            if (engine == Engine.HSQLDB) {
                Engine.execute(c, "CREATE TABLE doc (id INT PRIMARY KEY, obj OTHER)");
                Engine.execute(c, "INSERT INTO doc VALUES (1, NULL)");
                // OTHER holds a serialized Java object the trigger sees in HSQLDB's own wrapper.
                assertRefused(c, "INSERT INTO doc (id, obj) VALUES (?, ?)", 4, new Point(1, 2));
                Engine.execute(c, "UPDATE doc SET id = 5 WHERE id = 1"); // the transaction goes on
            } else {
                // MacroDB does not replicate ROW values on H2.
                Engine.execute(c, "CREATE TABLE doc (id INT PRIMARY KEY, r ROW(a INT, b VARCHAR(5)), d DECFLOAT)");
                Engine.execute(c, "INSERT INTO doc VALUES (1, NULL, 1)");
                SQLException row = assertThrows(SQLException.class,
                        () -> Engine.execute(c, "INSERT INTO doc VALUES (2, ROW(1, 'x'), 2)"));
                assertEquals(MacroSqlState.NOT_REPLICABLE, row.getSQLState(), row::getMessage);
                // DECFLOAT's NaN and infinities: a new slave's copy reads values through JDBC, whose BigDecimal
                // holds none of them.
                for (String special : List.of("NaN", "Infinity", "-Infinity")) {
                    SQLException refused = assertThrows(SQLException.class, () -> Engine.execute(c,
                            "UPDATE doc SET d = CAST('" + special + "' AS DECFLOAT) WHERE id = 1"));
                    assertEquals(MacroSqlState.NOT_REPLICABLE, refused.getSQLState(), refused::getMessage);
                }
                Engine.execute(c, "UPDATE doc SET id = 5 WHERE id = 1"); // the transaction goes on
            }
            c.commit();
            try (Statement s = c.createStatement(); ResultSet rows = s.executeQuery("SELECT id FROM doc")) {
                assertTrue(rows.next());
                assertEquals(5, rows.getInt(1));
                assertFalse(rows.next(), "no refused row was left behind");
            }
            c.commit();
            MacroCluster cluster = c.unwrap(MacroCluster.class);
            assertEveryReplicaReadsAsTheMaster(c, cluster, List.of(new Family("doc", List.of(), List.of(), List.of())));
            assertEquals(0, cluster.metrics().failures());
            Engine.assertIdenticalAndShutdown(c);
        }
    }

    /**
     * A table without a key: a slave finds the row to change by its old values, so two rows whose values are equal
     * in SQL but not the same (other letter case, trailing blank, offset, sign of zero) must not be taken for each
     * other. Each table holds both look-alikes twice, in rows otherwise identical; the master deletes one of one
     * pair and updates one of the other, picked by an exact predicate.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void tablesWithoutKeyChangeTheExactRow(Engine engine) throws Exception {
        boolean h2 = engine == Engine.H2;
        String tz = h2 ? "TIMESTAMP WITH TIME ZONE" : "TIMESTAMP";
        String tmz = h2 ? "TIME WITH TIME ZONE" : "TIME";
        // table -> column type, the value kept, its look-alike, a predicate true for the look-alike only
        Map<String, String[]> cases = new LinkedHashMap<>();
        cases.put("bag_case", new String[] {"VARCHAR_IGNORECASE(5)", "'abc'", "'ABC'", "CAST(v AS VARCHAR) = 'ABC'"});
        cases.put("bag_offset", new String[] {"TIMESTAMP(9) WITH TIME ZONE", tz + " '2020-01-01 05:30:00+05:30'",
                tz + " '2020-01-01 00:00:00+00:00'", "EXTRACT(TIMEZONE_HOUR FROM v) = 0"});
        cases.put("bag_time_offset", new String[] {"TIME(9) WITH TIME ZONE", tmz + " '05:30:00+05:30'",
                tmz + " '00:00:00+00:00'", "EXTRACT(TIMEZONE_HOUR FROM v) = 0"});
        // LOBs: a slave matches the row by its LOB values too
        cases.put("bag_clob", new String[] {"CLOB", "'abc'", "'abd'", "CAST(v AS VARCHAR(10)) = 'abd'"});
        cases.put("bag_blob", new String[] {"BLOB", "X'0102'", "X'0103'", "CAST(v AS VARBINARY(10)) = X'0103'"});
        // an array with a NULL element: SQL's = on it is unknown, so = alone matches no row
        cases.put("bag_array_null", new String[] {"INTEGER ARRAY", "ARRAY[1]", "ARRAY[1, NULL]", "CARDINALITY(v) = 2"});
        cases.put("bag_array_nulls", new String[] {"VARCHAR(5) ARRAY", "ARRAY[NULL, 'a']", "ARRAY[NULL, 'A']",
                "v[2] = 'A'"});
        if (!h2) { // HSQLDB compares VARCHAR with PAD SPACE, and -0.0 = 0.0 (H2 stores no -0.0)
            cases.put("bag_blank", new String[] {"VARCHAR(5)", "'a'", "'a '", "CHAR_LENGTH(v) = 2"});
            cases.put("bag_zero", new String[] {"DOUBLE", "0E0", "-0E0", "CAST(v AS VARCHAR(40)) LIKE '-%'"});
        }
        try (Connection c = Engine.connect(engine.url(REPLICAS))) {
            List<Family> tables = new ArrayList<>();
            for (var entry : cases.entrySet()) {
                String t = entry.getKey();
                String[] x = entry.getValue();
                Engine.execute(c, "CREATE TABLE " + t + " (id INT, v " + x[0] + ")",
                        "INSERT INTO " + t + " VALUES (1, " + x[1] + "), (1, " + x[2] + "), (2, " + x[1] + "), (2, "
                                + x[2] + ")");
                try (Statement s = c.createStatement()) {
                    assertEquals(1, s.executeUpdate("DELETE FROM " + t + " WHERE id = 1 AND " + x[3]), t);
                    assertEquals(1, s.executeUpdate("UPDATE " + t + " SET id = 3 WHERE id = 2 AND " + x[3]), t);
                }
                tables.add(new Family(t, List.of(), List.of(), List.of()));
            }
            MacroCluster cluster = c.unwrap(MacroCluster.class);
            assertEveryReplicaReadsAsTheMaster(c, cluster, tables);
            assertEquals(0, cluster.metrics().failures());
            Engine.assertIdenticalAndShutdown(c);
        }
    }

    /**
     * {@code verify()} must see a difference in any stored value, including those whose usual Java or text forms
     * look alike. Each table gets one value on the master and a look-alike written on slave 1 behind MacroDB's back;
     * every such table must be reported, and no other.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void verifyTellsApartValuesThatLookAlike(Engine engine) throws Exception {
        boolean h2 = engine == Engine.H2;
        String tz = h2 ? "TIMESTAMP WITH TIME ZONE" : "TIMESTAMP";
        String tmz = h2 ? "TIME WITH TIME ZONE" : "TIME";
        // table -> column type, master's literal, slave's look-alike literal
        Map<String, String[]> cases = new LinkedHashMap<>();
        cases.put("same_instant", new String[] {"TIMESTAMP(9) WITH TIME ZONE", tz + " '2020-01-01 05:30:00+05:30'",
                tz + " '2020-01-01 00:00:00+00:00'"});
        cases.put("same_time", new String[] {"TIME(9) WITH TIME ZONE", tmz + " '05:30:00+05:30'",
                tmz + " '00:00:00+00:00'"});
        cases.put("nanosecond", new String[] {"TIME(9)", "TIME '12:00:00.000000001'", "TIME '12:00:00'"});
        cases.put("ts_nanosecond", new String[] {"TIMESTAMP(9)", "TIMESTAMP '2020-01-01 00:00:00.000000001'",
                "TIMESTAMP '2020-01-01 00:00:00'"});
        cases.put("trailing_blank", new String[] {"VARCHAR(5)", "'a '", "'a'"});
        cases.put("letter_case", new String[] {"VARCHAR_IGNORECASE(5)", "'ABC'", "'abc'"});
        cases.put("array_nanosecond", new String[] {"TIME(9) ARRAY",
                "ARRAY[TIME '12:00:00.000000001']", "ARRAY[TIME '12:00:00']"});
        cases.put("array_split", new String[] {"VARCHAR(5) ARRAY", "ARRAY['a, b']", "ARRAY['a', 'b']"});
        cases.put("array_null", new String[] {"INTEGER ARRAY", "ARRAY[1, NULL]", "ARRAY[1]"});
        // X'4161' and X'4242' share a 31-polynomial hash (the "Aa"/"BB" pair of String.hashCode)
        cases.put("binary_collision", new String[] {"VARBINARY(4)", "X'4161'", "X'4242'"});
        if (h2) {
            // java.sql.Date has no era: 2 BC (-0001) and AD 2 print alike
            cases.put("era", new String[] {"DATE", "DATE '-0001-01-01'", "DATE '0002-01-01'"});
            cases.put("json_scale", new String[] {"JSON", "JSON '1.10'", "JSON '1.1'"});
            cases.put("decfloat", new String[] {"DECFLOAT", "1.5", "1.50000000000000000001"});
        } else {
            cases.put("minus_zero", new String[] {"DOUBLE", "-0E0", "0E0"}); // H2 stores -0.0 as 0.0
            cases.put("bits", new String[] {"BIT(3)", "B'101'", "B'100'"}); // getObject: the first bit only
            cases.put("bit_length", new String[] {"BIT VARYING(8)", "B'101'", "B'1010'"});
            cases.put("array_minus_zero", new String[] {"DOUBLE ARRAY", "ARRAY[-0E0]", "ARRAY[0E0]"});
        }
        try (Connection c = Engine.connect(engine.url(REPLICAS))) {
            for (var entry : cases.entrySet()) {
                Engine.execute(c, "CREATE TABLE " + entry.getKey() + " (id INT PRIMARY KEY, v " + entry.getValue()[0]
                        + ")", "INSERT INTO " + entry.getKey() + " VALUES (1, " + entry.getValue()[1] + ")");
            }
            Engine.execute(c, "CREATE TABLE untouched (id INT PRIMARY KEY, v INT)", "INSERT INTO untouched VALUES (1, 1)");
            MacroCluster cluster = c.unwrap(MacroCluster.class);
            assertTrue(cluster.verify().identical(), "identical before the slave is changed");
            List<String> corruptions = new ArrayList<>();
            for (var entry : cases.entrySet()) {
                corruptions.add("UPDATE " + entry.getKey() + " SET v = " + entry.getValue()[2]);
            }
            try (Connection slave = Engine.behindMacroDbsBack(cluster, 1, corruptions.toArray(String[]::new))) {
                slave.commit();
            }
            VerificationReport report = cluster.verify();
            assertEquals(Collections.singleton(1), report.differingReplicas(), report.differences()::toString);
            List<String> reported = report.differences().stream()
                    .map(line -> line.replaceAll(".* in PUBLIC\\.(\\w+):.*", "$1").toLowerCase())
                    .sorted().collect(Collectors.toList());
            assertEquals(cases.keySet().stream().sorted().collect(Collectors.toList()), reported,
                    "every look-alike found, and nothing else");
            cluster.shutdown();
        }
    }

    /**
     * Two replicas can hold the same values in columns defined otherwise (case-insensitive on one, a wider type on
     * the other): equal rows, different answers to the same query. {@code verify()} compares the column definitions
     * too. Here a slave's column is changed behind MacroDB's back, rows untouched.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void verifySeesAColumnDefinedOtherwise(Engine engine) throws Exception {
        try (Connection c = Engine.connect(engine.url(REPLICAS))) {
            Engine.execute(c, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))", "INSERT INTO t VALUES (1, 'a')");
            MacroCluster cluster = c.unwrap(MacroCluster.class);
            assertTrue(cluster.verify().identical(), "identical before the slave is changed");
            String change = engine == Engine.H2 ? "ALTER TABLE t ALTER COLUMN v SET DATA TYPE VARCHAR_IGNORECASE(10)"
                    : "ALTER TABLE t ALTER COLUMN v SET DATA TYPE VARCHAR(20)";
            try (Connection slave = Engine.behindMacroDbsBack(cluster, 1, change)) {
                slave.commit();
            }
            VerificationReport report = cluster.verify();
            assertEquals(Collections.singleton(1), report.differingReplicas(), report.differences()::toString);
            assertTrue(report.differences().get(0).contains("(column definitions)"), report.differences()::toString);
            cluster.shutdown();
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // Writing

    /**
     * Creates the family's table and writes it: inserts through setters and literals, updates of whole rows to other
     * edge values (prepared) and of one column at a time (the applier then binds that column only), to NULL and
     * back, deletes, and a transaction that inserts, changes and deletes a row and writes its key again.
     */
    private static void exercise(Connection c, Family f) throws SQLException {
        String t = f.table();
        StringJoiner definitions = new StringJoiner(", ");
        StringJoiner placeholders = new StringJoiner(", ");
        StringJoiner setAll = new StringJoiner(", ");
        StringJoiner setNull = new StringJoiner(", ");
        for (int i = 0; i < f.width(); i++) {
            definitions.add("c" + (i + 1) + " " + f.types().get(i));
            placeholders.add("?");
            setAll.add("c" + (i + 1) + " = ?");
            setNull.add("c" + (i + 1) + " = NULL");
        }
        Engine.execute(c, "CREATE TABLE " + t + " (id INT PRIMARY KEY, " + definitions + ")");
        String insert = "INSERT INTO " + t + " (id, " + f.columnList() + ") VALUES (?, " + placeholders + ")";
        String update = "UPDATE " + t + " SET " + setAll + " WHERE id = ?";
        List<Object[]> bound = f.bound();
        int n = bound.size();

        for (int r = 0; r < n; r++) {
            write(c, insert, r + 1, bound.get(r));
        }
        write(c, insert, 0, new Object[f.width()]); // all NULL
        for (int r = 0; r < f.literals().size(); r++) {
            Engine.execute(c, "INSERT INTO " + t + " VALUES (" + (101 + r) + ", "
                    + String.join(", ", f.literals().get(r)) + ")");
        }

        c.setAutoCommit(false);
        for (int r = 0; r < n; r++) { // each bound row takes the next one's values, in one transaction
            write(c, update, bound.get((r + 1) % n), r + 1);
        }
        c.commit();
        for (int col = 0; col < f.width(); col++) { // one column at a time: row 2 gets row 1's original values
            write(c, "UPDATE " + t + " SET c" + (col + 1) + " = ? WHERE id = ?", bound.get(0)[col], 2);
        }
        write(c, update, bound.get(n - 1), 0); // from all NULL to values
        c.commit();

        Engine.execute(c, "UPDATE " + t + " SET " + setNull + " WHERE id IN (1, 101)");
        c.commit();
        // back from NULL: through literals on row 1, through setters on row 101
        StringJoiner setLiterals = new StringJoiner(", ");
        for (int i = 0; i < f.width(); i++) {
            setLiterals.add("c" + (i + 1) + " = " + f.literals().get(1)[i]);
        }
        Engine.execute(c, "UPDATE " + t + " SET " + setLiterals + " WHERE id = 1");
        write(c, update, bound.get(1), 101);
        c.commit();

        Engine.execute(c, "DELETE FROM " + t + " WHERE id = 3", "DELETE FROM " + t + " WHERE id > 101 AND MOD(id, 2) = 0");
        write(c, insert, 999, bound.get(0));
        write(c, update, bound.get(2), 999);
        Engine.execute(c, "DELETE FROM " + t + " WHERE id = 999");
        write(c, insert, 999, bound.get(n - 1)); // the same key again, other values
        c.commit();
        c.setAutoCommit(true);
    }

    /** Runs {@code sql} with {@code values} bound in order; an Object[] among them is spread. */
    private static void write(Connection c, String sql, Object... values) throws SQLException {
        List<Object> flat = new ArrayList<>();
        for (Object v : values) {
            if (v instanceof Object[] many) {
                flat.addAll(Arrays.asList(many));
            } else {
                flat.add(v);
            }
        }
        try (PreparedStatement statement = c.prepareStatement(sql)) {
            for (int i = 0; i < flat.size(); i++) {
                bind(c, statement, i + 1, flat.get(i));
            }
            assertEquals(1, statement.executeUpdate(), sql);
        }
    }

    private static void assertRefused(Connection c, String sql, Object... values) {
        SQLException refused = assertThrows(SQLException.class, () -> write(c, sql, values), sql);
        assertEquals(MacroSqlState.NOT_REPLICABLE, refused.getSQLState(), refused::getMessage);
    }

    /** Binds a value through the setter of its natural Java type, as an application would. */
    private static void bind(Connection c, PreparedStatement s, int i, Object v) throws SQLException {
        if (v == null) {
            s.setNull(i, s.getParameterMetaData().getParameterType(i));
        } else if (v instanceof Byte b) {
            s.setByte(i, b);
        } else if (v instanceof Short b) {
            s.setShort(i, b);
        } else if (v instanceof Integer b) {
            s.setInt(i, b);
        } else if (v instanceof Long b) {
            s.setLong(i, b);
        } else if (v instanceof BigDecimal b) {
            s.setBigDecimal(i, b);
        } else if (v instanceof Float b) {
            s.setFloat(i, b);
        } else if (v instanceof Double b) {
            s.setDouble(i, b);
        } else if (v instanceof Boolean b) {
            s.setBoolean(i, b);
        } else if (v instanceof String b) {
            s.setString(i, b);
        } else if (v instanceof byte[] b) {
            s.setBytes(i, b);
        } else if (v instanceof java.sql.Date b) {
            s.setDate(i, b);
        } else if (v instanceof java.sql.Time b) {
            s.setTime(i, b);
        } else if (v instanceof Timestamp b) {
            s.setTimestamp(i, b);
        } else if (v instanceof Arr b) {
            s.setArray(i, c.createArrayOf(b.type(), b.elements()));
        } else if (v instanceof Chars b) {
            s.setCharacterStream(i, new StringReader(b.text()));
        } else if (v instanceof Bytes b) {
            s.setBinaryStream(i, new ByteArrayInputStream(b.bytes()));
        } else {
            s.setObject(i, v); // java.time, UUID, Period, Duration, a Serializable
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // Reading and comparing

    /**
     * Reads every family's table through the MacroDB connection (the master) and through each replica's own
     * connection at one version, and requires all of them equal, cell by cell.
     */
    private static void assertEveryReplicaReadsAsTheMaster(Connection c, MacroCluster cluster, List<Family> families)
            throws SQLException {
        Map<String, List<String>> throughMacroDb = read(c, families);
        c.commit();
        List<ReplicaResult<Map<String, List<String>>>> replicas = cluster.queryEachReplica(r -> read(r, families));
        assertEquals(REPLICAS, replicas.size(), "every replica answered");
        assertEquals(ReplicaRole.MASTER, replicas.get(0).role());
        Map<String, List<String>> master = replicas.get(0).value();
        assertEquals(throughMacroDb, master, "the master's own connection reads what MacroDB's read");
        for (ReplicaResult<Map<String, List<String>>> replica : replicas) {
            for (Family f : families) {
                assertEquals(master.get(f.table()), replica.value().get(f.table()),
                        "replica " + replica.replica() + ", table " + f.table());
            }
        }
    }

    /** Each table's rows by key, each cell as its getString text and an exact rendering of its getObject. */
    private static Map<String, List<String>> read(Connection connection, List<Family> families) throws SQLException {
        Map<String, List<String>> tables = new LinkedHashMap<>();
        for (Family f : families) {
            List<String> rows = new ArrayList<>();
            try (Statement statement = connection.createStatement();
                 ResultSet result = statement.executeQuery("SELECT * FROM " + f.table() + " ORDER BY id")) {
                int columns = result.getMetaData().getColumnCount();
                while (result.next()) {
                    StringJoiner row = new StringJoiner(" | ");
                    for (int i = 1; i <= columns; i++) {
                        // H2 gives no text for a JAVA_OBJECT, HSQLDB none for a BLOB: their bytes stand in
                        int type = result.getMetaData().getColumnType(i);
                        String text = type == java.sql.Types.JAVA_OBJECT || type == java.sql.Types.BLOB
                                ? exact(result.getBytes(i)) : result.getString(i);
                        row.add((text == null ? "null" : "'" + text + "'") + " " + exact(result.getObject(i)));
                    }
                    rows.add(row.toString());
                }
            }
            Collections.sort(rows); // a table without a key may repeat an id
            tables.put(f.table(), rows);
        }
        return tables;
    }

    /**
     * A rendering that two values share only if they are the same: floating-point values by their raw bits (so
     * -0.0 is not 0.0, and NaN's payload counts), BigDecimal with its scale, arrays element by element, bytes in
     * hex, LOBs by content, and the class of every other value with its text.
     */
    static String exact(Object value) throws SQLException {
        if (value == null) {
            return "null";
        }
        if (value instanceof Double d) {
            return "double:" + Long.toHexString(Double.doubleToRawLongBits(d)) + "(" + d + ")";
        }
        if (value instanceof Float f) {
            return "float:" + Integer.toHexString(Float.floatToRawIntBits(f)) + "(" + f + ")";
        }
        if (value instanceof BigDecimal b) {
            return "decimal:" + b.unscaledValue() + "e-" + b.scale();
        }
        if (value instanceof byte[] b) {
            return "bytes:" + HexFormat.of().formatHex(b);
        }
        if (value instanceof Array a) {
            try {
                return "array:" + exact(a.getArray());
            } finally {
                a.free();
            }
        }
        if (value instanceof Object[] elements) {
            List<String> each = new ArrayList<>();
            for (Object element : elements) {
                each.add(exact(element));
            }
            return each.toString();
        }
        if (value instanceof Blob b) {
            return "blob:" + exact(b.getBytes(1, (int) b.length()));
        }
        if (value instanceof Clob b) {
            return "clob:" + b.getSubString(1, (int) b.length());
        }
        return value.getClass().getSimpleName() + ":" + value;
    }
}
