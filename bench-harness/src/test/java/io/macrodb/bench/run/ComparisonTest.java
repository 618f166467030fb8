package io.macrodb.bench.run;

import io.macrodb.bench.result.ApplyCost;
import io.macrodb.bench.result.Environment;
import io.macrodb.bench.result.Report;
import io.macrodb.bench.result.SummaryRow;
import io.macrodb.bench.result.TrialResult;
import io.macrodb.bench.result.TypeResult;
import io.macrodb.bench.targets.Presets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ComparisonTest {

    @TempDir
    Path dir;

    private RunConfig config(ToyWorkload w, List<Integer> clients, int repetitions) {
        return new RunConfig(Presets.resolveAll("h2,hsqldb"), clients, w.mixes(), repetitions, Duration.ofMillis(100),
                Duration.ofMillis(400), 7, "h2", ThinkTimes.NONE, RetryPolicy.standard(), dir);
    }

    @Test
    void interleavesTargetsMeasuresChecksAndReports() throws Exception {
        var w = new ToyWorkload();
        RunConfig config = config(w, List.of(1, 2), 2);
        List<TrialResult> trials = new Comparison(w, config, null, null).run();

        // rep 1: (1 client: h2, hsqldb), (2 clients: h2, hsqldb); rep 2: the same again
        assertEquals(List.of("h2/1/1", "hsqldb/1/1", "h2/2/1", "hsqldb/2/1", "h2/1/2", "hsqldb/1/2", "h2/2/2",
                "hsqldb/2/2"), trials.stream().map(t -> t.target() + "/" + t.clients() + "/" + t.repetition()).toList());
        for (TrialResult t : trials) {
            assertTrue(t.completed() > 0, t.toString());
            assertTrue(t.measuredSeconds() >= 0.39 && t.measuredSeconds() < 1, "window " + t.measuredSeconds());
            assertEquals(List.of("total balance is 1000"), t.checksPassed());
            TypeResult abort = t.types().stream().filter(x -> x.type().equals("abort")).findFirst().orElseThrow();
            assertEquals(abort.completed(), abort.userAborts());
            assertEquals(t.completed(), t.totalLatency().count());
            assertTrue(t.cpuMicrosPerTransaction() > 0, "the client threads' CPU time was measured: " + t);
        }
        assertFalse(w.readOnlySeen.isEmpty());
        assertTrue(w.readOnlySeen.stream().allMatch(b -> b), "read-only flag set exactly for read-only types");

        var report = new Report(w.name(), Environment.capture(w, config), trials, "h2", null);
        List<SummaryRow> rows = report.summary();
        assertEquals(4, rows.size());
        SummaryRow h2 = rows.get(0);
        assertEquals("h2", h2.target());
        assertEquals(1.0, h2.ratio().median(), 1e-9);
        assertEquals(1.0, h2.cpuRatio().median(), 1e-9);
        assertEquals(2, h2.throughput().n());
        String table = report.table();
        assertTrue(table.contains("vs h2") && table.contains("hsqldb") && table.contains("transfer"), table);

        List<Path> files = report.writeAll(dir);
        for (String f : List.of("summary.txt", "trials.csv", "summary.csv", "results.json",
                "throughput-mostly-writes.png", "memory.png")) {
            assertTrue(Files.size(dir.resolve(f)) > 0, f);
            assertTrue(files.contains(dir.resolve(f)), f);
        }
        assertEquals(960, ImageIO.read(dir.resolve("memory.png").toFile()).getWidth());
        List<String> csv = Files.readAllLines(dir.resolve("trials.csv"));
        assertEquals(1 + 8 * 4, csv.size(), "header + (3 types + TOTAL) per trial");
        assertTrue(Files.readString(dir.resolve("results.json")).contains("\"status\": \"passed\""));
    }

    @Test
    void sweepLoadsOncePerTargetMixAndRepetitionAndRunsTheClientCountsInOrder() throws Exception {
        var w = new ToyWorkload();
        var c = config(w, List.of(1, 2), 1);
        var sweep = new RunConfig(c.targets(), c.clients(), c.mixes(), 1, c.warmup(), c.duration(), c.seed(), "h2",
                ThinkTimes.NONE, c.retryPolicy(), dir, LoadPolicy.SWEEP);
        List<TrialResult> trials = new Comparison(w, sweep, null, null).run();

        assertEquals(List.of("h2/1", "h2/2", "hsqldb/1", "hsqldb/2"),
                trials.stream().map(t -> t.target() + "/" + t.clients()).toList());
        assertEquals(2 + 2, w.loads.get(), "one load per target, and one per target for the unrecorded priming trial");
        for (TrialResult t : trials) {
            assertTrue(t.completed() > 0, t.toString());
            assertEquals(List.of("total balance is 1000"), t.checksPassed());
        }

        var leaky = new ToyWorkload();
        leaky.leak = true;
        var failing = new RunConfig(c.targets(), c.clients(), leaky.mixes(), 1, c.warmup(), c.duration(), c.seed(),
                "h2", ThinkTimes.NONE, c.retryPolicy(), dir, LoadPolicy.SWEEP);
        var e = assertThrows(BenchmarkFailure.class, () -> new Comparison(leaky, failing, null, null).run());
        assertTrue(e.getMessage().contains("CORRECTNESS CHECK FAILED"), e.getMessage());
    }

    /** Results are kept and compared by target name: a name given twice would merge two targets' figures. */
    @Test
    void aTargetNameGivenTwiceIsRefused() {
        var w = new ToyWorkload();
        var c = config(w, List.of(1), 1);
        var e = assertThrows(IllegalArgumentException.class, () -> new RunConfig(Presets.resolveAll(
                "h2,h2=jdbc:h2:mem:{db}"), c.clients(), c.mixes(), 1, c.warmup(), c.duration(), c.seed(), null,
                ThinkTimes.NONE, c.retryPolicy(), dir));
        assertTrue(e.getMessage().contains("'h2' is listed twice"), e.getMessage());
    }

    /**
     * Every target gets its unrecorded priming trial, two targets of one engine too: primed once per engine, MacroDB's
     * own code was still being compiled in its first measured trial.
     */
    @Test
    void everyTargetIsPrimedBeforeAnythingIsMeasured() throws Exception {
        var w = new ToyWorkload();
        var c = config(w, List.of(1), 1);
        var out = new java.io.ByteArrayOutputStream();
        var twoOfOneEngine = new RunConfig(Presets.resolveAll("h2,macrodb-h2-r2"), c.clients(), c.mixes(), 1,
                c.warmup(), c.duration(), c.seed(), "h2", ThinkTimes.NONE, c.retryPolicy(), dir, LoadPolicy.TRIAL);
        List<TrialResult> trials = new Comparison(w, twoOfOneEngine, new java.io.PrintStream(out, true), null).run();

        assertEquals(2, trials.size());
        assertEquals(2 + 2, w.loads.get(), "one load per trial, and one per target for the priming trial");
        String printed = out.toString(java.nio.charset.StandardCharsets.UTF_8);
        for (String target : List.of("h2", "macrodb-h2-r2")) {
            assertTrue(printed.contains("[priming, not recorded] " + target + " "), printed);
        }
        assertTrue(printed.indexOf("[priming, not recorded] macrodb-h2-r2") < printed.indexOf("[1/2]"), printed);
    }

    /** --fail-replica: the slave, then the master, fails mid-window; the clients retry, the checks pass on all. */
    @Test
    void aFailureDrillFailsAReplicaMidWindowAndTheChecksStillPassOnEveryReplica() throws Exception {
        var w = new ToyWorkload();
        var c = config(w, List.of(2), 1);
        for (int replica : List.of(1, 0)) {
            var out = new java.io.ByteArrayOutputStream();
            var config = new RunConfig(Presets.resolveAll("h2,macrodb-h2-r2"), c.clients(), c.mixes(), 1,
                    c.warmup(), c.duration(), c.seed(), null, ThinkTimes.NONE, c.retryPolicy(), dir, LoadPolicy.TRIAL,
                    new FailureDrill(replica, Duration.ofMillis(150)));
            List<TrialResult> trials = new Comparison(w, config, null,
                    new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8)).run();
            String progress = out.toString(java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(progress.contains("drill: replica " + replica + " failed"), progress);
            assertTrue(progress.contains("drill: all 2 replicas healthy again"), progress);
            assertEquals(1, progress.split("drill: replica", -1).length - 1, "only the MacroDB trial has a drill: "
                    + progress);
            TrialResult macrodb = trials.get(1);
            assertTrue(macrodb.checksPassed().contains(CorrectnessVerifier.IDENTICAL_REPLICAS),
                    macrodb.checksPassed().toString());
            assertTrue(macrodb.completed() > 0);
            assertEquals(null, macrodb.applyCost(), "the replicas changed during the window: no apply cost");
        }
    }

    @Test
    void measuresTheApplyCostAndTheWriteBoundOfMacroDbTargetsOnly() throws Exception {
        var w = new ToyWorkload();
        var c = config(w, List.of(2), 1);
        var config = new RunConfig(Presets.resolveAll("h2,macrodb-h2-r2"), c.clients(), c.mixes(), 1, c.warmup(),
                c.duration(), c.seed(), null, ThinkTimes.NONE, c.retryPolicy(), dir);
        List<TrialResult> trials = new Comparison(w, config, null, null).run();
        assertEquals(null, trials.get(0).applyCost(), "bare engine");
        ApplyCost cost = trials.get(1).applyCost();
        assertEquals(2, cost.replicas());
        assertTrue(cost.writeSets() > 0 && cost.applyNanos() > 0 && cost.applyCpuNanos() > 0, cost.toString());
        assertTrue(cost.meanUpdateCpuNanos() > 0, "the clients' CPU time per update was measured: " + cost);
        assertTrue(trials.get(1).allocatedKibPerTransaction() > 0, "the clients' allocations were counted");
        assertTrue(cost.a() > 0 && cost.writeBound() > 0 && cost.writeBound() < 1, cost.toString());

        var report = new Report(w.name(), Environment.capture(w, config), trials, null, null);
        String table = report.table();
        assertTrue(table.contains("a (apply cost)") && table.contains("bound 1/(1+(N-1)a)")
                && table.contains("CPU times, not wall times"), table);
        String h2Row = table.lines().filter(l -> l.startsWith("h2 ")).findFirst().orElseThrow();
        assertTrue(h2Row.contains(" -  "), "bare engine shows -: " + h2Row);
        report.writeAll(dir);
        List<String> csv = Files.readAllLines(dir.resolve("trials.csv"));
        assertTrue(csv.get(0).contains(",apply_ms_per_writeset,apply_cpu_ms_per_writeset,apply_cost_a,"
                + "apply_cost_wall_a,write_bound"), csv.get(0));
        String json = Files.readString(dir.resolve("results.json"));
        assertTrue(json.contains("\"applyCostA\"") && json.contains("\"applyCostWallA\""), json);
    }

    @Test
    void specThinkTimesPaceEachClient() throws Exception {
        var w = new ToyWorkload();
        var c = config(w, List.of(2), 1);
        var paced = new RunConfig(c.targets().subList(0, 1), c.clients(), c.mixes(), 1, c.warmup(), Duration.ofMillis(800),
                c.seed(), null, ThinkTimes.SPEC, c.retryPolicy(), dir);
        TrialResult t = new Comparison(w, paced, null, null).run().get(0);
        // 40 ms keying + 60 ms mean think time: about 10 transactions per second per client, never thousands
        assertTrue(t.completed() >= 3 && t.completed() <= 40, "paced: " + t.completed());
    }

    @Test
    void aViolatedCheckFailsTheRunLoudly() {
        var w = new ToyWorkload();
        w.leak = true;
        var comparison = new Comparison(w, config(w, List.of(2), 1), null, null);
        var e = assertThrows(BenchmarkFailure.class, comparison::run);
        assertTrue(e.getMessage().contains("CORRECTNESS CHECK FAILED") && e.getMessage().contains("total is"),
                e.getMessage());
        assertTrue(comparison.completedTrials().isEmpty());
    }

    @Test
    void aNonRetryableErrorFailsTheRunAndRetryableOnesAreRetriedAndCounted() throws Exception {
        var broken = new ToyWorkload();
        broken.failHard = true;
        var e = assertThrows(BenchmarkFailure.class, () -> new Comparison(broken, config(broken, List.of(1), 1), null,
                null).run());
        assertTrue(e.getMessage().contains("not retryable") && e.getMessage().contains("broken on purpose")
                && e.getMessage().contains("42000"), "the first error is on the message's line: " + e.getMessage());
        assertFalse(List.of(e.getSuppressed()).isEmpty());

        var flaky = new ToyWorkload();
        flaky.failRetryable = true;
        List<TrialResult> trials = new Comparison(flaky, config(flaky, List.of(1), 1), null, null).run();
        for (TrialResult t : trials) {
            assertTrue(t.retries() > 0, "retries counted");
        }
    }

    /**
     * A client whose connection breaks goes on over a new one with everything it holds (its session, the inputs of the
     * transaction it retries): until 2026-11-23 the harness made a fresh client instead, and a TPC-W browser then
     * started a fresh session whose next interaction might need a cart it never had.
     */
    @Test
    void aClientWhoseConnectionBreaksGoesOnOverANewOne() throws Exception {
        var w = new ToyWorkload();
        w.breakConnectionOnce.set(true);
        RunConfig c = config(w, List.of(2), 1);
        var h2Only = new RunConfig(Presets.resolveAll("h2"), c.clients(), c.mixes(), 1, c.warmup(), c.duration(),
                c.seed(), "h2", ThinkTimes.NONE, c.retryPolicy(), dir);
        List<TrialResult> trials = new Comparison(w, h2Only, null, null).run();
        assertFalse(w.breakConnectionOnce.get(), "a transfer ran and broke its connection");
        assertEquals(1, w.reconnects.get());
        int primingClients = w.clientsMade.get() - 2;
        assertTrue(primingClients >= 0 && primingClients <= 2, "one client per thread, none made again: "
                + w.clientsMade.get());
        assertTrue(trials.get(0).retries() + trials.get(0).completed() > 0);
        assertEquals(List.of("total balance is 1000"), trials.get(0).checksPassed());
    }
}
