package io.macrodb.bench.run;

import io.macrodb.api.ClusterMetrics;
import io.macrodb.api.MacroCluster;
import io.macrodb.api.ReplicaHealth;
import io.macrodb.bench.Mix;
import io.macrodb.bench.RateMetric;
import io.macrodb.bench.Workload;
import io.macrodb.bench.result.ApplyCost;
import io.macrodb.bench.result.LatencyHistogram;
import io.macrodb.bench.result.TrialResult;
import io.macrodb.bench.result.TypeResult;
import io.macrodb.bench.targets.Database;
import io.macrodb.bench.targets.Target;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;

/**
 * Measured runs on a freshly loaded database: load, measure retained heap, then per client count warm up, measure
 * and stop the clients; then check correctness and shut the database down. The database is shut down whatever
 * happens.
 */
final class Trial {

    private static final Duration CATCH_UP_TIMEOUT = Duration.ofMinutes(5);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);
    private static final long TICK_MILLIS = 250;

    private final Workload workload;
    private final RunConfig config;
    private final ProgressPrinter progress;
    /** The failure drill under way: its cluster, when it failed the replica, and how many replicas to wait for. */
    private MacroCluster drillCluster;
    private long drillAt;
    private int drillReplicas;

    Trial(Workload workload, RunConfig config, ProgressPrinter progress) {
        this.workload = workload;
        this.config = config;
        this.progress = progress;
    }

    /** One trial: a freshly loaded database measured at {@code clients}. */
    TrialResult run(Target target, Mix mix, int clients, int repetition, String label) throws SQLException,
            BenchmarkFailure {
        return sweep(target, mix, List.of(clients), repetition, n -> label).get(0);
    }

    /**
     * One freshly loaded database measured at each of {@code clientCounts} in turn (each its own warm-up and window),
     * then checked once: the checks cover every window run on it.
     */
    List<TrialResult> sweep(Target target, Mix mix, List<Integer> clientCounts, int repetition,
                            IntFunction<String> label) throws SQLException, BenchmarkFailure {
        Loaded loaded = load(target, label.apply(clientCounts.get(0)));
        List<TrialResult> results;
        try {
            List<Window> windows = new ArrayList<>();
            for (int clients : clientCounts) {
                windows.add(measure(loaded, mix, clients, label.apply(clients)));
            }
            results = check(loaded, mix, repetition, windows);
        } catch (SQLException | BenchmarkFailure | RuntimeException | Error e) {
            shutDownAfterFailure(loaded, e);
            throw e;
        }
        loaded.database().shutdown();
        return results;
    }

    /**
     * A target's database, loaded and caught up, with what its load measured; it stays open until shut down.
     *
     * @param heapBefore used heap after GC before the load, bytes
     * @param heapAfter  used heap after GC once loaded and every slave caught up, bytes
     * @param replicas   how many replicas it had once loaded (1 for a bare engine)
     */
    private record Loaded(Target target, Database database, MacroCluster cluster, int replicas,
                          double loadSeconds, long heapBefore, long heapAfter) {
    }

    /**
     * What one measured window left: its clients' results and the cluster's counters at both of its ends (null for a
     * bare engine).
     */
    private record Window(int clients, double seconds, List<Worker> workers, ClusterMetrics atStart,
                          ClusterMetrics atEnd) {
    }

    /** Loads a fresh database of {@code target} and waits for its slaves; shuts it down if that fails. */
    private Loaded load(Target target, String label) throws SQLException {
        long heapBefore = HeapMeter.retainedHeapBytes();
        Database database = target.freshDatabase(workload.name());
        try {
            var bar = progress.loadBar(label + " loading");
            long loadStart = System.nanoTime();
            workload.load(database, config.seed(), bar);
            database.awaitReplicasCaughtUp(CATCH_UP_TIMEOUT);
            double loadSeconds = (System.nanoTime() - loadStart) / 1e9;
            progress.finish(bar.toString());
            long heapAfter = HeapMeter.retainedHeapBytes();
            MacroCluster cluster = cluster(database);
            int replicas = cluster == null ? 1 : cluster.replicas().size();
            return new Loaded(target, database, cluster, replicas, loadSeconds, heapBefore, heapAfter);
        } catch (SQLException | RuntimeException | Error e) {
            try {
                database.shutdown();
            } catch (SQLException | RuntimeException s) {
                e.addSuppressed(s);
            }
            throw e;
        }
    }

    /** Shuts a loaded database down after {@code failure}, which keeps any failure of the shutdown itself. */
    private static void shutDownAfterFailure(Loaded loaded, Throwable failure) {
        try {
            loaded.database().shutdown();
        } catch (SQLException | RuntimeException s) {
            failure.addSuppressed(s);
        }
    }

    /**
     * Runs the consistency checks (on every replica of a MacroDB target) once, for all of {@code windows} run on
     * the database under {@code mix} in {@code repetition}, and makes each window's result.
     */
    private List<TrialResult> check(Loaded loaded, Mix mix, int repetition, List<Window> windows)
            throws SQLException, BenchmarkFailure {
        long checkStart = System.nanoTime();
        CorrectnessVerifier.Report checks = CorrectnessVerifier.verify(loaded.database(),
                workload.consistencyChecks());
        double checkSeconds = (System.nanoTime() - checkStart) / 1e9;
        List<TrialResult> results = new ArrayList<>();
        for (Window w : windows) {
            results.add(result(loaded, mix, repetition, w, checks, checkSeconds));
        }
        return results;
    }

    /**
     * Warm-up and measured window at {@code clients}; then waits for a failure drill's replacement slave and until
     * every slave has applied what the window wrote, so that the next window starts on a whole, quiet cluster and
     * no applier still at work runs into it. Fails if any transaction failed with a non-retryable error.
     */
    private Window measure(Loaded loaded, Mix mix, int clients, String label) throws SQLException, BenchmarkFailure {
        Database database = loaded.database();
        MacroCluster cluster = loaded.cluster();
        ClusterMetrics atStart = null;
        ClusterMetrics atEnd;
        var window = new MeasurementWindow();
        var live = new LiveCounters();
        var errors = new ErrorLog();
        List<Worker> workers = startWorkers(database, mix, clients, window, live, errors);
        try {
            long warmupEnd = System.nanoTime() + config.warmup().toNanos();
            tick(warmupEnd, warmupEnd, "warm-up", window, live, errors, label, config.warmup());
            window.beginMeasuring();
            atStart = cluster == null ? null : cluster.metrics();
            long end = System.nanoTime() + config.duration().toNanos();
            if (drillApplies(cluster)) {
                tick(System.nanoTime() + config.drill().after().toNanos(), end, "measure", window, live, errors,
                        label, config.duration());
                failReplica(cluster, label);
            }
            tick(end, end, "measure", window, live, errors, label, config.duration());
        } finally {
            window.endMeasuringAndStop();
            atEnd = cluster == null ? null : cluster.metrics();
            stop(workers, errors);
        }
        progress.finish(status(label, "done", live, 0, false));
        if (errors.total() > 0) {
            List<Throwable> first = errors.first();
            // The first error goes on the message's first line: a build's summary prints nothing else.
            var failure = new BenchmarkFailure(errors.total() + " transaction(s) of " + label
                    + " failed with errors that are not retryable, the first: "
                    + first.get(0).getMessage().replace('\n', ' '));
            first.forEach(failure::addSuppressed);
            throw failure;
        }
        if (drillApplies(cluster)) {
            awaitReplacement(cluster, loaded.replicas(), label);
        }
        database.awaitReplicasCaughtUp(CATCH_UP_TIMEOUT);
        return new Window(clients, window.measuredSeconds(), workers, atStart, atEnd);
    }

    private List<Worker> startWorkers(Database database, Mix mix, int clients, MeasurementWindow window,
                                      LiveCounters live, ErrorLog errors) throws SQLException {
        var workers = new ArrayList<Worker>();
        try {
            for (int i = 0; i < clients; i++) {
                var w = new Worker(i, clients, workload, database, mix, config, window, live, errors);
                w.open();
                workers.add(w);
            }
        } catch (SQLException | RuntimeException e) {
            window.abort();
            workers.forEach(Worker::closeQuietly);
            throw e;
        }
        int i = 0;
        for (Worker w : workers) {
            Thread t = new Thread(w, workload.name() + "-client-" + i++);
            t.setDaemon(true);
            w.thread = t;
            t.start();
        }
        return workers;
    }

    private boolean drillApplies(MacroCluster cluster) {
        return cluster != null && config.drill() != null;
    }

    /** The failure drill: fails the replica through the operator API (for the master: returns once replaced). */
    private void failReplica(MacroCluster cluster, String label) throws SQLException {
        int index = config.drill().replica();
        long start = System.nanoTime();
        drillReplicas = cluster.replicas().size();
        drillCluster = cluster;
        drillAt = start;
        cluster.failReplica(index);
        progress.finish(String.format(Locale.ROOT, "%s | drill: replica %d failed %s", label, index,
                index == 0 && cluster.replicas().get(0).index() != 0
                        ? String.format(Locale.ROOT, "(master; replica %d took over in %.2f s)",
                        cluster.replicas().get(0).index(), (System.nanoTime() - start) / 1e9)
                        : "(slave; being rebuilt)"));
    }

    /** Prints, once, when the drill's replacement slave has joined (checked on every progress tick). */
    private void reportReplacement(String label) {
        if (drillCluster != null && allHealthy(drillCluster, drillReplicas)) {
            progress.finish(String.format(Locale.ROOT, "%s | drill: replacement slave joined, %.2f s after the "
                    + "failure", label, (System.nanoTime() - drillAt) / 1e9));
            drillCluster = null;
        }
    }

    private static boolean allHealthy(MacroCluster cluster, int replicas) {
        var now = cluster.replicas();
        return now.size() >= replicas && now.stream().allMatch(r -> r.health() == ReplicaHealth.HEALTHY);
    }

    /** After a drill: waits until the cluster has all its replicas back, healthy, so the checks cover every one. */
    private void awaitReplacement(MacroCluster cluster, int replicas, String label) throws BenchmarkFailure {
        long start = System.nanoTime();
        long deadline = start + CATCH_UP_TIMEOUT.toNanos();
        while (!allHealthy(cluster, replicas)) {
            if (System.nanoTime() > deadline) {
                throw new BenchmarkFailure("the replica failed by the drill was not replaced within "
                        + CATCH_UP_TIMEOUT.toMinutes() + " min: " + cluster.replicas());
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new BenchmarkFailure("interrupted while waiting for the drill's replacement slave");
            }
        }
        reportReplacement(label);
        progress.finish(String.format(Locale.ROOT, "%s | drill: all %d replicas healthy again (%.2f s after the "
                + "window)", label, cluster.replicas().size(), (System.nanoTime() - start) / 1e9));
    }

    /** The cluster of a MacroDB target, whose metrics are read at both ends of the window; null for a bare engine. */
    private static MacroCluster cluster(Database database) throws SQLException {
        try (Connection c = database.connect()) {
            return database.cluster(c).orElse(null);
        }
    }

    /**
     * Runs one phase (warm-up or the measured window, which ends at {@code phaseEnd}) until {@code until}, drawing
     * the live progress line.
     */
    private void tick(long until, long phaseEnd, String phase, MeasurementWindow window, LiveCounters live,
                      ErrorLog errors, String label, Duration length) throws BenchmarkFailure {
        long lastCount = live.completed.sum();
        long lastTime = System.nanoTime();
        double rate = 0;
        while (true) {
            long now = System.nanoTime();
            if (now >= until) {
                return;
            }
            if (errors.total() > 0) {
                return; // reported once the clients stopped
            }
            try {
                Thread.sleep(Math.min(TICK_MILLIS, Math.max(1, (until - now) / 1_000_000)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new BenchmarkFailure("interrupted during " + phase);
            }
            reportReplacement(label);
            long count = live.completed.sum();
            long t = System.nanoTime();
            if (t - lastTime >= 1_000_000_000L) {
                rate = (count - lastCount) / ((t - lastTime) / 1e9);
                lastCount = count;
                lastTime = t;
            }
            double elapsed = length.toNanos() / 1e9 - (phaseEnd - t) / 1e9;
            progress.update(status(label, String.format(Locale.ROOT, "%s %.0f/%d s", phase, elapsed,
                    length.toSeconds()), live, rate, true));
        }
    }

    private static String status(String label, String phase, LiveCounters live, double rate, boolean showRate) {
        return String.format(Locale.ROOT, "%s | %s |%s %,d tx | retries %,d | user aborts %,d | errors %,d", label,
                phase, showRate ? String.format(Locale.ROOT, " %,.0f tx/s |", rate) : "", live.completed.sum(),
                live.retries.sum(), live.userAborts.sum(), live.errors.sum());
    }

    private static void stop(List<Worker> workers, ErrorLog errors) throws BenchmarkFailure {
        long deadline = System.nanoTime() + STOP_TIMEOUT.toNanos();
        for (Worker w : workers) {
            try {
                w.thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new BenchmarkFailure("interrupted while stopping clients");
            }
            if (w.thread.isAlive()) {
                var failure = new BenchmarkFailure("client thread " + w.thread.getName() + " did not finish its "
                        + "transaction within " + STOP_TIMEOUT.toSeconds() + " s of the end of the run (hung?)");
                var trace = new RuntimeException("stack of " + w.thread.getName());
                trace.setStackTrace(w.thread.getStackTrace());
                failure.addSuppressed(trace);
                throw failure;
            }
        }
    }

    private TrialResult result(Loaded loaded, Mix mix, int repetition, Window window,
                               CorrectnessVerifier.Report checks, double checkSeconds) {
        double seconds = window.seconds();
        // every worker lists the workload's types in the same order; merge by type name all the same
        var merged = new LinkedHashMap<String, TypeResult>();
        for (Worker w : window.workers()) {
            for (TypeResult r : w.results()) {
                merged.merge(r.type(), r, (a, b) -> {
                    var latency = new LatencyHistogram();
                    latency.add(a.latency());
                    latency.add(b.latency());
                    return new TypeResult(a.type(), a.readOnly(), a.completed() + b.completed(),
                            a.userAborts() + b.userAborts(), a.retries() + b.retries(), latency,
                            a.cpuNanos() + b.cpuNanos(), a.allocatedBytes() + b.allocatedBytes());
                });
            }
        }
        var rates = new LinkedHashMap<String, Double>();
        for (RateMetric m : workload.rateMetrics()) {
            TypeResult r = merged.get(m.type().displayName());
            long n = r == null ? 0 : r.completed();
            rates.put(m.name(), n / seconds * m.perSeconds());
        }
        List<TypeResult> types = List.copyOf(merged.values());
        ApplyCost applyCost = null;
        // A failure drill changes the replicas during the window: their counters at both ends do not compare.
        if (window.atStart() != null && window.atEnd() != null && config.drill() == null) {
            var updates = new LatencyHistogram();
            types.stream().filter(t -> !t.readOnly()).forEach(t -> updates.add(t.latency()));
            long updateCount = types.stream().filter(t -> !t.readOnly()).mapToLong(TypeResult::completed).sum();
            long updateCpu = types.stream().filter(t -> !t.readOnly()).mapToLong(TypeResult::cpuNanos).sum();
            applyCost = ApplyCost.between(window.atStart(), window.atEnd(), updates.mean(),
                    updateCount == 0 ? Double.NaN : (double) updateCpu / updateCount);
        }
        Target target = loaded.target();
        return new TrialResult(mix.name(), target.name(), loaded.database().url(), target.engine().id(),
                target.isMacroDb(), window.clients(), repetition, seconds, types, loaded.loadSeconds(),
                loaded.heapBefore(), loaded.heapAfter(), checks.copies(), checks.passed(), checkSeconds, rates,
                applyCost);
    }
}
