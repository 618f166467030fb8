package io.macrodb.bench.result;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LatencyHistogramTest {

    @Test
    void percentilesAreWithinOnePercentOfTheExactValues() {
        var h = new LatencyHistogram();
        var r = new SplittableRandom(1);
        long[] values = new long[100_000];
        for (int i = 0; i < values.length; i++) {
            values[i] = (long) Math.exp(r.nextDouble(5, 22)); // ~150 ns .. ~3.5 s, log-uniform
            h.record(values[i]);
        }
        Arrays.sort(values);
        for (double p : new double[]{1, 50, 90, 95, 99, 99.9}) {
            long exact = values[(int) Math.ceil(p / 100 * values.length) - 1];
            long approx = h.percentile(p);
            assertTrue(Math.abs(approx - exact) <= exact / 100.0 + 1,
                    "p" + p + ": " + approx + " vs exact " + exact);
        }
        assertEquals(values[values.length - 1], h.max());
        assertEquals(values[values.length - 1], h.percentile(100));
        assertEquals(values.length, h.count());
    }

    @Test
    void smallValuesAreExactAndBucketsAreContiguous() {
        for (long v = 0; v < 100_000; v++) {
            int i = LatencyHistogram.index(v);
            assertTrue(LatencyHistogram.index(v + 1) - i <= 1, "gap after " + v);
        }
        var h = new LatencyHistogram();
        h.record(7);
        h.record(9);
        assertEquals(7, h.percentile(50));
        assertEquals(9, h.percentile(100));
    }

    @Test
    void mergingAddsCountsAndKeepsTheMaximum() {
        var a = new LatencyHistogram();
        var b = new LatencyHistogram();
        for (int i = 1; i <= 100; i++) {
            a.record(i * 1_000L);
            b.record(i * 1_000_000L);
        }
        a.add(b);
        assertEquals(200, a.count());
        assertEquals(100_000_000L, a.max());
        assertTrue(a.percentile(50) <= 100_000 * 1.01);
        assertTrue(a.percentile(51) >= 1_000_000 * 0.99);
    }

    @Test
    void emptyHistogramReportsZeroAndRefusesBadPercentiles() {
        var h = new LatencyHistogram();
        assertEquals(0, h.percentile(99));
        assertEquals(0, h.max());
        assertThrows(IllegalArgumentException.class, () -> h.percentile(101));
    }
}
