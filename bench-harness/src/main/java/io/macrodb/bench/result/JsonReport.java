package io.macrodb.bench.result;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;

/** The {@code results.json} document of a {@link Report}: environment, every trial, and the summary. */
final class JsonReport {

    private static final double MS = 1e6;

    private JsonReport() {
    }

    static Map<String, Object> json(Report report) {
        var root = new LinkedHashMap<String, Object>();
        root.put("workload", report.workload());
        root.put("status", report.failure() == null ? "passed" : "failed");
        root.put("failure", report.failure());
        root.put("environment", report.environment().entries());
        root.put("baseline", report.baseline());
        var trialList = new ArrayList<Object>();
        for (TrialResult t : report.trials()) {
            var o = new LinkedHashMap<String, Object>();
            o.put("mix", t.mix());
            o.put("target", t.target());
            o.put("url", t.url());
            o.put("engine", t.engine());
            o.put("macrodb", t.macroDb());
            o.put("clients", t.clients());
            o.put("repetition", t.repetition());
            o.put("measuredSeconds", t.measuredSeconds());
            o.put("throughput", t.throughput());
            o.put("cpuMicrosPerTransaction", t.cpuMicrosPerTransaction());
            o.put("allocatedKibPerTransaction", t.allocatedKibPerTransaction());
            o.put("rateMetrics", t.rateMetrics());
            o.put("completed", t.completed());
            o.put("retries", t.retries());
            o.put("userAborts", t.userAborts());
            o.put("latencyMs", latencyJson(t.totalLatency()));
            o.put("loadSeconds", t.loadSeconds());
            o.put("heapBeforeLoadBytes", t.heapBeforeLoad());
            o.put("heapAfterLoadBytes", t.heapAfterLoad());
            o.put("retainedHeapBytes", t.retainedHeap());
            o.put("copiesChecked", t.copiesChecked());
            o.put("checksPassed", t.checksPassed());
            o.put("checkSeconds", t.checkSeconds());
            o.put("appliedWriteSets", t.applyCost() == null ? null : t.applyCost().writeSets());
            o.put("applyMsPerWriteSet", Report.applyMs(t));
            o.put("applyCpuMsPerWriteSet", Report.applyCpuMs(t));
            o.put("applyCostA", Report.applyA(t));
            o.put("applyCostWallA", Report.applyWallA(t));
            o.put("writeBound", Report.writeBound(t));
            var types = new ArrayList<Object>();
            for (TypeResult r : t.types()) {
                var to = new LinkedHashMap<String, Object>();
                to.put("type", r.type());
                to.put("readOnly", r.readOnly());
                to.put("completed", r.completed());
                to.put("userAborts", r.userAborts());
                to.put("retries", r.retries());
                to.put("throughput", r.throughput(t.measuredSeconds()));
                to.put("cpuMicrosPerTransaction", r.cpuMicrosPerTransaction());
                to.put("allocatedKibPerTransaction", r.allocatedKibPerTransaction());
                to.put("latencyMs", latencyJson(r.latency()));
                types.add(to);
            }
            o.put("types", types);
            trialList.add(o);
        }
        root.put("trials", trialList);
        var summaryList = new ArrayList<Object>();
        for (SummaryRow r : report.summary()) {
            var o = new LinkedHashMap<String, Object>();
            o.put("mix", r.mix());
            o.put("target", r.target());
            o.put("clients", r.clients());
            o.put("repetitions", r.repetitions());
            o.put("throughput", statsJson(r.throughput()));
            var rates = new LinkedHashMap<String, Object>();
            r.rateMetrics().forEach((k, v) -> rates.put(k, statsJson(v)));
            o.put("rateMetrics", rates);
            o.put("ratioToBaseline", r.ratio() == null ? null : statsJson(r.ratio()));
            o.put("ratioToStandalone", r.ratioToStandalone() == null ? null : statsJson(r.ratioToStandalone()));
            o.put("cpuMicrosPerTransaction", statsJson(r.cpuMicros()));
            o.put("cpuRatioToBaseline", r.cpuRatio() == null ? null : statsJson(r.cpuRatio()));
            o.put("allocatedKibPerTransaction", statsJson(r.allocatedKib()));
            o.put("allocatedRatioToBaseline", r.allocatedRatio() == null ? null : statsJson(r.allocatedRatio()));
            o.put("latencyMs", latencyJson(r.latency()));
            o.put("retries", r.retries());
            o.put("userAborts", r.userAborts());
            o.put("retainedHeapMb", statsJson(r.heapMb()));
            o.put("loadSeconds", statsJson(r.loadSeconds()));
            o.put("applyCostA", r.applyCost() == null ? null : statsJson(r.applyCost()));
            o.put("writeBound", r.writeBound() == null ? null : statsJson(r.writeBound()));
            var types = new LinkedHashMap<String, Object>();
            for (SummaryRow.TypeSummary ts : r.types()) {
                var to = new LinkedHashMap<String, Object>();
                to.put("readOnly", ts.readOnly());
                to.put("throughput", statsJson(ts.throughput()));
                to.put("cpuMicrosPerTransaction", statsJson(ts.cpuMicros()));
                to.put("latencyMs", latencyJson(ts.latency()));
                to.put("retries", ts.retries());
                to.put("userAborts", ts.userAborts());
                types.put(ts.type(), to);
            }
            o.put("types", types);
            summaryList.add(o);
        }
        root.put("summary", summaryList);
        return root;
    }

    private static Map<String, Object> statsJson(Stats s) {
        var o = new LinkedHashMap<String, Object>();
        o.put("median", s.median());
        o.put("min", s.min());
        o.put("max", s.max());
        o.put("n", s.n());
        o.put("medianCi95Low", s.ciLow()); // null (not finite) with fewer than 6 repetitions
        o.put("medianCi95High", s.ciHigh());
        return o;
    }

    private static Map<String, Object> latencyJson(LatencyHistogram h) {
        var o = new LinkedHashMap<String, Object>();
        o.put("count", h.count());
        o.put("mean", h.mean() / MS);
        o.put("p50", h.percentile(50) / MS);
        o.put("p95", h.percentile(95) / MS);
        o.put("p99", h.percentile(99) / MS);
        o.put("max", h.max() / MS);
        return o;
    }
}
