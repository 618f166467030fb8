package io.macrodb.tpcw;

import io.macrodb.bench.result.Environment;
import io.macrodb.bench.result.Report;
import io.macrodb.bench.result.TrialResult;
import io.macrodb.bench.result.TypeResult;
import io.macrodb.bench.run.Comparison;
import io.macrodb.bench.run.RetryPolicy;
import io.macrodb.bench.run.RunConfig;
import io.macrodb.bench.run.ThinkTimes;
import io.macrodb.bench.targets.Presets;
import io.macrodb.bench.targets.Target;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Short runs through the harness, as the command line does them: load, warm up, measure, check every copy,
 * report. One on the engines alone, one through MacroDB (3 H2 replicas, as in the paper's Figure 8), which runs
 * as soon as the MacroDB driver is on the class path.
 */
class EndToEndTest {

    @TempDir
    Path out;

    @Test
    void shortRunOnTheEnginesAlone() throws Exception {
        List<TrialResult> trials = run(List.of("h2", "hsqldb"), "ordering");
        assertEquals(2, trials.size());
    }

    @Test
    void shortRunThroughMacroDb() throws Exception {
        assumeTrue(macroDbDriverPresent(), "the MacroDB driver is not on the class path yet");
        List<TrialResult> trials = run(List.of("h2", "macrodb-h2-r3"), "shopping");
        TrialResult macro = trials.get(1);
        assertTrue(macro.macroDb());
        assertEquals(3, macro.copiesChecked(), "the checks ran on all three replicas");
        assertTrue(macro.checksPassed().stream().anyMatch(c -> c.contains("identical")));
    }

    private List<TrialResult> run(List<String> targets, String mix) throws Exception {
        var workload = new TpcwWorkload(TinyDatabase.SCALE, TinyDatabase.SEED);
        List<Target> resolved = targets.stream().map(Presets::resolve).toList();
        var config = new RunConfig(resolved, List.of(4), List.of(workload.mix(mix)), 1, Duration.ofMillis(500),
                Duration.ofSeconds(2), TinyDatabase.SEED, targets.get(0), ThinkTimes.NONE, RetryPolicy.standard(),
                out);
        List<TrialResult> trials = new Comparison(workload, config, null, null).run();
        for (TrialResult trial : trials) {
            assertTrue(trial.throughput() > 0, trial.target() + " ran no interactions");
            long interactionTypesRun = trial.types().stream().filter(t -> t.completed() > 0).count();
            assertTrue(interactionTypesRun >= 6, trial.target() + " ran only " + interactionTypesRun + " kinds");
            for (TypeResult t : trial.types()) {
                assertEquals(t.readOnly(), io.macrodb.tpcw.interaction.Interaction.valueOf(
                        constantName(t.type())).readOnly());
            }
            assertEquals(workload.consistencyChecks().size() + (trial.macroDb() ? 1 : 0),
                    trial.checksPassed().size(), "every check passed: " + trial.checksPassed());
        }
        var report = new Report(workload.name(), Environment.capture(workload, config), trials, targets.get(0), null);
        for (Path file : report.writeAll(out)) {
            assertTrue(Files.size(file) > 0, file + " is empty");
        }
        assertTrue(report.table().contains("BuyConfirm"));
        return trials;
    }

    /** BuyConfirm -> BUY_CONFIRM. */
    private static String constantName(String displayName) {
        return displayName.replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase(java.util.Locale.ROOT);
    }

    private static boolean macroDbDriverPresent() {
        try {
            DriverManager.getDriver("jdbc:macrodb:h2:mem:probe;macrodb.replicas=2");
            return true;
        } catch (SQLException e) {
            return false;
        }
    }
}
