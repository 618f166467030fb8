package io.macrodb.tpcc.procedures;

import io.macrodb.tpcc.Terminal;
import io.macrodb.tpcc.TpccTransactionType;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.HashSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StockLevelTest extends AbstractTransactionTest {

    @Override
    TpccTransactionType type() {
        return TpccTransactionType.STOCK_LEVEL;
    }

    @Override
    void checkEffects(Connection c, Terminal terminal) throws Exception {
        var stockLevel = new StockLevel(c);
        int next = (int) queryLong(c, "SELECT d_next_o_id FROM district WHERE d_w_id = 2 AND d_id = 5");
        // the expected answer, computed in Java from the last 20 orders' lines and the stock quantities
        var items = new HashSet<Integer>();
        try (PreparedStatement ps = c.prepareStatement("SELECT ol_i_id FROM order_line WHERE ol_w_id = 2 AND "
                + "ol_d_id = 5 AND ol_o_id >= ? AND ol_o_id < ?")) {
            ps.setInt(1, next - 20);
            ps.setInt(2, next);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    items.add(rs.getInt(1));
                }
            }
        }
        var quantity = new HashMap<Integer, Integer>();
        for (int item : items) {
            quantity.put(item, (int) queryLong(c, "SELECT s_quantity FROM stock WHERE s_w_id = 2 AND s_i_id = ?", item));
        }
        c.commit();
        for (int threshold : new int[]{10, 15, 20, 101}) {
            long expected = quantity.values().stream().filter(q -> q < threshold).count();
            c.setReadOnly(true);
            assertEquals(expected, stockLevel.execute(new StockLevel.Input(2, 5, threshold)).lowStock(),
                    "threshold " + threshold);
            c.commit();
            c.setReadOnly(false);
        }
        assertEquals(items.size(), stockLevel.execute(new StockLevel.Input(2, 5, 101)).lowStock());
        c.commit();
        stockLevel.close();

        for (int i = 0; i < 1_000; i++) {
            StockLevel.Input in = StockLevel.generate(terminal);
            assertEquals(terminal.districtId(), in.districtId(), "a terminal checks its own district");
            assertTrue(in.threshold() >= 10 && in.threshold() <= 20);
        }
    }
}
