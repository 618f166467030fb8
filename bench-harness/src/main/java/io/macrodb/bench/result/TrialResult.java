package io.macrodb.bench.result;

import java.util.List;
import java.util.Map;

/**
 * Everything measured in one trial: one target, one mix, one client count, one repetition, on a freshly loaded
 * database.
 *
 * @param heapBeforeLoad  used heap after GC before the load, bytes
 * @param heapAfterLoad   used heap after GC once loaded (and, for MacroDB, every slave caught up), bytes
 * @param copiesChecked   how many copies the consistency checks ran on (1, or the number of MacroDB replicas)
 * @param checksPassed    the checks that passed on every copy
 * @param checkSeconds    how long the checks took (all copies)
 * @param rateMetrics     headline figures such as tpmC, by name
 * @param applyCost       for MacroDB, what applying the window's writes on the slaves cost; null for a bare engine
 */
public record TrialResult(String mix, String target, String url, String engine, boolean macroDb, int clients,
                          int repetition, double measuredSeconds, List<TypeResult> types, double loadSeconds,
                          long heapBeforeLoad, long heapAfterLoad, int copiesChecked, List<String> checksPassed,
                          double checkSeconds, Map<String, Double> rateMetrics, ApplyCost applyCost) {

    /** Retained heap of the loaded database: used heap after load minus before, bytes (GC'd both times). */
    public long retainedHeap() {
        return heapAfterLoad - heapBeforeLoad;
    }

    public long completed() {
        return types.stream().mapToLong(TypeResult::completed).sum();
    }

    public long retries() {
        return types.stream().mapToLong(TypeResult::retries).sum();
    }

    public long userAborts() {
        return types.stream().mapToLong(TypeResult::userAborts).sum();
    }

    /** CPU time the client threads used on the completed transactions, retries included, nanoseconds. */
    public long cpuNanos() {
        return types.stream().mapToLong(TypeResult::cpuNanos).sum();
    }

    /**
     * The client threads' CPU time per completed transaction, all types together, microseconds; NaN when unknown.
     * Thread CPU time leaves out waiting for a core or a lock, so on a shared machine it is a steadier measure of what
     * a transaction costs than throughput is.
     */
    public double cpuMicrosPerTransaction() {
        return TypeResult.cpuMicrosPer(cpuNanos(), completed());
    }

    /** Heap the client threads allocated on the completed transactions, retries included, bytes. */
    public long allocatedBytes() {
        return types.stream().mapToLong(TypeResult::allocatedBytes).sum();
    }

    /** Heap the client threads allocated per completed transaction, all types together, KiB; NaN when unknown. */
    public double allocatedKibPerTransaction() {
        return TypeResult.allocatedKibPer(allocatedBytes(), completed());
    }

    /** Completed transactions per second over the measured window. */
    public double throughput() {
        return completed() / measuredSeconds;
    }

    /** All types' latencies together. */
    public LatencyHistogram totalLatency() {
        var all = new LatencyHistogram();
        types.forEach(t -> all.add(t.latency()));
        return all;
    }
}
