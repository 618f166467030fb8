package io.macrodb.bench.result;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The median and the spread (min..max) of one figure over repetitions. */
public record Stats(double median, double min, double max, int n) {

    /** Summarises {@code values}; an empty list gives NaNs and n = 0. */
    public static Stats of(List<Double> values) {
        if (values.isEmpty()) {
            return new Stats(Double.NaN, Double.NaN, Double.NaN, 0);
        }
        var sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return new Stats(median, sorted.get(0), sorted.get(n - 1), n);
    }

    public boolean isEmpty() {
        return n == 0;
    }
}
