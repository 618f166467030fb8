package io.macrodb.bench;

import io.macrodb.bench.targets.Database;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * A benchmark the harness can run: TPC-C, TPC-W, or anything else that talks JDBC.
 *
 * <p>How a workload plugs in: the harness ({@link io.macrodb.bench.run.Comparison}) takes one {@code Workload}
 * and, for every trial (one target, one mix, one client count, one repetition), does
 * <ol>
 *   <li>{@link #load} into a fresh, empty database reached through the target's JDBC URL (for MacroDB the master,
 *       which replicates), then measures retained heap;</li>
 *   <li>opens one connection per client and calls {@link #newClient}; each client thread draws a
 *       {@link TransactionType} from the {@link Mix} and calls {@link WorkloadClient#execute}; the harness owns
 *       read-only flag, commit, rollback, retry, timing and latency recording;</li>
 *   <li>runs every {@link ConsistencyCheck} (on every replica for MacroDB) and MacroDB's replica verification;
 *       any violation fails the run;</li>
 *   <li>shuts the database down and frees it.</li>
 * </ol>
 * Implementations hold only configuration (scale, seed-derived constants): all per-client state lives in the
 * {@link WorkloadClient}, and the same {@code Workload} object serves every trial, possibly from several threads.
 */
public interface Workload {

    /** A short name used in database names and output, e.g. {@code tpcc}. */
    String name();

    /** Workload parameters for the environment header and the JSON output, e.g. {@code warehouses=1}. */
    Map<String, String> parameters();

    /** Every transaction type, in display order. */
    List<? extends TransactionType> transactionTypes();

    /** The mixes this workload offers, by name. */
    List<Mix> mixes();

    /** Headline figures such as tpmC; empty if the workload has none besides total throughput. */
    default List<RateMetric> rateMetrics() {
        return List.of();
    }

    /**
     * Creates the schema and loads the initial data into {@code database}, which is new and empty.
     * Use {@link Database#connect()} (one or more connections), insert in batches, commit every few thousand rows,
     * and report progress. {@code seed} is the same for every target, so every target gets the same data.
     */
    void load(Database database, long seed, LoadProgress progress) throws SQLException;

    /** A new client bound to {@code context.connection()}; prepare statements here or lazily. */
    WorkloadClient newClient(ClientContext context, long seed) throws SQLException;

    /** The checks to run after every measured run. */
    List<ConsistencyCheck> consistencyChecks();

    /** The mix called {@code name}. */
    default Mix mix(String name) {
        for (Mix m : mixes()) {
            if (m.name().equals(name)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown mix '" + name + "' for " + name() + "; known: "
                + mixes().stream().map(Mix::name).toList());
    }
}
