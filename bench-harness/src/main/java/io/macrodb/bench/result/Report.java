package io.macrodb.bench.result;

import io.macrodb.bench.targets.Presets;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Everything a comparison produced, rendered for people and programs: the results table (text), {@code trials.csv}
 * (one row per trial and transaction type, plus a TOTAL row), {@code summary.csv} (medians and spreads per target
 * and client count), {@code results.json} (environment, trials and summary), {@code throughput-<mix>.png} and
 * {@code memory.png}.
 *
 * @param failure why the comparison stopped early, or null when every trial ran and passed its checks
 */
public record Report(String workload, Environment environment, List<TrialResult> trials, String baseline,
                     String failure) {

    public static final String TOTAL = "TOTAL";
    private static final double MB = 1048576.0;
    private static final double MS = 1e6;
    private static final String CPU_HEADER = "CPU µs/tx";
    private static final String CPU_FORMAT = "%,.1f";
    /** Filled with the CPU column's header and, with a baseline, a clause on the ratio column. */
    private static final String CPU_NOTE = """
            %s = the client threads' CPU time per completed transaction (median [min..max] over repetitions)%s. \
            Thread CPU time, so waiting for a core or a lock is not counted: a steadier per-transaction cost than \
            throughput on a shared machine; with more clients than cores it includes spinning on locks and contention.
            """;
    private static final String APPLY_COST_NOTE = """
            a = a slave applier's CPU time per write set / a client thread's CPU time per update transaction on \
            the master, in the measured window (median [min..max] over repetitions); bound = 1/(1+(N-1)a), the \
            most an update-heavy mix can reach of the master's own rate with every core busy and N replicas.
            CPU times, not wall times, which include waiting for a core; trials.csv and results.json also give a \
            from wall times (apply_cost_wall_a).
            """;

    public Report {
        trials = List.copyOf(trials);
    }

    public List<SummaryRow> summary() {
        return SummaryRow.summarise(trials, baseline);
    }

    /** Writes every file into {@code dir}; returns their paths. */
    public List<Path> writeAll(Path dir) throws IOException {
        Files.createDirectories(dir);
        var files = new ArrayList<Path>();
        files.add(write(dir.resolve("summary.txt"), header() + table()));
        files.add(write(dir.resolve("trials.csv"), trialsCsv()));
        files.add(write(dir.resolve("summary.csv"), summaryCsv()));
        files.add(write(dir.resolve("results.json"), Json.write(JsonReport.json(this))));
        List<SummaryRow> rows = summary();
        for (String mix : rows.stream().map(SummaryRow::mix).distinct().toList()) {
            Path png = dir.resolve("throughput-" + mix.replaceAll("[^A-Za-z0-9.-]", "_") + ".png");
            throughputChart(png, mix, rows);
            files.add(png);
        }
        if (!trials.isEmpty()) {
            Path png = dir.resolve("memory.png");
            memoryChart(png);
            files.add(png);
        }
        return files;
    }

    private static Path write(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }

    /** The environment header. */
    public String header() {
        return workload + " comparison\n" + environment.render() + "\n";
    }

    /** The results tables: one overview per mix, then per-type throughput and latency. */
    public String table() {
        var sb = new StringBuilder();
        List<SummaryRow> rows = summary();
        List<String> rateNames = rows.stream().flatMap(r -> r.rateMetrics().keySet().stream()).distinct().toList();
        for (String mix : rows.stream().map(SummaryRow::mix).distinct().toList()) {
            List<SummaryRow> mixRows = rows.stream().filter(r -> r.mix().equals(mix)).toList();
            sb.append("== ").append(workload).append(", mix ").append(mix).append(" ==\n");
            var t = new TextTable();
            var head = new ArrayList<>(List.of("target", "clients", "reps", "tx/s median [min..max]"));
            rateNames.forEach(n -> head.add(n + " median"));
            if (baseline != null) {
                head.add("vs " + baseline + " median [min..max]");
            }
            boolean ci = baseline != null && mixRows.stream().anyMatch(r -> r.ratio() != null && r.ratio().hasCi());
            if (ci) {
                head.add(ratioCiHeader());
            }
            boolean standalone = mixRows.stream().anyMatch(r -> r.ratioToStandalone() != null);
            if (standalone) {
                head.add("MacroDB vs its engine alone");
            }
            head.add(CPU_HEADER);
            if (baseline != null) {
                head.add(cpuRatioHeader());
            }
            boolean apply = mixRows.stream().anyMatch(r -> r.applyCost() != null);
            if (apply) {
                head.addAll(List.of("a (apply cost)", "bound 1/(1+(N-1)a)"));
            }
            head.addAll(List.of("p50 ms", "p95 ms", "p99 ms", "max ms", "retries", "user aborts", "heap MB",
                    "load s"));
            t.row(head);
            for (SummaryRow r : mixRows) {
                var cells = new ArrayList<>(List.of(r.target(), Integer.toString(r.clients()),
                        Integer.toString(r.repetitions()), spread(r.throughput(), "%,.0f")));
                rateNames.forEach(n -> cells.add(r.rateMetrics().containsKey(n)
                        ? String.format(Locale.ROOT, "%,.0f", r.rateMetrics().get(n).median()) : "-"));
                if (baseline != null) {
                    cells.add(r.ratio() == null || r.ratio().isEmpty() ? "-" : spread(r.ratio(), "%.2fx"));
                }
                if (ci) {
                    cells.add(r.ratio() == null || !r.ratio().hasCi() ? "-" : String.format(Locale.ROOT,
                            "[%.2fx..%.2fx]", r.ratio().ciLow(), r.ratio().ciHigh()));
                }
                if (standalone) {
                    cells.add(r.ratioToStandalone() == null ? "-" : spread(r.ratioToStandalone(), "%.2fx"));
                }
                cells.add(spread(r.cpuMicros(), CPU_FORMAT));
                if (baseline != null) {
                    cells.add(spread(r.cpuRatio(), "%.2fx"));
                }
                if (apply) {
                    cells.add(r.applyCost() == null ? "-" : spread(r.applyCost(), "%.2f"));
                    cells.add(r.writeBound() == null ? "-" : spread(r.writeBound(), "%.2fx"));
                }
                cells.addAll(latencyCells(r.latency()));
                cells.add(String.format(Locale.ROOT, "%,d", r.retries()));
                cells.add(String.format(Locale.ROOT, "%,d", r.userAborts()));
                cells.add(String.format(Locale.ROOT, "%,.0f", r.heapMb().median()));
                cells.add(String.format(Locale.ROOT, "%.1f", r.loadSeconds().median()));
                t.row(cells);
            }
            sb.append(t.render());
            if (ci) {
                sb.append(ratioCiHeader()).append(" = the k-th smallest and k-th largest of the repetitions' ratios, ")
                        .append("which hold the true median ratio with at least 95% confidence whatever the ratios' ")
                        .append("distribution (6 or more repetitions); a difference is shown only where it excludes ")
                        .append("1.00x.\n");
            }
            sb.append(cpuNote());
            if (apply) {
                sb.append(APPLY_COST_NOTE);
            }
            sb.append('\n');
            var types = new TextTable();
            types.row(List.of("target", "clients", "type", "mode", "tx/s median [min..max]", "share", CPU_HEADER,
                    "p50 ms", "p95 ms", "p99 ms", "max ms", "retries", "user aborts"));
            for (SummaryRow r : mixRows) {
                long all = r.types().stream().mapToLong(SummaryRow.TypeSummary::completed).sum();
                for (SummaryRow.TypeSummary ts : r.types()) {
                    var cells = new ArrayList<>(List.of(r.target(), Integer.toString(r.clients()), ts.type(),
                            ts.readOnly() ? "read-only" : "update", spread(ts.throughput(), "%,.0f"),
                            all == 0 ? "-" : String.format(Locale.ROOT, "%.1f%%", 100.0 * ts.completed() / all),
                            spread(ts.cpuMicros(), CPU_FORMAT)));
                    cells.addAll(latencyCells(ts.latency()));
                    cells.add(String.format(Locale.ROOT, "%,d", ts.retries()));
                    cells.add(String.format(Locale.ROOT, "%,d", ts.userAborts()));
                    types.row(cells);
                }
            }
            sb.append(types.render()).append('\n');
        }
        if (!trials.isEmpty()) {
            var checks = new LinkedHashSet<String>();
            trials.forEach(t -> checks.addAll(t.checksPassed()));
            sb.append("Correctness: every trial above passed these checks after its measured run (with --load sweep:")
                    .append(" after the last run on its database), on the database alone or, for MacroDB, on every")
                    .append(" replica at one version:\n");
            checks.forEach(c -> sb.append("  - ").append(c).append('\n'));
        }
        if (failure != null) {
            sb.append("\n*** RUN FAILED: ").append(failure).append('\n');
        }
        return sb.toString();
    }

    private String ratioCiHeader() {
        return "95% CI of median vs " + baseline;
    }

    private String cpuRatioHeader() {
        return "CPU/tx vs " + baseline;
    }

    private String cpuNote() {
        String ratio = baseline == null ? "" : "; " + cpuRatioHeader() + " = that over " + baseline
                + "'s in the same repetition (1.05x: 5% more CPU per transaction)";
        return String.format(Locale.ROOT, CPU_NOTE, CPU_HEADER, ratio);
    }

    private static List<String> latencyCells(LatencyHistogram h) {
        return List.of(ms(h.percentile(50)), ms(h.percentile(95)), ms(h.percentile(99)), ms(h.max()));
    }

    private static String ms(long nanos) {
        double v = nanos / MS;
        return String.format(Locale.ROOT, v < 10 ? "%.2f" : "%,.1f", v);
    }

    private static String spread(Stats s, String fmt) {
        if (s.isEmpty()) {
            return "-";
        }
        String m = String.format(Locale.ROOT, fmt, s.median());
        if (s.n() == 1) {
            return m;
        }
        return m + " [" + String.format(Locale.ROOT, fmt, s.min()) + ".." + String.format(Locale.ROOT, fmt, s.max())
                + "]";
    }

    /** Names of the workload's rate metrics (tpmC, ...) found in the trials, in order. */
    private List<String> rateNames() {
        return trials.stream().flatMap(t -> t.rateMetrics().keySet().stream()).distinct().toList();
    }

    private String trialsCsv() {
        var header = new ArrayList<>(List.of("mix", "target", "engine", "macrodb", "clients", "repetition", "type",
                "read_only", "completed", "user_aborts", "retries", "throughput_tps", "cpu_us_per_tx",
                "alloc_kib_per_tx", "p50_ms", "p95_ms", "p99_ms", "max_ms", "mean_ms", "measured_s", "load_s",
                "retained_heap_mb", "copies_checked", "check_s", "apply_ms_per_writeset", "apply_cpu_ms_per_writeset",
                "apply_cost_a", "apply_cost_wall_a", "write_bound"));
        List<String> rateNames = rateNames();
        header.addAll(rateNames);
        var csv = new Csv(header);
        for (TrialResult t : trials) {
            for (TypeResult r : t.types()) {
                csv.row(withRates(rateNames, t.rateMetrics(), t.mix(), t.target(), t.engine(), t.macroDb(),
                        t.clients(), t.repetition(), r.type(), r.readOnly(), r.completed(), r.userAborts(),
                        r.retries(), r.throughput(t.measuredSeconds()), r.cpuMicrosPerTransaction(),
                        r.allocatedKibPerTransaction(), r.latency().percentile(50) / MS,
                        r.latency().percentile(95) / MS, r.latency().percentile(99) / MS, r.latency().max() / MS,
                        r.latency().mean() / MS, t.measuredSeconds(), t.loadSeconds(), t.retainedHeap() / MB,
                        t.copiesChecked(), t.checkSeconds(), applyMs(t), applyCpuMs(t), applyA(t), applyWallA(t),
                        writeBound(t)));
            }
            LatencyHistogram all = t.totalLatency();
            csv.row(withRates(rateNames, t.rateMetrics(), t.mix(), t.target(), t.engine(), t.macroDb(), t.clients(),
                    t.repetition(), TOTAL, "", t.completed(), t.userAborts(), t.retries(), t.throughput(),
                    t.cpuMicrosPerTransaction(), t.allocatedKibPerTransaction(), all.percentile(50) / MS,
                    all.percentile(95) / MS, all.percentile(99) / MS, all.max() / MS, all.mean() / MS,
                    t.measuredSeconds(), t.loadSeconds(), t.retainedHeap() / MB, t.copiesChecked(), t.checkSeconds(),
                    applyMs(t), applyCpuMs(t), applyA(t), applyWallA(t), writeBound(t)));
        }
        return csv.toString();
    }

    /** A trial's mean apply time per write set in ms; null for a bare engine. */
    static Double applyMs(TrialResult t) {
        return t.applyCost() == null ? null : t.applyCost().applyNanosPerWriteSet() / MS;
    }

    /** A trial's mean applier CPU time per write set in ms; null for a bare engine. */
    static Double applyCpuMs(TrialResult t) {
        return t.applyCost() == null ? null : t.applyCost().applyCpuNanosPerWriteSet() / MS;
    }

    /** A trial's apply cost ratio a (CPU times); null for a bare engine. */
    static Double applyA(TrialResult t) {
        return t.applyCost() == null ? null : t.applyCost().a();
    }

    /** A trial's apply cost ratio from wall times; null for a bare engine. */
    static Double applyWallA(TrialResult t) {
        return t.applyCost() == null ? null : t.applyCost().wallA();
    }

    /** A trial's write-heavy bound 1/(1+(N-1)a); null for a bare engine. */
    static Double writeBound(TrialResult t) {
        return t.applyCost() == null ? null : t.applyCost().writeBound();
    }

    /** {@code cells} followed by one cell per rate metric (empty where a trial lacks it). */
    private static Object[] withRates(List<String> names, Map<String, Double> rates, Object... cells) {
        Object[] out = Arrays.copyOf(cells, cells.length + names.size());
        for (int i = 0; i < names.size(); i++) {
            out[cells.length + i] = rates.get(names.get(i));
        }
        return out;
    }

    private String summaryCsv() {
        var header = new ArrayList<>(List.of("mix", "target", "clients", "repetitions", "type", "throughput_median",
                "throughput_min", "throughput_max", "cpu_us_per_tx_median", "cpu_us_per_tx_min", "cpu_us_per_tx_max",
                "p50_ms", "p95_ms", "p99_ms", "max_ms", "retries", "user_aborts", "ratio_median", "ratio_min",
                "ratio_max", "standalone_ratio_median", "standalone_ratio_min", "standalone_ratio_max",
                "cpu_ratio_median", "cpu_ratio_min", "cpu_ratio_max", "retained_heap_mb_median",
                "retained_heap_mb_min", "retained_heap_mb_max", "apply_cost_a_median", "apply_cost_a_min",
                "apply_cost_a_max", "write_bound_median", "write_bound_min", "write_bound_max",
                "alloc_kib_per_tx_median", "alloc_kib_per_tx_min", "alloc_kib_per_tx_max", "alloc_ratio_median",
                "alloc_ratio_min", "alloc_ratio_max", "ratio_median_ci95_low", "ratio_median_ci95_high",
                "cpu_ratio_median_ci95_low", "cpu_ratio_median_ci95_high"));
        List<String> rateNames = rateNames();
        for (String n : rateNames) {
            header.addAll(List.of(n + "_median", n + "_min", n + "_max"));
        }
        var csv = new Csv(header);
        for (SummaryRow r : summary()) {
            Stats ratio = orNone(r.ratio());
            Stats alone = orNone(r.ratioToStandalone());
            Stats cpuRatio = orNone(r.cpuRatio());
            Stats allocatedRatio = orNone(r.allocatedRatio());
            Stats a = orNone(r.applyCost());
            Stats bound = orNone(r.writeBound());
            for (SummaryRow.TypeSummary ts : r.types()) {
                // the figures after user_aborts are the whole target's, in its TOTAL row: empty for a type
                csv.row(Arrays.copyOf(new Object[]{r.mix(), r.target(), r.clients(), r.repetitions(), ts.type(),
                    ts.throughput().median(), ts.throughput().min(), ts.throughput().max(), ts.cpuMicros().median(),
                    ts.cpuMicros().min(), ts.cpuMicros().max(), ts.latency().percentile(50) / MS,
                    ts.latency().percentile(95) / MS, ts.latency().percentile(99) / MS, ts.latency().max() / MS,
                    ts.retries(), ts.userAborts()}, header.size()));
            }
            var rates = new ArrayList<Object>();
            for (String n : rateNames) {
                Stats st = r.rateMetrics().get(n);
                rates.addAll(st == null ? Arrays.asList(null, null, null)
                        : List.of(st.median(), st.min(), st.max()));
            }
            csv.row(concat(new Object[]{r.mix(), r.target(), r.clients(), r.repetitions(), TOTAL,
                r.throughput().median(), r.throughput().min(), r.throughput().max(), r.cpuMicros().median(),
                r.cpuMicros().min(), r.cpuMicros().max(), r.latency().percentile(50) / MS,
                r.latency().percentile(95) / MS, r.latency().percentile(99) / MS, r.latency().max() / MS,
                r.retries(), r.userAborts(), ratio.median(), ratio.min(), ratio.max(), alone.median(), alone.min(),
                alone.max(), cpuRatio.median(), cpuRatio.min(), cpuRatio.max(), r.heapMb().median(),
                r.heapMb().min(), r.heapMb().max(), a.median(), a.min(), a.max(), bound.median(), bound.min(),
                bound.max(), r.allocatedKib().median(), r.allocatedKib().min(), r.allocatedKib().max(),
                allocatedRatio.median(), allocatedRatio.min(), allocatedRatio.max(), ratio.ciLow(), ratio.ciHigh(),
                cpuRatio.ciLow(), cpuRatio.ciHigh()}, rates.toArray()));
        }
        return csv.toString();
    }

    /** {@code stats}, or no figures where there are none (a target without a baseline, a bare engine's apply cost). */
    private static Stats orNone(Stats stats) {
        return stats == null ? Stats.of(List.of()) : stats;
    }

    private static Object[] concat(Object[] a, Object[] b) {
        Object[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private void throughputChart(Path png, String mix, List<SummaryRow> rows) throws IOException {
        var byTarget = new LinkedHashMap<String, List<Charts.Point>>();
        for (SummaryRow r : rows) {
            if (r.mix().equals(mix)) {
                byTarget.computeIfAbsent(r.target(), k -> new ArrayList<>()).add(new Charts.Point(r.clients(),
                        r.throughput().median(), r.throughput().min(), r.throughput().max()));
            }
        }
        var series = new ArrayList<Charts.Series>();
        byTarget.forEach((k, v) -> series.add(new Charts.Series(k, v)));
        Charts.lineChart(png, workload + " throughput, mix " + mix, subtitle(), "clients",
                "transactions per second (median, min..max)", series);
    }

    private void memoryChart(Path png) throws IOException {
        var byTarget = new LinkedHashMap<String, List<Double>>();
        for (TrialResult t : trials) {
            byTarget.computeIfAbsent(t.target(), k -> new ArrayList<>()).add(t.retainedHeap() / MB);
        }
        var bars = new ArrayList<Charts.Bar>();
        byTarget.forEach((k, v) -> {
            Stats s = Stats.of(v);
            // MacroDB against its own engine alone (the paper's Figure 7); anything else against the baseline
            String reference = Presets.standaloneOf(k).filter(byTarget::containsKey)
                    .orElse(baseline != null && byTarget.containsKey(baseline) ? baseline : null);
            String note = "";
            if (reference != null && !reference.equals(k)) {
                double ref = Stats.of(byTarget.get(reference)).median();
                note = ref <= 0 ? "" : String.format(Locale.ROOT, "%.2fx %s", s.median() / ref, reference);
            }
            bars.add(new Charts.Bar(k, s.median(), s.min(), s.max(), note));
        });
        Charts.barChart(png, workload + " retained heap after load and GC (median, min..max)",
                subtitle() + "; ratios: MacroDB to its engine alone, others to the baseline", "MB", bars);
    }

    private String subtitle() {
        var e = environment.entries();
        return String.join("; ", List.of(e.getOrDefault("workload", ""), e.getOrDefault("timing", ""),
                e.getOrDefault("machine", ""), e.getOrDefault("engines", "")));
    }


}
