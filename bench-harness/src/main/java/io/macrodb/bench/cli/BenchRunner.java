package io.macrodb.bench.cli;

import io.macrodb.bench.Mix;
import io.macrodb.bench.Workload;
import io.macrodb.bench.result.Environment;
import io.macrodb.bench.result.Report;
import io.macrodb.bench.result.TrialResult;
import io.macrodb.bench.run.BenchmarkFailure;
import io.macrodb.bench.run.Comparison;
import io.macrodb.bench.run.FailureDrill;
import io.macrodb.bench.run.LoadPolicy;
import io.macrodb.bench.run.RetryPolicy;
import io.macrodb.bench.run.RunConfig;
import io.macrodb.bench.run.ThinkTimes;
import io.macrodb.bench.targets.Presets;
import io.macrodb.bench.targets.Target;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs a comparison from a command line's {@link HarnessOptions}: prints the environment header, runs the
 * trials with live progress, then prints the results table and writes CSV, JSON and charts. A failed check or a
 * non-retryable error stops the run, is printed loudly, still writes what was measured, and gives exit status 1.
 */
public final class BenchRunner {

    /** Exit status of a run whose every trial passed. */
    public static final int OK = 0;
    /** Exit status of a run that stopped on a failure. */
    public static final int FAILED = 1;
    /** Exit status of a command line that could not be understood. */
    public static final int USAGE = 2;

    private BenchRunner() {
    }

    /** Builds the run's configuration from the shared options. */
    public static RunConfig config(Workload workload, CommandLine.Values values) throws UsageException {
        List<Target> targets;
        try {
            targets = Presets.resolveAll(values.get(HarnessOptions.TARGETS.name()));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        var mixes = new ArrayList<Mix>();
        for (String m : values.getList(HarnessOptions.MIX.name())) {
            try {
                mixes.add(workload.mix(m));
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }
        String baseline = values.getOrNull(HarnessOptions.BASELINE.name());
        if (baseline == null) {
            baseline = targets.get(0).name();
        } else if (baseline.equals("none")) {
            baseline = null;
        }
        ThinkTimes think = switch (values.get(HarnessOptions.THINK_TIME.name())) {
            case "none" -> ThinkTimes.NONE;
            case "spec" -> ThinkTimes.SPEC;
            default -> throw new UsageException("--think-time must be none or spec, got '"
                    + values.get(HarnessOptions.THINK_TIME.name()) + "'");
        };
        String out = values.getOrNull(HarnessOptions.OUT.name());
        Path outDir = out != null ? Path.of(out) : Path.of("results", workload.name(),
                LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)));
        RetryPolicy standard = RetryPolicy.standard();
        try {
            return new RunConfig(targets, values.getIntList(HarnessOptions.CLIENTS.name()), mixes,
                    values.getInt(HarnessOptions.REPETITIONS.name()), values.getDuration(HarnessOptions.WARMUP.name()),
                    values.getDuration(HarnessOptions.DURATION.name()), values.getLong(HarnessOptions.SEED.name()),
                    baseline, think, new RetryPolicy(standard.sqlStates(),
                    values.getInt(HarnessOptions.MAX_ATTEMPTS.name())), outDir,
                    LoadPolicy.fromOption(values.get(HarnessOptions.LOAD.name())),
                    FailureDrill.parse(HarnessOptions.FAIL_REPLICA.name(),
                            values.getOrNull(HarnessOptions.FAIL_REPLICA.name())));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /**
     * Runs the comparison and writes the reports. A process stopped before the end (Ctrl-C, {@code kill}, a
     * {@code timeout} around it) still writes the report of the trials it finished, marked as interrupted: a long
     * comparison killed near its end keeps what it measured.
     *
     * @return {@link #OK} or {@link #FAILED}
     */
    public static int run(Workload workload, RunConfig config, PrintStream out, PrintStream progress)
            throws IOException {
        Environment env = Environment.capture(workload, config);
        Report header = new Report(workload.name(), env, List.of(), config.baseline(), null);
        out.print(header.header());
        out.flush();
        var comparison = new Comparison(workload, config, out, progress);
        var reported = new AtomicBoolean();
        Thread onStop = new Thread(() -> {
            if (reported.compareAndSet(false, true)) {
                List<TrialResult> trials = comparison.completedTrials();
                try {
                    writeReport(new Report(workload.name(), env, trials, config.baseline(), "interrupted: the process "
                            + "was stopped after " + trials.size() + " trial" + (trials.size() == 1 ? "" : "s")
                            + "; the results are those trials'"), config, out);
                } catch (IOException e) {
                    e.printStackTrace();
                }
            }
        }, "bench-report-on-stop");
        Runtime.getRuntime().addShutdownHook(onStop);
        String failure = null;
        Throwable cause = null;
        try {
            comparison.run();
        } catch (BenchmarkFailure | SQLException | RuntimeException e) {
            failure = e.getMessage();
            cause = e;
        } catch (Error e) { // reported as what it is: left to the hook, it would be called an interruption
            failure = e.toString();
            cause = e;
        }
        if (!reported.compareAndSet(false, true)) {
            return FAILED; // the process is being stopped and the hook writes the report
        }
        try {
            Runtime.getRuntime().removeShutdownHook(onStop);
        } catch (IllegalStateException stopping) {
            // the hook found the report taken and does nothing
        }
        writeReport(new Report(workload.name(), env, comparison.completedTrials(), config.baseline(), failure),
                config, out);
        if (cause != null) {
            PrintStream err = System.err;
            err.println();
            err.println("************************************************************************");
            err.println("RUN FAILED: " + failure);
            err.println("************************************************************************");
            cause.printStackTrace(err);
            return FAILED;
        }
        return OK;
    }

    private static void writeReport(Report report, RunConfig config, PrintStream out) throws IOException {
        out.println();
        out.print(report.table());
        List<Path> files = report.writeAll(config.outDir());
        out.println("Wrote " + files.stream().map(p -> p.getFileName().toString()).toList() + " to "
                + config.outDir().toAbsolutePath().normalize());
        out.flush();
    }

    /**
     * The whole command: parse, print help or usage errors, run. Returns the process exit status.
     *
     * @param extraConfig turns the parsed values into the workload (its own options, such as warehouses)
     */
    public static int main(CommandLine commandLine, String[] args, WorkloadFactory extraConfig, PrintStream out,
                           PrintStream progress) throws IOException {
        CommandLine.Values values;
        Workload workload;
        RunConfig config;
        try {
            values = commandLine.parse(args);
            if (values.helpRequested()) {
                out.print(commandLine.help());
                return OK;
            }
            workload = extraConfig.create(values);
            config = config(workload, values);
        } catch (UsageException e) {
            System.err.println("error: " + e.getMessage());
            System.err.println("Run with --help for the options.");
            return USAGE;
        }
        return run(workload, config, out, progress);
    }

    /** Builds a workload from its own options. */
    @FunctionalInterface
    public interface WorkloadFactory {
        Workload create(CommandLine.Values values) throws UsageException;
    }
}
