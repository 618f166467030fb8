package io.macrodb.tpcc;

import io.macrodb.bench.ClientContext;
import io.macrodb.bench.ConsistencyCheck;
import io.macrodb.bench.LoadProgress;
import io.macrodb.bench.Mix;
import io.macrodb.bench.RateMetric;
import io.macrodb.bench.TransactionType;
import io.macrodb.bench.Workload;
import io.macrodb.bench.WorkloadClient;
import io.macrodb.bench.targets.Database;

import java.sql.SQLException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** TPC-C for the harness: the scale, the loader, the five transactions, the mixes and the consistency conditions. */
public final class TpccWorkload implements Workload {

    /** tpmC: New-Order transactions per minute (clause 5.4.1; here over the measured window). */
    public static final RateMetric TPMC = new RateMetric("tpmC", TpccTransactionType.NEW_ORDER, 60);

    private final TpccScale scale;

    public TpccWorkload(TpccScale scale) {
        this.scale = scale;
    }

    public TpccScale scale() {
        return scale;
    }

    @Override
    public String name() {
        return "tpcc";
    }

    @Override
    public Map<String, String> parameters() {
        var p = new LinkedHashMap<String, String>();
        p.put("warehouses", Integer.toString(scale.warehouses()));
        p.put("scale", scale.isSpec() ? "spec" : "NON-SPEC items=" + scale.items() + " customers/district="
                + scale.customersPerDistrict());
        return p;
    }

    @Override
    public List<? extends TransactionType> transactionTypes() {
        return Arrays.asList(TpccTransactionType.values());
    }

    @Override
    public List<Mix> mixes() {
        return TpccMixes.all();
    }

    @Override
    public List<RateMetric> rateMetrics() {
        return List.of(TPMC);
    }

    @Override
    public void load(Database database, long seed, LoadProgress progress) throws SQLException {
        new TpccLoader(scale).load(database, seed, progress);
    }

    @Override
    public WorkloadClient newClient(ClientContext context, long seed) throws SQLException {
        var random = new TpccRandom(context.random(), NuRandConstants.forRun(seed), scale);
        return new TpccClient(context.connection(), Terminal.forClient(context.index(), random, scale));
    }

    @Override
    public List<ConsistencyCheck> consistencyChecks() {
        return TpccConsistency.all();
    }
}
