package io.macrodb.bench.result;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatsTest {

    @TempDir
    Path dir;

    /** The ranks of a binomial table for the median (two-sided, at least 95%): none below 6 values. */
    @Test
    void theMedianIntervalsRankMatchesTheBinomialTable() {
        int[] expected = {0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 8, 8, 8, 9, 9, 10};
        for (int n = 1; n <= expected.length; n++) {
            assertEquals(expected[n - 1], Stats.medianCiRank(n), "n = " + n);
        }
    }

    @Test
    void anIntervalForTheMedianNeedsSixValues() {
        Stats twenty = Stats.of(IntStream.rangeClosed(1, 20).mapToObj(i -> (double) (21 - i)).toList());
        assertEquals(10.5, twenty.median());
        assertEquals(6.0, twenty.ciLow(), "the 6th smallest");
        assertEquals(15.0, twenty.ciHigh(), "the 6th largest");
        Stats six = Stats.of(List.of(3.0, 1.0, 2.0, 6.0, 5.0, 4.0));
        assertEquals(1.0, six.ciLow());
        assertEquals(6.0, six.ciHigh());
        Stats five = Stats.of(List.of(1.0, 2.0, 3.0, 4.0, 5.0));
        assertFalse(five.hasCi());
        assertTrue(Double.isNaN(five.ciLow()) && Double.isNaN(five.ciHigh()));
    }

    private static TrialResult trial(String target, int repetition, double seconds) {
        var latency = new LatencyHistogram();
        latency.record(1_000);
        List<TypeResult> types = List.of(new TypeResult("t", false, 100, 0, 0, latency, 1_000_000, 1024));
        return new TrialResult("m", target, "jdbc:x", "h2", target.startsWith("macrodb"), 1, repetition, seconds,
                types, 0.5, 0, 1_048_576, 1, List.of("ok"), 0.1, Map.of(), null);
    }

    /**
     * Six repetitions, MacroDB's ratios 0.8x..1.3x in steps of 0.1x: the table shows the interval (min..max with six
     * values), the CSV and the JSON carry it; with five repetitions there is no such column.
     */
    @Test
    void theReportGivesTheRatiosIntervalFromSixRepetitionsOn() throws Exception {
        var trials = new ArrayList<TrialResult>();
        for (int rep = 1; rep <= 6; rep++) {
            trials.add(trial("h2", rep, 1.0));
            trials.add(trial("macrodb-h2-r1", rep, 1.0 / (0.7 + 0.1 * rep)));
        }
        var report = new Report("toy", new Environment(Map.of()), trials, "h2", null);
        String table = report.table();
        assertTrue(table.contains("95% CI of median vs h2") && table.contains("[0.80x..1.30x]"), table);
        report.writeAll(dir);
        List<String> csv = Files.readAllLines(dir.resolve("summary.csv"));
        List<String> header = List.of(csv.get(0).split(","));
        String[] total = csv.stream().filter(l -> l.contains("macrodb-h2-r1") && l.contains("TOTAL")).findFirst()
                .orElseThrow().split(",");
        assertEquals(0.8, Double.parseDouble(total[header.indexOf("ratio_median_ci95_low")]), 1e-9);
        assertEquals(1.3, Double.parseDouble(total[header.indexOf("ratio_median_ci95_high")]), 1e-9);
        assertTrue(Files.readString(dir.resolve("results.json")).contains("\"medianCi95Low\""));

        var five = new Report("toy", new Environment(Map.of()), trials.subList(0, 10), "h2", null);
        assertFalse(five.table().contains("95% CI"), five.table());
    }
}
