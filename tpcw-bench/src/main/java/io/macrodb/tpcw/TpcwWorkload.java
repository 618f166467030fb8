package io.macrodb.tpcw;

import io.macrodb.bench.ClientContext;
import io.macrodb.bench.ConsistencyCheck;
import io.macrodb.bench.LoadProgress;
import io.macrodb.bench.Mix;
import io.macrodb.bench.TransactionType;
import io.macrodb.bench.Workload;
import io.macrodb.bench.WorkloadClient;
import io.macrodb.bench.targets.Database;
import io.macrodb.tpcw.browser.EmulatedBrowser;
import io.macrodb.tpcw.browser.TpcwMix;
import io.macrodb.tpcw.check.TpcwChecks;
import io.macrodb.tpcw.interaction.IdAllocator;
import io.macrodb.tpcw.interaction.Interaction;
import io.macrodb.tpcw.interaction.Store;
import io.macrodb.tpcw.load.TpcwLoader;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * TPC-W for the benchmark harness: an online bookstore (clause 1) whose emulated browsers move between its
 * fourteen web interactions by the transition table of the browsing, shopping or ordering mix. Throughput is in
 * web interactions per second (WIPS): the harness's transactions per second, one transaction per interaction.
 *
 * <p>Holds only configuration: the scale and the seed the database is loaded with (the stock check needs to know
 * what the load put in I_STOCK, which follows from the seed). Each browser's session lives in its
 * {@link EmulatedBrowser}.
 */
public final class TpcwWorkload implements Workload {

    private final TpcwScale scale;
    private final long seed;
    private final Clock clock;

    /**
     * @param scale the database size
     * @param seed  the seed the harness loads with (its {@code --seed}); {@link #load} refuses any other
     */
    public TpcwWorkload(TpcwScale scale, long seed) {
        this(scale, seed, Clock.systemUTC());
    }

    public TpcwWorkload(TpcwScale scale, long seed, Clock clock) {
        this.scale = scale;
        this.seed = seed;
        this.clock = clock;
    }

    @Override
    public String name() {
        return "tpcw";
    }

    @Override
    public Map<String, String> parameters() {
        var p = new LinkedHashMap<String, String>();
        p.put("items", Integer.toString(scale.items()));
        p.put("customers", Integer.toString(scale.customers()));
        p.put("database for browsers", String.format(Locale.ROOT, "%.1f",
                scale.customers() / (double) TpcwScale.CUSTOMERS_PER_BROWSER));
        p.put("metric", "WIPS = interactions (transactions) per second");
        return p;
    }

    @Override
    public List<? extends TransactionType> transactionTypes() {
        return List.of(Interaction.values());
    }

    @Override
    public List<Mix> mixes() {
        return Arrays.stream(TpcwMix.values()).map(TpcwMix::harnessMix).toList();
    }

    public TpcwScale scale() {
        return scale;
    }

    @Override
    public void load(Database database, long loadSeed, LoadProgress progress) throws SQLException {
        if (loadSeed != seed) {
            throw new IllegalArgumentException("this TPC-W workload was built for seed " + seed
                    + " (its stock check depends on it) but is asked to load with seed " + loadSeed);
        }
        try (Connection connection = database.connect()) {
            TpcwSchema.create(connection);
            new TpcwLoader(scale, seed, clock).load(connection, progress);
            connection.commit();
        }
    }

    @Override
    public WorkloadClient newClient(ClientContext context, long clientSeed) throws SQLException {
        Connection connection = context.connection();
        IdAllocator ids = IdAllocator.continuing(connection, context.index(), context.count());
        connection.rollback();
        return new EmulatedBrowser(connection, new Store(scale, ids, clock), context.random());
    }

    @Override
    public List<ConsistencyCheck> consistencyChecks() {
        return TpcwChecks.all(scale, () -> TpcwLoader.initialStocks(scale, seed));
    }
}
