package io.macrodb.bench.result;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The median and the spread (min..max) of one figure over repetitions, and a confidence interval for the median.
 *
 * @param ciLow  lower end of an interval that holds the true median with at least 95% confidence, from the order
 *               statistics of the values alone (no assumption about their distribution: on a shared machine they
 *               have outliers); NaN for fewer than 6 values, where no such interval exists
 * @param ciHigh its upper end
 */
public record Stats(double median, double min, double max, int n, double ciLow, double ciHigh) {

    /** Summarises {@code values}; an empty list gives NaNs and n = 0. */
    public static Stats of(List<Double> values) {
        if (values.isEmpty()) {
            return new Stats(Double.NaN, Double.NaN, Double.NaN, 0, Double.NaN, Double.NaN);
        }
        var sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        int k = medianCiRank(n);
        return new Stats(median, sorted.get(0), sorted.get(n - 1), n, k == 0 ? Double.NaN : sorted.get(k - 1),
                k == 0 ? Double.NaN : sorted.get(n - k));
    }

    /**
     * The rank k (1-based) such that the k-th smallest and the k-th largest of n values bound the median with at
     * least 95% confidence: the largest k with P(Binomial(n, 1/2) &lt; k) &le; 2.5% (each value falls below the
     * true median with probability one half); 0 where none does (n &lt; 6).
     */
    static int medianCiRank(int n) {
        double below = 0; // P(Binomial(n, 1/2) < k), for the k tried next
        double term = Math.pow(0.5, n); // P(Binomial(n, 1/2) = k - 1)
        int k = 0;
        while (k < n / 2) {
            below += term; // now P(< k + 1)
            if (below > 0.025) {
                break;
            }
            k++;
            term = term * (n - k + 1) / k;
        }
        return k;
    }

    public boolean isEmpty() {
        return n == 0;
    }

    public boolean hasCi() {
        return !Double.isNaN(ciLow);
    }
}
