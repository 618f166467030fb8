package io.macrodb.bench.cli;

import java.util.List;

/**
 * The options every benchmark's command line shares, declared once. A workload's main class takes
 * {@link #all()}, overrides defaults with {@link Option#withDefault}, adds its own options, and hands the parsed
 * values to {@link BenchRunner}.
 */
public final class HarnessOptions {

    public static final Option TARGETS = new Option("targets", "LIST", null,
            "comma-separated targets: presets h2, hsqldb, hsqldb-mvcc, macrodb-<h2|hsqldb|hsqldb-mvcc>-r<N> "
                    + "(N replicas, master included), or JDBC URLs (name=jdbc:... to name one; {db} marks the "
                    + "database name, made fresh for every load)");
    public static final Option CLIENTS = new Option("clients", "LIST", "4",
            "comma-separated client counts, e.g. 1,2,4,8; each count is a separate trial");
    public static final Option MIX = new Option("mix", "LIST", null, "comma-separated transaction mixes");
    public static final Option WARMUP = new Option("warmup", "DURATION", "5s",
            "warm-up before each measured window (not counted), e.g. 10s");
    public static final Option DURATION = new Option("duration", "DURATION", "15s",
            "measured window per trial, e.g. 30s, 2m");
    public static final Option REPETITIONS = new Option("repetitions", "N", "1",
            "repetitions of the whole interleaved sequence; ratios are quoted as median [min..max] over them "
                    + "(use 3 or more for figures you quote)");
    public static final Option BASELINE = new Option("baseline", "TARGET", null,
            "the target every other is compared with (throughput ratio per repetition); 'none' for no ratios "
                    + "[default: the first target]");
    public static final Option SEED = new Option("seed", "N", "42",
            "seed for the loaded data and every client's inputs, the same for every target");
    public static final Option OUT = new Option("out", "DIR", null,
            "where summary.txt, trials.csv, summary.csv, results.json and the PNG charts go "
                    + "[default: results/<workload>/<timestamp>]");
    public static final Option THINK_TIME = new Option("think-time", "none|spec", "none",
            "none: clients run back to back (as in the paper); spec: the spec's keying and think times");
    public static final Option MAX_ATTEMPTS = new Option("max-attempts", "N", "100",
            "attempts per transaction on retryable SQLStates before it counts as an error (which fails the run)");

    public static final Option LOAD = new Option("load", "trial|sweep", "trial",
            "trial: every trial loads a fresh database; sweep: one load per target, mix and repetition, the client "
                    + "counts run on it in the order given and the consistency checks once after the last (much "
                    + "faster for a list of client counts)");

    public static final Option FAIL_REPLICA = new Option("fail-replica", "N@TIME", null,
            "a failure drill for MacroDB targets: fail replica N (0 is the master) TIME into each measured "
                    + "window, e.g. 1@5s; the run shows what the failure costs the clients, waits for the "
                    + "replacement slave, then checks every replica as usual [default: none]");

    private HarnessOptions() {
    }

    /** Every shared option, in help order. */
    public static List<Option> all() {
        return List.of(TARGETS, CLIENTS, MIX, WARMUP, DURATION, REPETITIONS, BASELINE, SEED, OUT, THINK_TIME,
                MAX_ATTEMPTS, LOAD, FAIL_REPLICA);
    }
}
