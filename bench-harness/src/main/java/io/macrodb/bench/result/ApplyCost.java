package io.macrodb.bench.result;

import io.macrodb.api.ClusterMetrics;

import java.util.List;

/**
 * What replaying writes on the slaves cost in one MacroDB trial's measured window, and the write-heavy bound it
 * implies (docs: shared/design/benchmarking.md).
 *
 * <p>{@code a} is the mean time a slave's applier spent per write set (applying and committing, batch commits
 * shared out) over the mean latency of the update transactions on the master. With every core busy, each update
 * costs the cluster {@code 1 + (N-1)a} times what it costs the engine alone, so an update-heavy mix reaches at most
 * {@code 1/(1+(N-1)a)} of the engine alone's throughput. Both times are wall times: under CPU contention each
 * includes waiting for a core, so {@code a} is approximate.
 *
 * @param replicas               N, the master included
 * @param writeSets              write sets the slaves applied in the window, all slaves together
 * @param applyNanos             time the slaves' appliers spent on them, all slaves together
 * @param meanUpdateLatencyNanos mean latency of the update (not read-only) transactions completed in the window
 */
public record ApplyCost(int replicas, long writeSets, long applyNanos, double meanUpdateLatencyNanos) {

    /** The cost between two snapshots of a cluster's metrics taken at the start and end of the window. */
    public static ApplyCost between(ClusterMetrics start, ClusterMetrics end, double meanUpdateLatencyNanos) {
        return new ApplyCost(end.replicas().size(), slaveTotal(end, true) - slaveTotal(start, true),
                slaveTotal(end, false) - slaveTotal(start, false), meanUpdateLatencyNanos);
    }

    private static long slaveTotal(ClusterMetrics m, boolean writeSets) {
        List<ClusterMetrics.Replica> slaves = m.replicas().subList(1, m.replicas().size()); // master first
        return slaves.stream().mapToLong(r -> writeSets ? r.appliedWriteSets() : r.applyNanos()).sum();
    }

    /** Mean apply time per write set on a slave, nanoseconds; NaN when none was applied. */
    public double applyNanosPerWriteSet() {
        return writeSets <= 0 ? Double.NaN : (double) applyNanos / writeSets;
    }

    /** The apply cost ratio a; NaN when either mean is unknown. */
    public double a() {
        return meanUpdateLatencyNanos > 0 ? applyNanosPerWriteSet() / meanUpdateLatencyNanos : Double.NaN;
    }

    /** The write-heavy bound 1/(1+(N-1)a) for this trial's N; NaN when a is unknown (and N > 1). */
    public double writeBound() {
        return bound(replicas, a());
    }

    /** 1/(1+(N-1)a): the most an update-heavy mix can reach of the engine alone with every core busy. */
    public static double bound(int replicas, double a) {
        return replicas <= 1 ? 1.0 : 1.0 / (1.0 + (replicas - 1) * a);
    }
}
