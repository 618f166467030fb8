package io.macrodb.tpcc;

import io.macrodb.bench.LoadProgress;
import io.macrodb.bench.targets.Database;
import io.macrodb.bench.targets.Engine;
import io.macrodb.bench.targets.Presets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TpccLoaderTest {

    static List<String> engines() {
        return TestTargets.engines();
    }

    @Test
    void specScaleHasTheSpecsCardinalities() {
        TpccScale s = TpccScale.spec(3);
        assertTrue(s.isSpec());
        assertEquals(100_000, s.items());
        assertEquals(3_000, s.customersPerDistrict());
        assertEquals(900, s.newOrdersPerDistrict());
        assertEquals(2_101, s.firstNewOrderId());
        assertEquals(1_000, s.lastNames());
        assertEquals(9, TpccScale.small(1).newOrdersPerDistrict());
        assertEquals(22, TpccScale.small(1).firstNewOrderId());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void smallLoadHasExactRowCountsAndTheSpecsInitialState(String preset) throws Exception {
        TpccScale scale = TpccScale.small(2);
        Map<String, Long> counts = loadAndCount(preset, scale, c -> {
            // initial state that the transactions and the consistency conditions rely on
            assertEquals(20, count(c, "SELECT COUNT(*) FROM district WHERE d_next_o_id = 31 AND d_ytd = 300.00"));
            assertEquals(2, count(c, "SELECT COUNT(*) FROM warehouse WHERE w_ytd = 3000.00"));
            assertEquals(600, count(c, "SELECT COUNT(*) FROM customer WHERE c_balance = -10.00 AND c_ytd_payment = "
                    + "10.00 AND c_payment_cnt = 1 AND c_delivery_cnt = 0 AND c_middle = 'OE'"));
            assertEquals(180, count(c, "SELECT COUNT(*) FROM orders WHERE o_carrier_id IS NULL AND o_id >= 22"));
            assertEquals(0, count(c, "SELECT COUNT(*) FROM orders WHERE o_carrier_id IS NULL AND o_id < 22"));
            assertEquals(0, count(c, "SELECT COUNT(*) FROM order_line WHERE ol_o_id < 22 AND (ol_delivery_d IS NULL OR"
                    + " ol_amount <> 0)"));
            // every customer has exactly one order (O_C_ID is a permutation)
            assertEquals(600, count(c, "SELECT COUNT(*) FROM (SELECT DISTINCT o_w_id, o_d_id, o_c_id FROM orders) x"));
            // the first customers of each district take every last name once
            assertEquals(20 * scale.lastNames(), count(c, "SELECT COUNT(*) FROM (SELECT DISTINCT c_w_id, c_d_id, c_last"
                    + " FROM customer) x"));
            for (String q : List.of("SELECT COUNT(*) FROM customer WHERE c_credit = 'BC'",
                    "SELECT COUNT(*) FROM item WHERE i_data LIKE '%ORIGINAL%'")) {
                long n = count(c, q);
                assertTrue(n > 20 && n < 150, "about 10%: " + q + " = " + n);
            }
            assertEquals(0, count(c, "SELECT COUNT(*) FROM customer WHERE LENGTH(c_data) < 300 OR LENGTH(c_data) > 500"
                    + " OR LENGTH(c_first) < 8 OR c_zip NOT LIKE '%11111'"));
        });
        assertEquals(1_000, counts.get("item"));
        assertEquals(2, counts.get("warehouse"));
        assertEquals(2_000, counts.get("stock"));
        assertEquals(20, counts.get("district"));
        assertEquals(600, counts.get("customer"));
        assertEquals(600, counts.get("history"));
        assertEquals(600, counts.get("orders"));
        assertEquals(180, counts.get("new_order"));
        assertEquals(counts.get("sum_ol_cnt"), counts.get("order_line"));
        assertTrue(counts.get("order_line") >= 5 * 600 && counts.get("order_line") <= 15 * 600);
    }

    @Test
    void specScaleLoadOfOneWarehouse() throws Exception {
        Map<String, Long> counts = loadAndCount("h2", TpccScale.spec(1), c -> { });
        assertEquals(100_000, counts.get("item"));
        assertEquals(1, counts.get("warehouse"));
        assertEquals(100_000, counts.get("stock"));
        assertEquals(10, counts.get("district"));
        assertEquals(30_000, counts.get("customer"));
        assertEquals(30_000, counts.get("history"));
        assertEquals(30_000, counts.get("orders"));
        assertEquals(9_000, counts.get("new_order"));
        assertEquals(counts.get("sum_ol_cnt"), counts.get("order_line"));
        assertEquals(300_000, counts.get("order_line"), 3_000, "about 10 lines per order");
    }

    @Test
    void ddlIsOneStatementPerTableAndIndex() {
        for (Engine e : Engine.values()) {
            List<String> ddl = TpccLoader.ddl(e);
            assertEquals(11, ddl.size(), ddl.toString());
            assertTrue(ddl.stream().noneMatch(s -> s.endsWith(";")));
        }
    }

    interface Checks {
        void run(Connection c) throws SQLException;
    }

    private static Map<String, Long> loadAndCount(String preset, TpccScale scale, Checks checks) throws Exception {
        Database db = Presets.resolve(preset).freshDatabase("tpcc_loader_test");
        var progress = new CountingProgress();
        try {
            new TpccLoader(scale).load(db, 5, progress);
            var counts = new LinkedHashMap<String, Long>();
            try (Connection c = db.connect()) {
                for (String t : List.of("item", "warehouse", "stock", "district", "customer", "history", "orders",
                        "new_order", "order_line")) {
                    counts.put(t, count(c, "SELECT COUNT(*) FROM " + t));
                }
                counts.put("sum_ol_cnt", count(c, "SELECT SUM(o_ol_cnt) FROM orders"));
                checks.run(c);
                c.commit();
            }
            long rows = counts.entrySet().stream().filter(e -> !e.getKey().equals("sum_ol_cnt"))
                    .mapToLong(Map.Entry::getValue).sum();
            assertEquals(rows, progress.done, "progress reports every row");
            assertEquals(scale.expectedRows(), progress.expected);
            assertEquals(scale.expectedRows(), rows, scale.expectedRows() * 0.02, "estimate within 2%");
            return counts;
        } finally {
            db.shutdown();
        }
    }

    static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static final class CountingProgress implements LoadProgress {
        long expected;
        long done;

        @Override
        public void expect(long totalRows) {
            expected = totalRows;
        }

        @Override
        public void advance(long rows) {
            done += rows;
        }
    }
}
