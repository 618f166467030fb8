package io.macrodb.bench.run;

import io.macrodb.api.MacroCluster;
import io.macrodb.api.ReplicaHealth;
import io.macrodb.api.ReplicaResult;
import io.macrodb.api.ReplicaStatus;
import io.macrodb.api.VerificationReport;
import io.macrodb.bench.ConsistencyCheck;
import io.macrodb.bench.targets.Database;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs a workload's consistency checks after a measured run: on the one database for a bare engine; for MacroDB,
 * first every replica must still be healthy, then {@code MacroCluster.verify()} must find them identical, then
 * every check runs on every replica at one common version ({@code queryEachReplica}). Anything wrong is a
 * {@link BenchmarkFailure} listing every violation found.
 */
public final class CorrectnessVerifier {

    /** The description of MacroDB's own check in {@link Report#passed()}. */
    public static final String IDENTICAL_REPLICAS = "MacroDB replicas identical (MacroCluster.verify())";

    /** What passed: the checks, and on how many copies of the database. */
    public record Report(int copies, List<String> passed) {
    }

    private CorrectnessVerifier() {
    }

    public static Report verify(Database database, List<ConsistencyCheck> checks) throws SQLException,
            BenchmarkFailure {
        try (Connection c = database.connect()) {
            Optional<MacroCluster> cluster = database.cluster(c);
            Report report = cluster.isPresent() ? verifyReplicas(cluster.get(), checks) : verifyOne(c, checks);
            c.rollback();
            return report;
        }
    }

    private static Report verifyOne(Connection c, List<ConsistencyCheck> checks) throws SQLException,
            BenchmarkFailure {
        var failures = new ArrayList<String>();
        var passed = new ArrayList<String>();
        for (ConsistencyCheck check : checks) {
            List<String> violations = check.violations(c);
            if (violations.isEmpty()) {
                passed.add(check.description());
            } else {
                violations.forEach(v -> failures.add(check.description() + ": " + v));
            }
        }
        fail(failures);
        return new Report(1, passed);
    }

    private static Report verifyReplicas(MacroCluster cluster, List<ConsistencyCheck> checks) throws SQLException,
            BenchmarkFailure {
        var failures = new ArrayList<String>();
        List<ReplicaStatus> replicas = cluster.replicas();
        for (ReplicaStatus r : replicas) {
            if (r.health() != ReplicaHealth.HEALTHY) {
                failures.add("replica " + r.index() + " (" + r.role() + ") is " + r.health() + " after the run");
            }
        }
        fail(failures);
        VerificationReport report = cluster.verify();
        if (!report.identical()) {
            report.differences().forEach(d -> failures.add("replicas differ at version " + report.version() + ": " + d));
        }
        if (report.checksums().size() != replicas.size()) {
            failures.add("verify() compared " + report.checksums().size() + " replicas, the cluster has "
                    + replicas.size());
        }
        var passed = new ArrayList<String>();
        passed.add(IDENTICAL_REPLICAS);
        for (ConsistencyCheck check : checks) {
            List<ReplicaResult<List<String>>> results = cluster.queryEachReplicaConcurrently(check::violations);
            if (results.size() != replicas.size()) {
                failures.add(check.description() + ": ran on " + results.size() + " of " + replicas.size()
                        + " replicas");
            }
            boolean ok = true;
            for (ReplicaResult<List<String>> r : results) {
                for (String v : r.value()) {
                    ok = false;
                    failures.add(check.description() + " on replica " + r.replica() + " (" + r.role() + ", version "
                            + r.version() + "): " + v);
                }
            }
            if (ok) {
                passed.add(check.description());
            }
        }
        fail(failures);
        return new Report(replicas.size(), passed);
    }

    private static void fail(List<String> failures) throws BenchmarkFailure {
        if (!failures.isEmpty()) {
            throw new BenchmarkFailure("CORRECTNESS CHECK FAILED (" + failures.size() + " violation"
                    + (failures.size() == 1 ? "" : "s") + "):\n  " + String.join("\n  ", failures));
        }
    }
}
