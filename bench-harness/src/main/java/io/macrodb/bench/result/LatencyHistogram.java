package io.macrodb.bench.result;

/**
 * Latencies in nanoseconds, counted in log-spaced buckets: exact below 64 ns, then 64 buckets per power of two,
 * so any percentile is within 1% of the true value; the maximum is kept exactly. About 20 KB, no allocation per
 * sample, so every client thread records into its own histograms and the harness merges them afterwards.
 * Not thread-safe.
 */
public final class LatencyHistogram {

    private static final int SUB_BITS = 6;
    private static final int SUB = 1 << SUB_BITS;
    /** Values at or above 2^42 ns (73 minutes) are clamped into the last bucket. */
    private static final int MAX_EXPONENT = 42;
    private static final int BUCKETS = (MAX_EXPONENT - SUB_BITS + 2) * SUB;

    private final long[] counts = new long[BUCKETS];
    private long count;
    private long max;
    private long min = Long.MAX_VALUE;
    private double sum;

    /** Records one latency; negative values count as 0. */
    public void record(long nanos) {
        long v = Math.max(0, nanos);
        counts[index(v)]++;
        count++;
        sum += v;
        if (v > max) {
            max = v;
        }
        if (v < min) {
            min = v;
        }
    }

    /** Adds every sample of {@code other} to this histogram. */
    public void add(LatencyHistogram other) {
        for (int i = 0; i < BUCKETS; i++) {
            counts[i] += other.counts[i];
        }
        count += other.count;
        sum += other.sum;
        max = Math.max(max, other.max);
        min = Math.min(min, other.min);
    }

    public long count() {
        return count;
    }

    /** The largest value recorded, exactly; 0 when empty. */
    public long max() {
        return max;
    }

    /** The mean in nanoseconds; 0 when empty. */
    public double mean() {
        return count == 0 ? 0 : sum / count;
    }

    /**
     * The value at percentile {@code p} (0..100): the smallest bucket value such that at least p% of samples are at
     * or below it, reported as the bucket's midpoint and never above the exact maximum. 0 when empty.
     */
    public long percentile(double p) {
        if (p < 0 || p > 100) {
            throw new IllegalArgumentException("percentile must be in 0..100: " + p);
        }
        if (count == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(p / 100.0 * count));
        if (rank >= count) {
            return max;
        }
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return Math.max(min, Math.min(max, midpoint(i)));
            }
        }
        return max;
    }

    static int index(long v) {
        if (v < SUB) {
            return (int) v;
        }
        int exponent = 63 - Long.numberOfLeadingZeros(v);
        if (exponent > MAX_EXPONENT) {
            return BUCKETS - 1;
        }
        int shift = exponent - SUB_BITS;
        int sub = (int) (v >>> shift) & (SUB - 1);
        return (shift + 1) * SUB + sub;
    }

    static long midpoint(int index) {
        if (index < SUB) {
            return index;
        }
        int shift = index / SUB - 1;
        long lower = (long) (SUB + index % SUB) << shift;
        return lower + ((1L << shift) >> 1);
    }
}
