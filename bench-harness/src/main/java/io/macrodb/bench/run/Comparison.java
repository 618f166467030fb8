package io.macrodb.bench.run;

import io.macrodb.bench.Mix;
import io.macrodb.bench.Workload;
import io.macrodb.bench.result.TrialResult;
import io.macrodb.bench.targets.Target;

import java.io.PrintStream;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Runs a {@link RunConfig}: for each repetition, each mix, each client count, every target in turn (A B A B ...),
 * each on a freshly loaded database with the same seed. Prints one line per finished trial; stops at the first
 * {@link BenchmarkFailure}, keeping the trials finished so far for the reports.
 */
public final class Comparison {

    private final Workload workload;
    private final RunConfig config;
    private final PrintStream out;
    private final ProgressPrinter progress;
    private final List<TrialResult> completed = new ArrayList<>();

    /**
     * @param out           where a line per finished trial goes (null for none)
     * @param progressSink  where the live progress line and load bars go (null for none)
     */
    public Comparison(Workload workload, RunConfig config, PrintStream out, PrintStream progressSink) {
        this.workload = workload;
        this.config = config;
        this.out = out;
        this.progress = new ProgressPrinter(progressSink);
    }

    /** Runs every trial; returns them in the order they ran. */
    public List<TrialResult> run() throws BenchmarkFailure, SQLException {
        int total = config.repetitions() * config.mixes().size() * config.clients().size() * config.targets().size();
        int n = 0;
        var trial = new Trial(workload, config, progress);
        for (int rep = 1; rep <= config.repetitions(); rep++) {
            for (Mix mix : config.mixes()) {
                for (int clients : config.clients()) {
                    for (Target target : config.targets()) {
                        n++;
                        String label = String.format(Locale.ROOT, "[%d/%d] %s %s, %d client%s, rep %d", n, total,
                                target.name(), mix.name(), clients, clients == 1 ? "" : "s", rep);
                        try {
                            TrialResult r = trial.run(target, mix, clients, rep, label);
                            completed.add(r);
                            if (out != null) {
                                out.println(oneLine(label, r));
                                out.flush();
                            }
                        } catch (BenchmarkFailure e) {
                            var labelled = new BenchmarkFailure(label + ": " + e.getMessage(), e.getCause());
                            labelled.setStackTrace(e.getStackTrace());
                            for (Throwable s : e.getSuppressed()) {
                                labelled.addSuppressed(s);
                            }
                            throw labelled;
                        }
                    }
                }
            }
        }
        return List.copyOf(completed);
    }

    /** The trials finished so far (all of them after {@link #run} returned). */
    public List<TrialResult> completedTrials() {
        return List.copyOf(completed);
    }

    private static String oneLine(String label, TrialResult r) {
        var sb = new StringBuilder(label).append(String.format(Locale.ROOT, ": %,.0f tx/s", r.throughput()));
        r.rateMetrics().forEach((k, v) -> sb.append(String.format(Locale.ROOT, ", %s %,.0f", k, v)));
        sb.append(String.format(Locale.ROOT, ", retries %,d, load %.1f s, heap %,.0f MB, %d check%s passed on %d cop%s"
                        + " (%.1f s)", r.retries(), r.loadSeconds(), r.retainedHeap() / 1048576.0,
                r.checksPassed().size(), r.checksPassed().size() == 1 ? "" : "s", r.copiesChecked(),
                r.copiesChecked() == 1 ? "y" : "ies", r.checkSeconds()));
        if (r.applyCost() != null) {
            sb.append(String.format(Locale.ROOT, ", apply %.3f ms/write set, a %.2f, bound %.2fx",
                    r.applyCost().applyNanosPerWriteSet() / 1e6, r.applyCost().a(), r.applyCost().writeBound()));
        }
        return sb.toString();
    }
}
