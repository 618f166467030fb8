package io.macrodb.bench.run;

import io.macrodb.bench.Mix;
import io.macrodb.bench.Workload;
import io.macrodb.bench.result.TrialResult;
import io.macrodb.bench.targets.Target;

import java.io.PrintStream;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntFunction;

/**
 * Runs a {@link RunConfig}: for each repetition, each mix, each client count, every target in turn (A B A B ...),
 * each on a freshly loaded database with the same seed; or, under {@link LoadPolicy#SWEEP}, for each repetition and
 * mix every target in turn, each loading once and running every client count on that database. A priming trial per
 * target, not recorded, runs first. Prints one line per finished trial; stops at the first
 * {@link BenchmarkFailure}, keeping the trials finished so far for the reports.
 */
public final class Comparison {

    private final Workload workload;
    private final RunConfig config;
    private final PrintStream out;
    private final ProgressPrinter progress;
    /** Read by a report written while the run goes on (the process being stopped). */
    private final List<TrialResult> completed = new CopyOnWriteArrayList<>();

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
        prime(new Trial(workload, config.forPriming(), progress));
        var trial = new Trial(workload, config, progress);
        for (int rep = 1; rep <= config.repetitions(); rep++) {
            for (Mix mix : config.mixes()) {
                if (config.load() == LoadPolicy.SWEEP) {
                    for (Target target : config.targets()) {
                        int first = completed.size() + 1;
                        int r = rep;
                        IntFunction<String> label = clients -> label(first + config.clients().indexOf(clients), total,
                                target, mix, clients, r);
                        keep(label, () -> trial.sweep(target, mix, config.clients(), r, label));
                    }
                } else {
                    for (int clients : config.clients()) {
                        for (Target target : config.targets()) {
                            String label = label(completed.size() + 1, total, target, mix, clients, rep);
                            int r = rep;
                            keep(n -> label, () -> List.of(trial.run(target, mix, clients, r, label)));
                        }
                    }
                }
            }
        }
        return List.copyOf(completed);
    }

    /**
     * Runs one trial per target, not recorded, before anything is measured. A JVM's first trial runs on code the JIT
     * has not compiled yet and on a heap G1 has not sized yet: measured, the same target ran up to 1.4x faster second
     * in a run than first (5 s warm-up), which biased the first repetition toward whichever target came later. Until
     * 2026-11-29 one trial per engine primed the run, and MacroDB's own code (its driver, capture and appliers) was
     * first compiled in its first measured trial. The JIT goes on for tens of seconds all the same: on the lent
     * 16-core machine, 2 s warm-ups, every target's first repetition at one client ran 10-29% below its third, the
     * primed engines' too (H2 alone 10%, HSQLDB alone 29%, MacroDB's targets 21-27%); priming each target gives each
     * the same start. A priming trial runs for the warm-up ({@link RunConfig#forPriming}), with no failure drill; its
     * checks still run: one that fails the consistency checks fails the run.
     */
    private void prime(Trial trial) throws BenchmarkFailure, SQLException {
        int clients = Collections.max(config.clients());
        for (Target target : config.targets()) {
            String label = String.format(Locale.ROOT, "[priming, not recorded] %s %s, %d client%s",
                    target.name(), config.mixes().get(0).name(), clients, clients == 1 ? "" : "s");
            try {
                trial.run(target, config.mixes().get(0), clients, 0, label);
            } catch (BenchmarkFailure e) {
                throw relabelled(label, e);
            }
            println(label + ": done");
        }
    }

    private void println(String line) {
        if (out != null) {
            out.println(line);
            out.flush();
        }
    }

    private static String label(int n, int total, Target target, Mix mix, int clients, int rep) {
        return String.format(Locale.ROOT, "[%d/%d] %s %s, %d client%s, rep %d", n, total, target.name(), mix.name(),
                clients, clients == 1 ? "" : "s", rep);
    }

    /**
     * Runs trials, keeps and prints their results; a failure is re-thrown with the label of the first trial (a sweep
     * fails as a whole) in front.
     *
     * @param label a trial's label by its client count
     */
    private void keep(IntFunction<String> label, TrialCall trials) throws BenchmarkFailure, SQLException {
        List<TrialResult> results;
        try {
            results = trials.run();
        } catch (BenchmarkFailure e) {
            throw relabelled(label.apply(config.clients().get(0)), e);
        }
        for (TrialResult r : results) {
            completed.add(r);
            println(oneLine(label.apply(r.clients()), r));
        }
    }

    private static BenchmarkFailure relabelled(String label, BenchmarkFailure e) {
        var labelled = new BenchmarkFailure(label + ": " + e.getMessage(), e.getCause());
        labelled.setStackTrace(e.getStackTrace());
        for (Throwable s : e.getSuppressed()) {
            labelled.addSuppressed(s);
        }
        return labelled;
    }

    @FunctionalInterface
    private interface TrialCall {
        List<TrialResult> run() throws BenchmarkFailure, SQLException;
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
        if (r.applyCost() != null && r.applyCost().writeSets() > 0) { // none without slaves or without writes
            sb.append(String.format(Locale.ROOT, ", apply %.3f ms/write set (CPU %.3f ms), a %.2f, bound %.2fx",
                    r.applyCost().applyNanosPerWriteSet() / 1e6, r.applyCost().applyCpuNanosPerWriteSet() / 1e6,
                    r.applyCost().a(), r.applyCost().writeBound()));
        }
        return sb.toString();
    }
}
