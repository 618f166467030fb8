package io.macrodb.e2e;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;

/** Application functions the end-to-end tests declare to H2 with {@code CREATE ALIAS}: H2 calls public classes only. */
public final class AliasFunctions {

    private static final AtomicInteger COUNTER = new AtomicInteger();

    private AliasFunctions() {
    }

    /** Gives another value at each call. */
    public static int nextCount() {
        return COUNTER.incrementAndGet();
    }

    /** Runs SQL through the connection H2 hands the function: statements MacroDB never sees. */
    public static void runBehindMacroDb(Connection nested, String sql) throws SQLException {
        Engine.execute(nested, sql);
    }
}
