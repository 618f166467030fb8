package io.macrodb.api;

import java.util.List;
import java.util.Map;

/**
 * Per-table checksums of every healthy replica, all taken at one version.
 *
 * @param version   the version at which every replica was read
 * @param checksums per replica index, the checksum of each table (qualified name) and of the sequence state
 */
public record VerificationReport(long version, Map<Integer, Map<String, TableChecksum>> checksums) {

    /** The row count and an order-independent hash of one table's rows on one replica. */
    public record TableChecksum(long rows, long hash) {
    }

    /** True when every replica holds exactly the master's tables, row counts and hashes. */
    public boolean identical() {
        return differences().isEmpty();
    }

    /** The replicas (never the first, the master) whose checksums differ from the master's in any table. */
    public java.util.Set<Integer> differingReplicas() {
        var replicas = List.copyOf(checksums.keySet());
        var differing = new java.util.TreeSet<Integer>();
        for (int r : replicas.isEmpty() ? List.<Integer>of() : replicas.subList(1, replicas.size())) {
            if (!checksums.get(r).equals(checksums.get(replicas.get(0)))) {
                differing.add(r);
            }
        }
        return differing;
    }

    /** One line per table that differs between the master (first replica) and another replica. */
    public List<String> differences() {
        var replicas = List.copyOf(checksums.keySet());
        if (replicas.isEmpty()) {
            return List.of();
        }
        Map<String, TableChecksum> reference = checksums.get(replicas.get(0));
        var lines = new java.util.ArrayList<String>();
        for (int r : replicas.subList(1, replicas.size())) {
            Map<String, TableChecksum> other = checksums.get(r);
            var tables = new java.util.TreeSet<>(reference.keySet());
            tables.addAll(other.keySet());
            for (String table : tables) {
                TableChecksum a = reference.get(table);
                TableChecksum b = other.get(table);
                if (a == null || !a.equals(b)) {
                    lines.add("replica " + r + " differs from replica " + replicas.get(0) + " in " + table
                            + ": " + a + " vs " + b);
                }
            }
        }
        return lines;
    }
}
