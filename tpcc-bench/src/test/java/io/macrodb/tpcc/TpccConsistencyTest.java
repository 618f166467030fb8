package io.macrodb.tpcc;

import io.macrodb.bench.ConsistencyCheck;
import io.macrodb.bench.LoadProgress;
import io.macrodb.bench.run.BenchmarkFailure;
import io.macrodb.bench.run.CorrectnessVerifier;
import io.macrodb.bench.targets.Database;
import io.macrodb.bench.targets.Presets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The conditions hold on a fresh database and each catches the breakage it is meant to catch, on both engines. */
class TpccConsistencyTest {

    /** A deliberate breakage and the conditions (by clause) it must trip. */
    record Breakage(String what, String sql, Set<String> trips) {
    }

    // small scale: orders 1..21 delivered, 22..30 undelivered in every district
    static final List<Breakage> BREAKAGES = List.of(
            new Breakage("warehouse YTD off by one", "UPDATE warehouse SET w_ytd = w_ytd + 1 WHERE w_id = 1",
                    Set.of("3.3.2.1", "3.3.2.8")),
            new Breakage("district YTD off by one", "UPDATE district SET d_ytd = d_ytd + 1 WHERE d_w_id = 1 AND d_id = 1",
                    Set.of("3.3.2.1", "3.3.2.9")),
            new Breakage("next order id skipped", "UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = 2 "
                    + "AND d_id = 7", Set.of("3.3.2.2")),
            new Breakage("hole in NEW-ORDER", "DELETE FROM new_order WHERE no_w_id = 1 AND no_d_id = 2 AND no_o_id = 25",
                    Set.of("3.3.2.3", "3.3.2.5")),
            new Breakage("order line lost", "DELETE FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 3 AND ol_o_id = 5 "
                    + "AND ol_number = 1", Set.of("3.3.2.4", "3.3.2.6")),
            new Breakage("delivered line without date", "UPDATE order_line SET ol_delivery_d = NULL WHERE ol_w_id = 1 "
                    + "AND ol_d_id = 3 AND ol_o_id = 5", Set.of("3.3.2.7")),
            new Breakage("payment lost from HISTORY", "DELETE FROM history WHERE h_w_id = 1 AND h_d_id = 4 AND h_c_id = 1",
                    Set.of("3.3.2.8", "3.3.2.9")),
            new Breakage("customer balance off", "UPDATE customer SET c_balance = c_balance + 1 WHERE c_w_id = 1 AND "
                    + "c_d_id = 1 AND c_id = 1", Set.of("3.3.2.12")));

    static List<String> engines() {
        return TestTargets.engines();
    }

    static List<String> all() {
        return TestTargets.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void everyConditionHoldsAfterLoadAndCatchesItsBreakage(String preset) throws Exception {
        Database db = Presets.resolve(preset).freshDatabase("tpcc_consistency_test");
        try {
            new TpccLoader(TpccScale.small(2)).load(db, 9, LoadProgress.NONE);
            try (Connection c = db.connect()) {
                assertEquals(Set.of(), failing(c), "fresh database");
                for (Breakage b : BREAKAGES) {
                    try (Statement s = c.createStatement()) {
                        assertEquals(1, Math.min(1, s.executeUpdate(b.sql())), b.what());
                    }
                    assertEquals(b.trips(), failing(c), b.what());
                    c.rollback();
                }
                assertEquals(Set.of(), failing(c), "after rolling every breakage back");
            }
        } finally {
            db.shutdown();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void aBrokenDatabaseFailsTheRunOnEveryReplica(String preset) throws Exception {
        Database db = Presets.resolve(preset).freshDatabase("tpcc_broken_test");
        try {
            new TpccLoader(TpccScale.small(1)).load(db, 9, LoadProgress.NONE);
            try (Connection c = db.connect(); Statement s = c.createStatement()) {
                s.executeUpdate("UPDATE customer SET c_balance = c_balance + 1 WHERE c_w_id = 1 AND c_d_id = 1 AND "
                        + "c_id = 1");
                c.commit();
            }
            var failure = assertThrows(BenchmarkFailure.class,
                    () -> CorrectnessVerifier.verify(db, TpccConsistency.all()));
            assertTrue(failure.getMessage().contains("3.3.2.12"), failure.getMessage());
            if (Presets.resolve(preset).isMacroDb()) {
                // the master's write replicated: every replica is broken alike, and each is reported
                assertTrue(failure.getMessage().contains("replica 0") && failure.getMessage().contains("replica 1"),
                        failure.getMessage());
            }
        } finally {
            db.shutdown();
        }
    }

    private static Set<String> failing(Connection c) throws Exception {
        var failing = new TreeSet<String>();
        for (ConsistencyCheck check : TpccConsistency.all()) {
            if (!check.violations(c).isEmpty()) {
                failing.add(check.description().split(" ")[0]);
            }
        }
        return failing;
    }
}
