package io.macrodb.bench.result;

import io.macrodb.api.ClusterMetrics;

import java.util.List;

/**
 * What replaying writes on the slaves cost in one MacroDB trial's measured window, and the write-heavy bound it
 * implies (docs: shared/design/benchmarking.md).
 *
 * <p>{@code a} is the CPU time a slave's applier used per write set (applying and committing, batch commits shared
 * out) over the CPU time a client thread used per update transaction on the master (MacroDB's capture included,
 * retries included). With every core busy, each update costs the cluster {@code 1 + (N-1)a} times the CPU of
 * running it on the master, so an update-heavy mix reaches at most {@code 1/(1+(N-1)a)} of the master's own rate.
 * CPU times, not wall times: with more threads than cores a wall time includes waiting for a core (on this project's
 * shared 2-core machine a single client's wall time per transaction was 1.5-3x its CPU time), which made an {@code a}
 * from wall times swing with the machine's load. The wall-time ratio is kept ({@link #wallA()}) for comparison.
 *
 * @param replicas               N, the master included
 * @param writeSets              write sets the slaves applied in the window, all slaves together
 * @param applyNanos             wall time the slaves' appliers spent on them, all slaves together
 * @param applyCpuNanos          CPU time the slaves' appliers used for them, all slaves together (0: not measured)
 * @param meanUpdateLatencyNanos mean latency of the update (not read-only) transactions completed in the window
 * @param meanUpdateCpuNanos     mean CPU time of a client thread per update transaction completed in the window
 */
public record ApplyCost(int replicas, long writeSets, long applyNanos, long applyCpuNanos,
                        double meanUpdateLatencyNanos, double meanUpdateCpuNanos) {

    /** The cost between two snapshots of a cluster's metrics taken at the start and end of the window. */
    public static ApplyCost between(ClusterMetrics start, ClusterMetrics end, double meanUpdateLatencyNanos,
                                    double meanUpdateCpuNanos) {
        return new ApplyCost(end.replicas().size(), slaveTotal(end, Total.WRITE_SETS) - slaveTotal(start,
                Total.WRITE_SETS), slaveTotal(end, Total.WALL) - slaveTotal(start, Total.WALL),
                slaveTotal(end, Total.CPU) - slaveTotal(start, Total.CPU), meanUpdateLatencyNanos,
                meanUpdateCpuNanos);
    }

    private enum Total { WRITE_SETS, WALL, CPU }

    private static long slaveTotal(ClusterMetrics m, Total total) {
        List<ClusterMetrics.Replica> slaves = m.replicas().subList(1, m.replicas().size()); // master first
        return slaves.stream().mapToLong(r -> switch (total) {
            case WRITE_SETS -> r.appliedWriteSets();
            case WALL -> r.applyNanos();
            case CPU -> r.applyCpuNanos();
        }).sum();
    }

    /** Mean wall time per write set on a slave, nanoseconds; NaN when none was applied. */
    public double applyNanosPerWriteSet() {
        return writeSets <= 0 ? Double.NaN : (double) applyNanos / writeSets;
    }

    /** Mean applier CPU time per write set on a slave, nanoseconds; NaN when none was applied or measured. */
    public double applyCpuNanosPerWriteSet() {
        return writeSets <= 0 || applyCpuNanos <= 0 ? Double.NaN : (double) applyCpuNanos / writeSets;
    }

    /** The apply cost ratio a, from CPU times; NaN when either is unknown. */
    public double a() {
        return meanUpdateCpuNanos > 0 ? applyCpuNanosPerWriteSet() / meanUpdateCpuNanos : Double.NaN;
    }

    /** The same ratio from wall times, to compare with figures measured before CPU times were. */
    public double wallA() {
        return meanUpdateLatencyNanos > 0 ? applyNanosPerWriteSet() / meanUpdateLatencyNanos : Double.NaN;
    }

    /** The write-heavy bound 1/(1+(N-1)a) for this trial's N; NaN when a is unknown (and N > 1). */
    public double writeBound() {
        return bound(replicas, a());
    }

    /** 1/(1+(N-1)a): the most an update-heavy mix can reach of the master's own rate with every core busy. */
    public static double bound(int replicas, double a) {
        return replicas <= 1 ? 1.0 : 1.0 / (1.0 + (replicas - 1) * a);
    }
}
