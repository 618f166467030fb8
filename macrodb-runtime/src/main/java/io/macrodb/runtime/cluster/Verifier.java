package io.macrodb.runtime.cluster;

import io.macrodb.api.ReplicaResult;
import io.macrodb.api.VerificationReport;
import io.macrodb.api.VerificationReport.TableChecksum;
import io.macrodb.runtime.capture.CapturedTable;
import io.macrodb.runtime.engine.Engine;

import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Check-sums every replica at one version. A table's checksum is its row count and the sum of a 64-bit hash of each
 * row: independent of row order (so no ORDER BY, which a table without a key could not make total), and equal on
 * two replicas only if they hold the same multiset of rows, barring a hash collision. Sequence and identity
 * counters are check-summed as one more "table".
 */
final class Verifier {

    static final String COUNTERS = "(sequence and identity counters)";

    private final Engine engine;
    private final TableCatalog catalog;

    Verifier(Engine engine, TableCatalog catalog) {
        this.engine = engine;
        this.catalog = catalog;
    }

    VerificationReport verify(Cluster cluster) throws SQLException {
        List<CapturedTable> tables = catalog.tables();
        List<ReplicaResult<Map<String, TableChecksum>>> results =
                cluster.queryEachReplica(connection -> checksums(connection, tables));
        Map<Integer, Map<String, TableChecksum>> byReplica = new LinkedHashMap<>();
        long version = -1;
        for (ReplicaResult<Map<String, TableChecksum>> result : results) {
            byReplica.put(result.replica(), result.value());
            version = result.version();
        }
        return new VerificationReport(version, byReplica);
    }

    private Map<String, TableChecksum> checksums(Connection connection, List<CapturedTable> tables)
            throws SQLException {
        Map<String, TableChecksum> sums = new TreeMap<>();
        for (CapturedTable table : tables) {
            sums.put(table.name().key(), checksum(connection, table));
        }
        Map<String, Long> counters = new TreeMap<>(engine.sequenceState(connection));
        engine.identityState(connection).forEach((table, next) -> counters.put("identity " + table, next));
        long hash = 0;
        for (var counter : counters.entrySet()) {
            hash += mix(hashOf(counter.getKey()) * 31 + counter.getValue());
        }
        sums.put(COUNTERS, new TableChecksum(counters.size(), hash));
        return sums;
    }

    private static TableChecksum checksum(Connection connection, CapturedTable table) throws SQLException {
        long rows = 0;
        long sum = 0;
        int columns = table.columns().size();
        try (Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery("SELECT * FROM " + table.name().quoted())) {
            ResultSetMetaData meta = result.getMetaData();
            int[] types = new int[columns];
            String[] typeNames = new String[columns];
            for (int i = 1; i <= columns; i++) {
                types[i - 1] = meta.getColumnType(i);
                typeNames[i - 1] = meta.getColumnTypeName(i);
            }
            while (result.next()) {
                long row = 1;
                for (int i = 1; i <= columns; i++) {
                    row = row * 1_000_003L + valueHash(exactValue(result, i, types[i - 1], typeNames[i - 1]));
                }
                sum += mix(row);
                rows++;
            }
        }
        return new TableChecksum(rows, sum);
    }

    /**
     * The value of column {@code i} in a form that tells apart any two values the engine stores differently, and
     * that is the same for equal values read on two replicas. {@code getObject} alone is not that: a TIME comes as
     * a java.sql.Time, whose text has no fraction of a second; a DATE as a java.sql.Date, whose text has no era (2 BC
     * and AD 2 look alike); an HSQLDB BIT(n) as a Boolean of its first bit and a BIT VARYING as a BinaryData
     * without its length; H2's ARRAY as a JdbcArray and a JAVA_OBJECT as the deserialized object, whose texts
     * carry a per-object id (every replica looked different).
     */
    private static Object exactValue(ResultSet result, int i, int type, String typeName) throws SQLException {
        return switch (type) {
            case Types.DATE -> result.getObject(i, LocalDate.class);
            case Types.TIME -> result.getObject(i, LocalTime.class);
            case Types.TIMESTAMP -> result.getObject(i, LocalDateTime.class);
            case Types.TIME_WITH_TIMEZONE -> result.getObject(i, OffsetTime.class);
            case Types.TIMESTAMP_WITH_TIMEZONE -> result.getObject(i, OffsetDateTime.class);
            case Types.BIT -> result.getString(i); // HSQLDB's bit string, every bit and its length ("101")
            case Types.JAVA_OBJECT -> result.getBytes(i); // the serialized form, as stored
            case Types.ARRAY -> elements(result.getArray(i));
            default -> "OTHER".equals(typeName) ? result.getBytes(i) : result.getObject(i); // HSQLDB's Java object
        };
    }

    /** An array's elements, each in the exact form of its element type (nested arrays as nested lists). */
    private static List<Object> elements(Array array) throws SQLException {
        if (array == null) {
            return null;
        }
        List<Object> elements = new ArrayList<>();
        try (ResultSet rows = array.getResultSet()) { // (index, value), in index order
            int type = rows.getMetaData().getColumnType(2);
            String typeName = rows.getMetaData().getColumnTypeName(2);
            while (rows.next()) {
                elements.add(exactValue(rows, 2, type, typeName));
            }
        } finally {
            array.free();
        }
        return elements;
    }

    private static long valueHash(Object value) throws SQLException {
        if (value == null) {
            return 0x9E3779B97F4A7C15L;
        }
        if (value instanceof byte[] bytes) {
            return Arrays.hashCode(bytes);
        }
        if (value instanceof Blob blob) {
            return Arrays.hashCode(blob.getBytes(1, (int) blob.length()));
        }
        if (value instanceof Clob clob) {
            return hashOf(clob.getSubString(1, (int) clob.length()));
        }
        if (value instanceof List<?> elements) {
            long h = mix(elements.size());
            for (Object element : elements) {
                h = mix(h * 31 + valueHash(element));
            }
            return h;
        }
        if (value instanceof Object[] array) {
            return hashOf(Arrays.deepToString(array));
        }
        return hashOf(value.toString());
    }

    private static long hashOf(String text) {
        long h = 0xcbf29ce484222325L; // FNV-1a, 64-bit
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        return h;
    }

    /** MurmurHash3's 64-bit finaliser: spreads every input bit over the whole word before rows are summed. */
    private static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}
