package io.macrodb.bench.run;

import io.macrodb.bench.Mix;
import io.macrodb.bench.targets.Target;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;

/**
 * One comparison: every target, at every client count, under every mix, repeated; the targets are interleaved
 * (A B A B ...) inside each repetition so that drift of a shared machine hits them alike.
 *
 * @param baseline the target other targets are compared with (ratio of throughputs, same repetition); null for
 *                 none
 * @param seed     drives the loaded data and every client's inputs, identically for every target
 * @param outDir   where tables, CSV, JSON and charts go
 * @param load     how often a target's database is loaded afresh
 * @param drill    a replica to fail during each measured window of a MacroDB target; null for none
 */
public record RunConfig(List<Target> targets, List<Integer> clients, List<Mix> mixes, int repetitions,
                        Duration warmup, Duration duration, long seed, String baseline, ThinkTimes thinkTimes,
                        RetryPolicy retryPolicy, Path outDir, LoadPolicy load, FailureDrill drill) {

    /** A comparison with no failure drill. */
    public RunConfig(List<Target> targets, List<Integer> clients, List<Mix> mixes, int repetitions, Duration warmup,
                     Duration duration, long seed, String baseline, ThinkTimes thinkTimes, RetryPolicy retryPolicy,
                     Path outDir, LoadPolicy load) {
        this(targets, clients, mixes, repetitions, warmup, duration, seed, baseline, thinkTimes, retryPolicy, outDir,
                load, null);
    }

    /** A comparison that loads a fresh database for every trial. */
    public RunConfig(List<Target> targets, List<Integer> clients, List<Mix> mixes, int repetitions, Duration warmup,
                     Duration duration, long seed, String baseline, ThinkTimes thinkTimes, RetryPolicy retryPolicy,
                     Path outDir) {
        this(targets, clients, mixes, repetitions, warmup, duration, seed, baseline, thinkTimes, retryPolicy, outDir,
                LoadPolicy.TRIAL);
    }

    public RunConfig {
        targets = List.copyOf(targets);
        clients = List.copyOf(clients);
        mixes = List.copyOf(mixes);
        Objects.requireNonNull(warmup, "warmup");
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(thinkTimes, "thinkTimes");
        Objects.requireNonNull(retryPolicy, "retryPolicy");
        Objects.requireNonNull(outDir, "outDir");
        Objects.requireNonNull(load, "load");
        if (targets.isEmpty() || clients.isEmpty() || mixes.isEmpty()) {
            throw new IllegalArgumentException("need at least one target, one client count and one mix");
        }
        var names = new HashSet<String>();
        for (Target t : targets) {
            if (!names.add(t.name())) { // results are kept and compared by target name
                throw new IllegalArgumentException("target '" + t.name() + "' is listed twice; give each target "
                        + "once (name=jdbc:... names a URL)");
            }
        }
        for (int c : clients) {
            if (c < 1) {
                throw new IllegalArgumentException("client counts must be at least 1: " + clients);
            }
        }
        if (repetitions < 1) {
            throw new IllegalArgumentException("repetitions must be at least 1: " + repetitions);
        }
        if (drill != null && drill.after().compareTo(duration) >= 0) {
            throw new IllegalArgumentException("the failure drill at " + drill.after() + " falls outside the "
                    + duration + " measured window");
        }
        if (warmup.isNegative() || duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("warm-up must be >= 0 and duration > 0: " + warmup + ", " + duration);
        }
        if (baseline != null && targets.stream().noneMatch(t -> t.name().equals(baseline))) {
            throw new IllegalArgumentException("baseline '" + baseline + "' is not one of the targets "
                    + targets.stream().map(Target::name).toList());
        }
    }

    /**
     * What an unrecorded priming trial runs: this comparison's warm-up (at least a second) as its whole window, and no
     * failure drill. A priming trial is all warm-up; a full trial's length per target made the README's two-minute
     * comparison three.
     */
    public RunConfig forPriming() {
        Duration window = warmup.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : warmup;
        return new RunConfig(targets, clients, mixes, repetitions, Duration.ZERO, window, seed, baseline, thinkTimes,
                retryPolicy, outDir, load, null);
    }
}
