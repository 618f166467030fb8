package io.macrodb.bench.result;

import io.macrodb.bench.Mix;
import io.macrodb.bench.Workload;
import io.macrodb.bench.run.RunConfig;
import io.macrodb.bench.targets.Engine;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** The short header stated with every figure: JVM, heap, cores, engine versions and the run's parameters. */
public record Environment(Map<String, String> entries) {

    public Environment {
        entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
    }

    public static Environment capture(Workload workload, RunConfig config) {
        var e = new LinkedHashMap<String, String>();
        Runtime rt = Runtime.getRuntime();
        e.put("date", OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS).toString());
        e.put("workload", workload.name() + " " + workload.parameters().entrySet().stream()
                .map(x -> x.getKey() + "=" + x.getValue()).collect(Collectors.joining(", ")));
        e.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + " ("
                + System.getProperty("java.vm.vendor") + ")");
        List<String> args = ManagementFactory.getRuntimeMXBean().getInputArguments();
        e.put("jvm args", args.isEmpty() ? "(none)" : String.join(" ", args));
        e.put("heap", String.format(Locale.ROOT, "max %,d MB, GC %s", rt.maxMemory() / 1048576,
                ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName)
                        .collect(Collectors.joining(" + "))));
        e.put("machine", rt.availableProcessors() + " cores, " + System.getProperty("os.name") + " "
                + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
        e.put("engines", "H2 " + Engine.H2.version() + ", HSQLDB " + Engine.HSQLDB.version());
        e.put("mixes", config.mixes().stream().map(Mix::toString).collect(Collectors.joining("; ")));
        e.put("clients", config.clients().toString());
        e.put("load", config.load().description());
        e.put("timing", String.format(Locale.ROOT, "warm-up %s s, measured %s s, %d repetition%s, think times %s",
                seconds(config.warmup()), seconds(config.duration()), config.repetitions(),
                config.repetitions() == 1 ? "" : "s", config.thinkTimes().name().toLowerCase(Locale.ROOT)));
        e.put("seed", Long.toString(config.seed()));
        e.put("retry", config.retryPolicy().toString());
        e.put("baseline", config.baseline() == null ? "none" : config.baseline());
        e.put("targets", config.targets().stream().map(t -> t.name() + " = " + t.urlTemplate())
                .collect(Collectors.joining("; ")));
        return new Environment(e);
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? Long.toString(d.toSeconds())
                : String.format(Locale.ROOT, "%.3f", d.toMillis() / 1000.0);
    }

    /** The header as aligned lines. */
    public String render() {
        int width = entries.keySet().stream().mapToInt(String::length).max().orElse(0);
        var sb = new StringBuilder();
        entries.forEach((k, v) -> sb.append("  ").append(k).append(" ".repeat(width - k.length())).append("  ")
                .append(v).append('\n'));
        return sb.toString();
    }
}
