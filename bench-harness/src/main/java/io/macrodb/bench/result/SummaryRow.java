package io.macrodb.bench.result;

import io.macrodb.bench.targets.Presets;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * One target at one client count under one mix, summarised over its repetitions: medians with their spread
 * (min..max), latencies merged over every repetition, and the ratio to the baseline target measured in the same
 * repetitions.
 *
 * @param ratio   per repetition, this target's throughput divided by the baseline's; null without a baseline
 * @param ratioToStandalone for a MacroDB preset, per repetition, its throughput divided by that of its engine alone
 *                (macrodb-hsqldb-r2 over hsqldb) when that target ran too; null otherwise
 * @param cpuMicros the client threads' CPU time per completed transaction, microseconds
 *                ({@link TrialResult#cpuMicrosPerTransaction()})
 * @param cpuRatio per repetition, this target's CPU time per transaction divided by the baseline's, paired as
 *                {@code ratio} is; null without a baseline
 * @param allocatedKib the heap the client threads allocated per completed transaction, KiB
 *                ({@link TrialResult#allocatedKibPerTransaction()})
 * @param allocatedRatio per repetition, this target's allocation per transaction divided by the baseline's, paired
 *                as {@code ratio} is; null without a baseline
 * @param heapMb  retained heap after load, in MB (2^20 bytes)
 * @param applyCost  for MacroDB, the apply cost ratio a of each repetition ({@link ApplyCost#a()}); null otherwise
 * @param writeBound for MacroDB, each repetition's write-heavy bound 1/(1+(N-1)a); null otherwise
 */
public record SummaryRow(String mix, String target, int clients, int repetitions, Stats throughput,
                         Map<String, Stats> rateMetrics, List<TypeSummary> types, LatencyHistogram latency,
                         long retries, long userAborts, Stats ratio, Stats ratioToStandalone, Stats cpuMicros,
                         Stats cpuRatio, Stats allocatedKib, Stats allocatedRatio, Stats heapMb, Stats loadSeconds,
                         Stats applyCost, Stats writeBound) {

    /** One transaction type's figures over the repetitions; {@code cpuMicros} is its CPU time per transaction. */
    public record TypeSummary(String type, boolean readOnly, Stats throughput, Stats cpuMicros,
                              LatencyHistogram latency, long completed, long userAborts, long retries) {
    }

    /** Summarises {@code trials}: mixes and targets in the order they first ran, client counts ascending. */
    public static List<SummaryRow> summarise(List<TrialResult> trials, String baseline) {
        record Key(String mix, int clients, String target) {
        }
        var groups = new LinkedHashMap<Key, List<TrialResult>>();
        var mixOrder = new ArrayList<String>();
        var targetOrder = new ArrayList<String>();
        for (TrialResult t : trials) {
            groups.computeIfAbsent(new Key(t.mix(), t.clients(), t.target()), k -> new ArrayList<>()).add(t);
            if (!mixOrder.contains(t.mix())) {
                mixOrder.add(t.mix());
            }
            if (!targetOrder.contains(t.target())) {
                targetOrder.add(t.target());
            }
        }
        var keys = new ArrayList<>(groups.keySet());
        keys.sort(Comparator.<Key>comparingInt(k -> mixOrder.indexOf(k.mix()))
                .thenComparingInt(Key::clients)
                .thenComparingInt(k -> targetOrder.indexOf(k.target())));
        var rows = new ArrayList<SummaryRow>();
        for (Key key : keys) {
            rows.add(summariseGroup(groups.get(key), trials, baseline));
        }
        return rows;
    }

    private static SummaryRow summariseGroup(List<TrialResult> group, List<TrialResult> all, String baseline) {
        TrialResult first = group.get(0);
        var throughput = new ArrayList<Double>();
        var ratios = new ArrayList<Double>();
        var cpuMicros = new ArrayList<Double>();
        var cpuRatios = new ArrayList<Double>();
        var allocated = new ArrayList<Double>();
        var allocatedRatios = new ArrayList<Double>();
        var standaloneRatios = new ArrayList<Double>();
        String standalone = Presets.standaloneOf(first.target()).orElse(null);
        var heap = new ArrayList<Double>();
        var load = new ArrayList<Double>();
        var rates = new LinkedHashMap<String, List<Double>>();
        var applyCosts = new ArrayList<Double>();
        var writeBounds = new ArrayList<Double>();
        boolean measuredApply = false;
        var latency = new LatencyHistogram();
        long retries = 0;
        long aborts = 0;
        for (TrialResult t : group) {
            throughput.add(t.throughput());
            addIfKnown(cpuMicros, t.cpuMicrosPerTransaction());
            addIfKnown(allocated, t.allocatedKibPerTransaction());
            heap.add(t.retainedHeap() / 1048576.0);
            load.add(t.loadSeconds());
            t.rateMetrics().forEach((k, v) -> rates.computeIfAbsent(k, x -> new ArrayList<>()).add(v));
            latency.add(t.totalLatency());
            retries += t.retries();
            aborts += t.userAborts();
            if (t.applyCost() != null) {
                measuredApply = true;
                if (Double.isFinite(t.applyCost().a())) {
                    applyCosts.add(t.applyCost().a());
                    writeBounds.add(t.applyCost().writeBound());
                }
            }
            if (baseline != null) {
                ratioTo(baseline, t, all, TrialResult::throughput).ifPresent(ratios::add);
                ratioTo(baseline, t, all, TrialResult::cpuMicrosPerTransaction).ifPresent(cpuRatios::add);
                ratioTo(baseline, t, all, TrialResult::allocatedKibPerTransaction).ifPresent(allocatedRatios::add);
            }
            if (standalone != null) {
                ratioTo(standalone, t, all, TrialResult::throughput).ifPresent(standaloneRatios::add);
            }
        }
        var types = new ArrayList<TypeSummary>();
        for (TypeResult proto : first.types()) {
            var tput = new ArrayList<Double>();
            var cpu = new ArrayList<Double>();
            var lat = new LatencyHistogram();
            long completed = 0;
            long typeAborts = 0;
            long typeRetries = 0;
            for (TrialResult t : group) {
                for (TypeResult r : t.types()) {
                    if (Objects.equals(r.type(), proto.type())) {
                        tput.add(r.throughput(t.measuredSeconds()));
                        addIfKnown(cpu, r.cpuMicrosPerTransaction());
                        lat.add(r.latency());
                        completed += r.completed();
                        typeAborts += r.userAborts();
                        typeRetries += r.retries();
                    }
                }
            }
            types.add(new TypeSummary(proto.type(), proto.readOnly(), Stats.of(tput), Stats.of(cpu), lat, completed,
                    typeAborts, typeRetries));
        }
        var rateStats = new LinkedHashMap<String, Stats>();
        rates.forEach((k, v) -> rateStats.put(k, Stats.of(v)));
        return new SummaryRow(first.mix(), first.target(), first.clients(), group.size(), Stats.of(throughput),
                rateStats, types, latency, retries, aborts, baseline == null ? null : Stats.of(ratios),
                standaloneRatios.isEmpty() ? null : Stats.of(standaloneRatios), Stats.of(cpuMicros),
                baseline == null ? null : Stats.of(cpuRatios), Stats.of(allocated),
                baseline == null ? null : Stats.of(allocatedRatios), Stats.of(heap), Stats.of(load),
                measuredApply ? Stats.of(applyCosts) : null, measuredApply ? Stats.of(writeBounds) : null);
    }

    /**
     * {@code t}'s {@code figure} over that of {@code other}'s trial in the same mix, client count and repetition;
     * empty when that trial did not run or either figure is unknown.
     */
    private static Optional<Double> ratioTo(String other, TrialResult t, List<TrialResult> all,
                                            ToDoubleFunction<TrialResult> figure) {
        for (TrialResult b : all) {
            if (b.target().equals(other) && b.mix().equals(t.mix()) && b.clients() == t.clients()
                    && b.repetition() == t.repetition() && figure.applyAsDouble(b) > 0) {
                return Optional.of(figure.applyAsDouble(t) / figure.applyAsDouble(b)).filter(Double::isFinite);
            }
        }
        return Optional.empty();
    }

    /** Adds {@code value} unless it is unknown (NaN), so that the median and spread cover measured values only. */
    private static void addIfKnown(List<Double> values, double value) {
        if (Double.isFinite(value)) {
            values.add(value);
        }
    }
}
