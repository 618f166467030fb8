package io.macrodb.runtime.engine;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a stored value in a form that is exact for its type: two values the engine stores differently never read
 * alike, and binding what was read stores the same value again on a replica of the same engine. The verifier hashes
 * these values; a new slave's copy binds them (unless its engine reads rows its own way,
 * {@link Engine#copiedRow}).
 *
 * <p>{@code getObject} alone is not that. A TIME comes as a java.sql.Time, which holds milliseconds at most (a
 * TIME(9) lost its nanoseconds in a copy) and prints none; a DATE or TIMESTAMP as a java.sql type on the JVM's
 * hybrid Julian calendar and time zone, whose text has no era (2 BC and AD 2 print alike); an HSQLDB BIT(n) as a
 * Boolean of its first bit, which binds to no BIT(3); H2's ARRAY as a JdbcArray whose elements come the same lossy
 * way, and a JAVA_OBJECT as a deserialized object whose text may carry an identity hash. So: temporal values as
 * java.time objects, bit strings as their '0'/'1' text, Java objects as their serialized bytes (as stored; H2 stores
 * bound bytes as they are), arrays as Object[] of their elements read the same way.
 */
public final class ExactValues {

    private ExactValues() {
    }

    /** The column types of a result, by column (from 1), for {@link #read}. */
    public static int[] types(ResultSetMetaData meta, int columns) throws SQLException {
        int[] types = new int[columns + 1];
        for (int i = 1; i <= columns; i++) {
            types[i] = "OTHER".equals(meta.getColumnTypeName(i)) ? Types.JAVA_OBJECT : meta.getColumnType(i);
        }
        return types;
    }

    /**
     * @param type the column's type, as {@link #types} gives it (HSQLDB's OTHER, a serialized Java object, counts
     *             as JAVA_OBJECT; H2 uses OTHER for JSON, ENUM, INTERVAL and GEOMETRY, whose getObject is exact)
     */
    public static Object read(ResultSet rows, int column, int type) throws SQLException {
        return switch (type) {
            case Types.DATE -> rows.getObject(column, LocalDate.class);
            case Types.TIME -> rows.getObject(column, LocalTime.class);
            case Types.TIMESTAMP -> rows.getObject(column, LocalDateTime.class);
            case Types.TIME_WITH_TIMEZONE -> rows.getObject(column, OffsetTime.class);
            case Types.TIMESTAMP_WITH_TIMEZONE -> rows.getObject(column, OffsetDateTime.class);
            case Types.BIT -> rows.getString(column); // HSQLDB's bit string: every bit, and so its length
            case Types.JAVA_OBJECT -> rows.getBytes(column);
            // A LOB object is tied to the database it was read from (HSQLDB's holds an id in that database's store).
            case Types.BLOB -> rows.getBytes(column);
            case Types.CLOB, Types.NCLOB -> rows.getString(column);
            case Types.ARRAY -> elements(rows.getArray(column));
            default -> rows.getObject(column);
        };
    }

    /** An array's elements, each read as {@link #read} reads its element type (nested arrays as nested Object[]). */
    private static Object[] elements(Array array) throws SQLException {
        if (array == null) {
            return null;
        }
        List<Object> elements = new ArrayList<>();
        try (ResultSet rows = array.getResultSet()) { // (index, value), in index order
            int type = types(rows.getMetaData(), 2)[2];
            while (rows.next()) {
                elements.add(read(rows, 2, type));
            }
        } finally {
            array.free();
        }
        return elements.toArray();
    }
}
