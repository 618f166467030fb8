package io.macrodb.metrics;

import io.macrodb.api.ClusterMetrics;
import io.macrodb.api.MacroCluster;
import io.macrodb.api.ReplicaHealth;
import io.macrodb.api.ReplicaRole;
import io.macrodb.api.ReplicaStatus;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;

import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * Publishes a cluster's facts to Micrometer: {@code new MacroDbMetrics(cluster).bindTo(registry)}. Every meter reads
 * the cluster when the registry asks, so binding costs the transaction path nothing. Meters, all tagged with the
 * cluster's engine URL ({@code cluster}), per-replica ones also with {@code replica}:
 * <ul>
 *   <li>{@code macrodb.transactions.committed} (counter), {@code macrodb.replica.failures} (counter);</li>
 *   <li>{@code macrodb.reads.routed} (counter, per replica), {@code macrodb.reads.wait} (timer: reads that waited);</li>
 *   <li>{@code macrodb.replica.version}, {@code macrodb.replica.lag}, {@code macrodb.replica.queue.depth} (gauges);</li>
 *   <li>{@code macrodb.replica.master} (gauge: 1 for the replica that is master now, else 0) and
 *       {@code macrodb.replica.healthy} (gauge: 1 while the replica is in routing, else 0);</li>
 *   <li>{@code macrodb.apply} (timer, per slave: write sets applied and the time spent) and {@code macrodb.apply.cpu}
 *       (counter, seconds: the CPU time its applier used for them).</li>
 * </ul>
 * Micrometer is an optional dependency of MacroDB: only this class needs it.
 */
public final class MacroDbMetrics implements MeterBinder {

    private final MacroCluster cluster;

    public MacroDbMetrics(MacroCluster cluster) {
        this.cluster = cluster;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Tags tags = Tags.of("cluster", cluster.url().replaceAll(";macrodb\\..*", ""));
        FunctionCounter.builder("macrodb.transactions.committed", cluster,
                        c -> c.metrics().committedTransactions())
                .description("update transactions that committed a write set").tags(tags).register(registry);
        FunctionCounter.builder("macrodb.replica.failures", cluster, c -> c.metrics().failures())
                .description("replicas marked failed").tags(tags).register(registry);
        FunctionTimer.builder("macrodb.reads.wait", cluster, c -> c.metrics().readWaits(),
                        c -> c.metrics().readWaitNanos(), TimeUnit.NANOSECONDS)
                .description("read-only transactions that waited for a replica to catch up").tags(tags)
                .register(registry);
        FunctionTimer.builder("macrodb.commits.lag.wait", cluster, c -> c.metrics().lagWaits(),
                        c -> c.metrics().lagWaitNanos(), TimeUnit.NANOSECONDS)
                .description("commits that waited for a slave to come back within macrodb.maxLag").tags(tags)
                .register(registry);
        for (ReplicaStatus replica : cluster.replicas()) {
            int index = replica.index();
            // No role tag: a promotion moves the master to another index, and a meter's tags never change. The role
            // is a gauge instead, read when the registry asks.
            Tags replicaTags = tags.and("replica", String.valueOf(index));
            FunctionCounter.builder("macrodb.reads.routed", cluster, c -> replicaMetrics(c, index).routedTransactions())
                    .description("read-only transactions routed to the replica").tags(replicaTags).register(registry);
            Gauge.builder("macrodb.replica.version", cluster, c -> status(c, index, ReplicaStatus::version))
                    .tags(replicaTags).register(registry);
            Gauge.builder("macrodb.replica.lag", cluster, c -> status(c, index, ReplicaStatus::lag))
                    .description("versions behind the master").tags(replicaTags).register(registry);
            Gauge.builder("macrodb.replica.queue.depth", cluster, c -> status(c, index, ReplicaStatus::queueDepth))
                    .description("write sets queued, not yet applied").tags(replicaTags).register(registry);
            Gauge.builder("macrodb.replica.master", cluster,
                            c -> status(c, index, r -> r.role() == ReplicaRole.MASTER ? 1 : 0))
                    .description("1 for the replica that is master now, else 0").tags(replicaTags).register(registry);
            Gauge.builder("macrodb.replica.healthy", cluster,
                            c -> status(c, index, r -> r.health() == ReplicaHealth.HEALTHY ? 1 : 0))
                    .description("1 while the replica is in routing, else 0").tags(replicaTags).register(registry);
            FunctionTimer.builder("macrodb.apply", cluster, c -> replicaMetrics(c, index).appliedWriteSets(),
                            c -> replicaMetrics(c, index).applyNanos(), TimeUnit.NANOSECONDS)
                    .description("write sets applied by the replica's applier").tags(replicaTags).register(registry);
            FunctionCounter.builder("macrodb.apply.cpu", cluster, c -> replicaMetrics(c, index).applyCpuNanos() / 1e9)
                    .baseUnit("seconds").description("CPU time the replica's applier used to apply write sets")
                    .tags(replicaTags).register(registry);
        }
    }

    /**
     * A rebuilt slave keeps its index, and its totals carry over. Only a slave whose rebuild failed leaves its place
     * empty: its meters then read 0 (totals) and NaN (gauges) until it is rebuilt.
     */
    private static ClusterMetrics.Replica replicaMetrics(MacroCluster cluster, int index) {
        return cluster.metrics().replicas().stream().filter(r -> r.index() == index).findFirst()
                .orElse(new ClusterMetrics.Replica(index, 0, 0, 0, 0));
    }

    private static double status(MacroCluster cluster, int index, ToDoubleFunction<ReplicaStatus> value) {
        return cluster.replicas().stream().filter(r -> r.index() == index).findFirst()
                .map(value::applyAsDouble).orElse(Double.NaN);
    }
}
