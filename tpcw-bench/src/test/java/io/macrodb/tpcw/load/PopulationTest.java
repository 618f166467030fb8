package io.macrodb.tpcw.load;

import io.macrodb.bench.targets.Database;
import io.macrodb.tpcw.TinyDatabase;
import io.macrodb.tpcw.TpcwRandom;
import io.macrodb.tpcw.TpcwScale;
import io.macrodb.tpcw.TpcwSchema;
import io.macrodb.tpcw.TpcwTable;
import io.macrodb.tpcw.Vocabulary;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The population's row counts (clause 4.3) and field rules (clause 4.7.1), on both engines. */
class PopulationTest {

    private static final TpcwScale SCALE = TinyDatabase.SCALE;

    @ParameterizedTest
    @ValueSource(strings = {"h2", "hsqldb"})
    void rowCountsFollowTheScale(String target) throws SQLException {
        Database database = TinyDatabase.load(target);
        try (Connection c = database.connect()) {
            Map<TpcwTable, Long> counts = TpcwSchema.rowCounts(c);
            assertEquals(92, counts.get(TpcwTable.COUNTRY));
            assertEquals(SCALE.items() / 4, counts.get(TpcwTable.AUTHOR));
            assertEquals(SCALE.items(), counts.get(TpcwTable.ITEM));
            assertEquals(SCALE.customers(), counts.get(TpcwTable.CUSTOMER));
            assertEquals(2L * SCALE.customers(), counts.get(TpcwTable.ADDRESS));
            assertEquals((long) (0.9 * SCALE.customers()), counts.get(TpcwTable.ORDERS));
            assertEquals(counts.get(TpcwTable.ORDERS), counts.get(TpcwTable.CC_XACTS));
            long lines = counts.get(TpcwTable.ORDER_LINE);
            assertTrue(lines >= counts.get(TpcwTable.ORDERS) && lines <= 5 * counts.get(TpcwTable.ORDERS));
            assertEquals(0, counts.get(TpcwTable.SHOPPING_CART));
            assertEquals(0, counts.get(TpcwTable.SHOPPING_CART_LINE));
            checkFieldRules(c);
            c.rollback();
        } finally {
            database.shutdown();
        }
    }

    private static void checkFieldRules(Connection c) throws SQLException {
        int[] stocks = TpcwLoader.initialStocks(SCALE, TinyDatabase.SEED);
        try (Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT i_id, i_stock, i_title, i_subject, i_cost, i_srp, "
                    + "i_related1, i_related2, i_related3, i_related4, i_related5 FROM item ORDER BY i_id")) {
                while (rs.next()) {
                    int id = rs.getInt(1);
                    assertEquals(stocks[id], rs.getInt(2), "I_STOCK of item " + id + " is the seed's");
                    assertTrue(rs.getInt(2) >= 10 && rs.getInt(2) <= 30);
                    String title = rs.getString(3);
                    assertTrue(title.length() >= 14 && title.length() <= 60, title);
                    if (id <= SCALE.items() / 5) {
                        assertTrue(title.startsWith(TpcwRandom.digSyl(id, 7)), title);
                    }
                    assertTrue(Vocabulary.SUBJECTS.contains(rs.getString(4)));
                    assertTrue(rs.getBigDecimal(5).compareTo(rs.getBigDecimal(6)) <= 0, "cost <= SRP");
                    var related = new java.util.HashSet<Integer>();
                    for (int r = 7; r <= 11; r++) {
                        related.add(rs.getInt(r));
                    }
                    assertEquals(5, related.size(), "five distinct related items");
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT c_id, c_uname, c_passwd, c_discount FROM customer")) {
                while (rs.next()) {
                    String userName = TpcwRandom.userName(rs.getInt(1));
                    assertEquals(userName, rs.getString(2));
                    assertEquals(TpcwRandom.password(userName), rs.getString(3));
                    assertTrue(rs.getBigDecimal(4).doubleValue() <= 0.5);
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT a_id, a_lname FROM author WHERE a_id <= "
                    + SCALE.items() / 10)) {
                while (rs.next()) {
                    assertTrue(rs.getString(2).startsWith(TpcwRandom.digSyl(rs.getInt(1), 7)));
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT MIN(ol_qty), MAX(ol_qty), MAX(ol_id) FROM order_line")) {
                rs.next();
                assertTrue(rs.getInt(1) >= 1 && rs.getInt(2) <= 300 && rs.getInt(3) <= 5);
            }
        }
    }
}
