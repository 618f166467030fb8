package io.macrodb.api;

import java.util.List;

/**
 * Running totals of a cluster since it started, for monitoring (see {@code io.macrodb.metrics.MacroDbMetrics}, which
 * publishes them to Micrometer).
 *
 * @param committedTransactions update transactions that committed a write set (each got a version)
 * @param readWaits             read-only transactions that had to wait for their replica to catch up
 * @param readWaitNanos         total time they waited
 * @param lagWaits              commits that waited for a slave to come back within {@code macrodb.maxLag}
 * @param lagWaitNanos          total time they waited (after committing)
 * @param failures              replicas marked failed
 * @param replicas              per replica, master first
 */
public record ClusterMetrics(long committedTransactions, long readWaits, long readWaitNanos, long lagWaits,
                             long lagWaitNanos, long failures, List<Replica> replicas) {

    /**
     * @param routedTransactions read-only transactions routed to this replica
     * @param appliedWriteSets   write sets its applier applied (0 for the master)
     * @param applyNanos         time its applier spent applying and committing them
     * @param applyCpuNanos      CPU time its applier's thread used for that (0 where the JVM does not measure
     *                           thread CPU time): unlike {@code applyNanos}, not inflated by waiting for a core
     */
    public record Replica(int index, long routedTransactions, long appliedWriteSets, long applyNanos,
                          long applyCpuNanos) {
    }
}
