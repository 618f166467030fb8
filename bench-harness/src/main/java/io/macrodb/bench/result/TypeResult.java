package io.macrodb.bench.result;

/**
 * One transaction type's figures in one trial's measured window.
 *
 * @param type       the type's display name
 * @param readOnly   whether it ran as a read-only transaction
 * @param completed  transactions that finished (committed, or rolled back by their own profile)
 * @param userAborts of those, the ones rolled back by their profile (TPC-C's 1% New-Order)
 * @param retries    attempts that failed with a retryable SQLState and were run again
 * @param latency    time from the first attempt's start to the final commit or rollback, retries included
 * @param cpuNanos   CPU time the client threads used on the completed transactions, retries included
 * @param allocatedBytes heap the client threads allocated on the completed transactions, retries included
 */
public record TypeResult(String type, boolean readOnly, long completed, long userAborts, long retries,
                         LatencyHistogram latency, long cpuNanos, long allocatedBytes) {

    public double throughput(double seconds) {
        return completed / seconds;
    }

    /** Client CPU time per completed transaction of this type, microseconds; NaN when unknown. */
    public double cpuMicrosPerTransaction() {
        return cpuMicrosPer(cpuNanos, completed);
    }

    /** Heap the client threads allocated per completed transaction of this type, KiB; NaN when unknown. */
    public double allocatedKibPerTransaction() {
        return allocatedKibPer(allocatedBytes, completed);
    }

    /**
     * CPU time per transaction in microseconds; NaN without a transaction or without CPU time (a JVM that does not
     * measure thread CPU time gives 0: unknown, not free).
     */
    static double cpuMicrosPer(long cpuNanos, long transactions) {
        return perTransaction(cpuNanos, 1e3, transactions);
    }

    /**
     * Heap allocated per transaction in KiB; NaN without a transaction or without a count (a JVM that does not count
     * a thread's allocations gives 0). Unlike CPU time, it does not depend on what else the machine runs: the
     * steadiest measure of what a transaction costs the client thread (and, through the collector, the process).
     */
    static double allocatedKibPer(long allocatedBytes, long transactions) {
        return perTransaction(allocatedBytes, 1024.0, transactions);
    }

    /** {@code total / unit} per transaction; NaN without a transaction or a total (0: not measured). */
    private static double perTransaction(long total, double unit, long transactions) {
        return transactions > 0 && total > 0 ? total / unit / transactions : Double.NaN;
    }
}
