package io.macrodb.tpcw;

import io.macrodb.bench.LoadProgress;
import io.macrodb.bench.targets.Database;
import io.macrodb.bench.targets.Presets;

import java.sql.SQLException;

/** A freshly loaded TPC-W database small enough for unit tests (well under a second to load). */
public final class TinyDatabase {

    /** 200 items, 50 authors, 300 customers, 600 addresses, 270 orders. */
    public static final TpcwScale SCALE = TpcwScale.ofCustomers(200, 300);
    public static final long SEED = 7;

    private TinyDatabase() {
    }

    /** A new database of the preset {@code target} ({@code h2}, {@code hsqldb}, ...), loaded at {@link #SCALE}. */
    public static Database load(String target) throws SQLException {
        Database database = Presets.resolve(target).freshDatabase("tpcwtest");
        new TpcwWorkload(SCALE, SEED).load(database, SEED, LoadProgress.NONE);
        return database;
    }
}
