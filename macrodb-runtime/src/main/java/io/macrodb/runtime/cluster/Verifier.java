package io.macrodb.runtime.cluster;

import io.macrodb.api.ReplicaResult;
import io.macrodb.api.VerificationReport;
import io.macrodb.api.VerificationReport.TableChecksum;
import io.macrodb.runtime.capture.CapturedTable;
import io.macrodb.runtime.engine.Engine;
import io.macrodb.runtime.engine.ExactValues;

import java.sql.Blob;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Check-sums every replica at one version. A table's checksum is its row count and the sum of a 64-bit hash of each
 * row: independent of row order (so no ORDER BY, which a table without a key could not make total), and equal on
 * two replicas only if they hold the same multiset of rows, barring a hash collision. Sequence and identity
 * counters are check-summed as one more "table", and so is each kind of schema definition ({@link SchemaChecksums}):
 * two replicas can hold the same rows and answer the same query differently.
 */
final class Verifier {

    static final String COUNTERS = "(sequence and identity counters)";

    private final Engine engine;
    private final TableCatalog catalog;
    private final SchemaChecksums schema;

    Verifier(Engine engine, TableCatalog catalog) {
        this.engine = engine;
        this.catalog = catalog;
        this.schema = new SchemaChecksums(engine);
    }

    /**
     * The counters are compared only if no update transaction was in flight while the replicas were read (commits are
     * held then, so one that had begun stays in flight to the end): such a transaction may have drawn from a sequence
     * or an identity column on the master, which no slave can have yet, and the slaves were failed for it (found under
     * load by a review). Otherwise the report leaves the counters out.
     */
    VerificationReport verify(Cluster cluster) throws SQLException {
        var drawsInFlight = new AtomicBoolean();
        List<ReplicaResult<Map<String, TableChecksum>>> results = cluster.queryEachReplicaConcurrently(connection -> {
            // Each replica's own tables, read with commits held, as the rows are: a table one replica lacks is a
            // difference to report. The catalog's list, the master's, failed the whole verify with the engine's "not
            // found" when a slave lacked one (made by a routine of the application's through its own connection, which
            // MacroDB does not see: found by a review, 2026-11-28), and left out one the master lacked.
            List<CapturedTable> tables = new ArrayList<>(catalog.read(connection).values());
            tables.sort(Comparator.comparing(table -> table.name().key()));
            Map<String, TableChecksum> sums = checksums(connection, tables);
            if (cluster.updateGate().inFlight() > 0) {
                drawsInFlight.set(true);
            }
            return sums;
        });
        Map<Integer, Map<String, TableChecksum>> byReplica = new LinkedHashMap<>();
        long version = -1;
        for (ReplicaResult<Map<String, TableChecksum>> result : results) {
            Map<String, TableChecksum> sums = result.value();
            if (drawsInFlight.get()) {
                sums.remove(COUNTERS);
            }
            byReplica.put(result.replica(), sums);
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
            hash += Hashes.mix(Hashes.of(counter.getKey()) * 31 + counter.getValue());
        }
        sums.put(COUNTERS, new TableChecksum(counters.size(), hash));
        sums.putAll(schema.of(connection, tables));
        return sums;
    }

    private static TableChecksum checksum(Connection connection, CapturedTable table) throws SQLException {
        long rows = 0;
        long sum = 0;
        int columns = table.columns().size();
        try (Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery("SELECT * FROM " + table.name().quoted())) {
            int[] types = ExactValues.types(result.getMetaData(), columns);
            while (result.next()) {
                long row = 1;
                for (int i = 1; i <= columns; i++) {
                    row = row * 1_000_003L + valueHash(ExactValues.read(result, i, types[i]));
                }
                sum += Hashes.mix(row);
                rows++;
            }
        }
        return new TableChecksum(rows, sum);
    }

    private static long valueHash(Object value) throws SQLException {
        if (value == null) {
            return 0x9E3779B97F4A7C15L;
        }
        if (value instanceof byte[] bytes) { // not Arrays.hashCode: X'4161' and X'4242' share that 32-bit hash
            return Hashes.of(bytes);
        }
        if (value instanceof Blob blob) {
            return Hashes.of(blob.getBytes(1, (int) blob.length()));
        }
        if (value instanceof Clob clob) {
            return Hashes.of(clob.getSubString(1, (int) clob.length()));
        }
        if (value instanceof Object[] elements) { // element by element: ['a, b'] is not ['a', 'b']
            long h = Hashes.mix(elements.length);
            for (Object element : elements) {
                h = Hashes.mix(h * 31 + valueHash(element));
            }
            return h;
        }
        return Hashes.of(value.toString());
    }
}
