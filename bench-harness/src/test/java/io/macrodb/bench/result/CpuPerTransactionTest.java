package io.macrodb.bench.result;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CpuPerTransactionTest {

    private static final String BASELINE = "h2";
    private static final String MACRODB = "macrodb-h2-r1";

    @TempDir
    Path dir;

    private static TypeResult type(String name, boolean readOnly, long completed, long cpuNanos) {
        return type(name, readOnly, completed, cpuNanos, 0);
    }

    private static TypeResult type(String name, boolean readOnly, long completed, long cpuNanos, long allocated) {
        var latency = new LatencyHistogram();
        for (long i = 1; i <= completed; i++) {
            latency.record(i * 1_000);
        }
        return new TypeResult(name, readOnly, completed, 0, 0, latency, cpuNanos, allocated);
    }

    /**
     * One second, 40 transactions: 30 reads of {@code 50 * scale} µs of CPU each and 10 writes of {@code 250 * scale}
     * µs each, so {@code 100 * scale} µs per transaction in all (the mean of the two types' figures would be 150).
     * The reads allocate {@code 2 * scale} KiB each, the writes {@code 10 * scale} KiB: {@code 4 * scale} KiB per
     * transaction in all.
     */
    private static TrialResult trial(String target, int repetition, double scale) {
        List<TypeResult> types = List.of(
                type("read", true, 30, Math.round(30 * 50_000 * scale), Math.round(30 * 2048 * scale)),
                type("write", false, 10, Math.round(10 * 250_000 * scale), Math.round(10 * 10240 * scale)));
        return new TrialResult("m", target, "jdbc:x", "h2", target.startsWith("macrodb"), 1, repetition, 1.0, types,
                0.5, 0, 1_048_576, 1, List.of("ok"), 0.1, Map.of(), null);
    }

    /**
     * The baseline's CPU per transaction is 100, 200, 150 µs in repetitions 1..3, MacroDB's 110, 210, 300 µs: paired
     * by repetition, 1.10x, 1.05x and 2.00x. Unpaired (210 over 150) or paired in sorted order it would be 1.40x.
     */
    private static Report report() {
        double[] baselineScales = {1.0, 2.0, 1.5};
        double[] macroDbScales = {1.1, 2.1, 3.0};
        var trials = new ArrayList<TrialResult>();
        for (int rep = 1; rep <= 3; rep++) {
            trials.add(trial(BASELINE, rep, baselineScales[rep - 1]));
            trials.add(trial(MACRODB, rep, macroDbScales[rep - 1]));
        }
        return new Report("toy", new Environment(Map.of()), trials, BASELINE, null);
    }

    @Test
    void aTrialsCpuPerTransactionIsItsTypesCpuTimeOverAllItsTransactions() {
        TrialResult t = trial(BASELINE, 1, 1.0);
        assertEquals(4_000_000, t.cpuNanos());
        assertEquals(100.0, t.cpuMicrosPerTransaction(), 1e-9);
        assertEquals(50.0, t.types().get(0).cpuMicrosPerTransaction(), 1e-9);
        assertEquals(250.0, t.types().get(1).cpuMicrosPerTransaction(), 1e-9);
        assertTrue(Double.isNaN(type("none", false, 0, 0).cpuMicrosPerTransaction()), "no transaction");
        assertTrue(Double.isNaN(type("unmeasured", false, 5, 0).cpuMicrosPerTransaction()), "unknown, not free");
    }

    @Test
    void aTrialsAllocationPerTransactionIsItsTypesBytesOverAllItsTransactions() {
        TrialResult t = trial(BASELINE, 1, 1.0);
        assertEquals(30 * 2048 + 10 * 10240, t.allocatedBytes());
        assertEquals(4.0, t.allocatedKibPerTransaction(), 1e-9);
        assertEquals(2.0, t.types().get(0).allocatedKibPerTransaction(), 1e-9);
        assertEquals(10.0, t.types().get(1).allocatedKibPerTransaction(), 1e-9);
        assertTrue(Double.isNaN(type("unmeasured", false, 5, 1).allocatedKibPerTransaction()), "unknown, not free");
    }

    @Test
    void theSummaryGivesTheMedianAndTheRatioToTheBaselinePairedByRepetition() {
        SummaryRow macroDb = report().summary().get(1);
        assertEquals(MACRODB, macroDb.target());
        assertStats(210, 110, 300, macroDb.cpuMicros());
        assertStats(1.10, 1.05, 2.00, macroDb.cpuRatio());
        assertStats(1.10, 1.05, 2.00, macroDb.allocatedRatio()); // allocations scale as the CPU times do here
        assertStats(1.0, 1.0, 1.0, macroDb.ratio()); // the same throughput: the CPU figures differ, not the rates
        SummaryRow.TypeSummary write = macroDb.types().get(1);
        assertEquals("write", write.type());
        assertStats(525, 275, 750, write.cpuMicros());
        assertStats(1.0, 1.0, 1.0, report().summary().get(0).cpuRatio());
    }

    @Test
    void theTableShowsBothColumnsAndExplainsThem() {
        String table = report().table();
        List<String> lines = table.lines().toList();
        List<String> head = cells(lines.get(1));
        List<String> row = cells(lines.stream().filter(l -> l.startsWith(MACRODB)).findFirst().orElseThrow());
        assertEquals("210.0 [110.0..300.0]", row.get(head.indexOf("CPU µs/tx")), table);
        assertEquals("1.10x [1.05x..2.00x]", row.get(head.indexOf("CPU/tx vs h2")), table);
        assertTrue(table.contains("CPU µs/tx = the client threads' CPU time per completed transaction")
                && table.contains("CPU/tx vs h2 = that over h2's in the same repetition"), table);
    }

    @Test
    void theCsvFilesAndJsonCarryTheFigures() throws Exception {
        report().writeAll(dir);
        List<String> summary = Files.readAllLines(dir.resolve("summary.csv"));
        List<String> header = csvCells(summary.get(0));
        List<String> total = csvRow(summary, MACRODB + ",1,3,TOTAL,");
        assertEquals(header.size(), total.size());
        assertEquals("210.0000", total.get(header.indexOf("cpu_us_per_tx_median")));
        assertEquals("1.1000", total.get(header.indexOf("cpu_ratio_median")));
        assertEquals("1.0500", total.get(header.indexOf("cpu_ratio_min")));
        assertEquals("2.0000", total.get(header.indexOf("cpu_ratio_max")));
        assertEquals("8.4000", total.get(header.indexOf("alloc_kib_per_tx_median")));
        assertEquals("1.1000", total.get(header.indexOf("alloc_ratio_median")));
        assertEquals("1.0500", total.get(header.indexOf("alloc_ratio_min")));
        assertEquals("2.0000", total.get(header.indexOf("alloc_ratio_max")));
        List<String> write = csvRow(summary, MACRODB + ",1,3,write,");
        assertEquals(header.size(), write.size());
        assertEquals("525.0000", write.get(header.indexOf("cpu_us_per_tx_median")));
        assertEquals("", write.get(header.indexOf("cpu_ratio_median")), "a whole-target figure");

        List<String> trials = Files.readAllLines(dir.resolve("trials.csv"));
        int cpu = csvCells(trials.get(0)).indexOf("cpu_us_per_tx");
        assertEquals("100.0000", csvRow(trials, "m," + BASELINE + ",h2,false,1,1,TOTAL,").get(cpu));
        assertEquals("50.0000", csvRow(trials, "m," + BASELINE + ",h2,false,1,1,read,").get(cpu));
        int allocated = csvCells(trials.get(0)).indexOf("alloc_kib_per_tx");
        assertEquals("4.0000", csvRow(trials, "m," + BASELINE + ",h2,false,1,1,TOTAL,").get(allocated));
        assertEquals("10.0000", csvRow(trials, "m," + BASELINE + ",h2,false,1,1,write,").get(allocated));

        String json = Files.readString(dir.resolve("results.json"));
        assertTrue(json.contains("\"cpuMicrosPerTransaction\": 100,")
                && json.contains("\"allocatedKibPerTransaction\": 4,") && json.contains("\"allocatedRatioToBaseline\"")
                && json.contains("\"cpuRatioToBaseline\""),
                json);
    }

    private static void assertStats(double median, double min, double max, Stats s) {
        assertEquals(List.of(median, min, max), List.of(round(s.median()), round(s.min()), round(s.max())),
                s.toString());
    }

    private static double round(double v) {
        return Math.round(v * 1e6) / 1e6;
    }

    /** A table line's cells: columns are at least two spaces apart, and no cell holds two spaces. */
    private static List<String> cells(String line) {
        return Arrays.asList(line.trim().split("\\s{2,}"));
    }

    private static List<String> csvCells(String line) {
        return Arrays.asList(line.split(",", -1));
    }

    private static List<String> csvRow(List<String> lines, String prefix) {
        return csvCells(lines.stream().filter(l -> l.contains(prefix)).findFirst().orElseThrow(
                () -> new AssertionError(prefix + " in " + lines)));
    }
}
