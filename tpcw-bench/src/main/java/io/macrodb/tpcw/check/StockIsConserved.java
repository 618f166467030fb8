package io.macrodb.tpcw.check;

import io.macrodb.bench.ConsistencyCheck;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Stock is conserved: each Buy Confirm order line takes its quantity from the item's stock and adds 21 when
 * fewer than 10 would remain (clause 2.7.3.3). So for every item, {@code stock now - stock at load + books
 * ordered during the run} must be 21 times a number between 0 and the number of such order lines. A lost stock
 * update, or an order line without its stock change (or the reverse), breaks it; a copy that missed a whole Buy
 * Confirm (its order, lines and stock changes together) does not: {@code MacroCluster.verify()} finds that one. The
 * stock at load comes from the loader's seed ({@code TpcwLoader.initialStocks}).
 */
final class StockIsConserved implements ConsistencyCheck {

    static final String ORDERED_DURING_RUN = """
            SELECT ol_i_id, SUM(ol_qty), COUNT(*)
              FROM order_line
             WHERE ol_o_id > ?
             GROUP BY ol_i_id""";
    static final String STOCK = """
            SELECT i_id, i_stock FROM item ORDER BY i_id""";

    private static final int RESTOCK = 21;

    private final int loadedOrders;
    private final Supplier<int[]> initialStocks;

    StockIsConserved(int loadedOrders, Supplier<int[]> initialStocks) {
        this.loadedOrders = loadedOrders;
        this.initialStocks = initialStocks;
    }

    @Override
    public String description() {
        return "TPC-W stock: I_STOCK = stock at load - books ordered + 21 x restocks, 0 <= restocks <= order lines";
    }

    @Override
    public List<String> violations(Connection c) throws SQLException {
        int[] initial = initialStocks.get();
        Map<Integer, long[]> ordered = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(ORDERED_DURING_RUN)) {
            ps.setInt(1, loadedOrders);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ordered.put(rs.getInt(1), new long[] {rs.getLong(2), rs.getLong(3)});
                }
            }
        }
        var found = new ArrayList<String>();
        int items = 0;
        try (PreparedStatement ps = c.prepareStatement(STOCK); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                items++;
                int id = rs.getInt(1);
                int stock = rs.getInt(2);
                if (id < 1 || id >= initial.length) {
                    found.add("item " + id + " was not loaded");
                    continue;
                }
                long[] books = ordered.getOrDefault(id, new long[] {0, 0});
                long restocked = stock - initial[id] + books[0];
                if (restocked % RESTOCK != 0 || restocked < 0 || restocked / RESTOCK > books[1]) {
                    if (found.size() < Violations.EXAMPLES) {
                        found.add("item " + id + ": stock " + stock + ", at load " + initial[id] + ", " + books[0]
                                + " books ordered on " + books[1] + " lines");
                    }
                }
            }
        }
        if (items != initial.length - 1) {
            found.add(items + " items, " + (initial.length - 1) + " loaded");
        }
        return found;
    }
}
