package io.macrodb.tpcc.procedures;

import io.macrodb.tpcc.Terminal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Stock-Level (clause 2.8), read-only: how many distinct items of the district's last 20 orders are in stock below a
 * threshold. The terminal's own district is fixed (clause 2.8.1.1); the threshold is uniform in [10, 20].
 */
public final class StockLevel extends Procedure {

    static final String NEXT_ORDER_ID = """
            SELECT d_next_o_id
              FROM district
             WHERE d_w_id = ? AND d_id = ?""";

    static final String LOW_STOCK = """
            SELECT COUNT(DISTINCT s.s_i_id)
              FROM order_line ol
              JOIN stock s ON s.s_w_id = ol.ol_w_id AND s.s_i_id = ol.ol_i_id
             WHERE ol.ol_w_id = ? AND ol.ol_d_id = ?
               AND ol.ol_o_id < ? AND ol.ol_o_id >= ?
               AND s.s_quantity < ?""";

    static final int RECENT_ORDERS = 20;

    public record Input(int warehouseId, int districtId, int threshold) {
    }

    public record Output(int lowStock) {
    }

    private final PreparedStatement nextOrderId;
    private final PreparedStatement lowStock;

    public StockLevel(Connection connection) throws SQLException {
        super(connection);
        nextOrderId = prepare(NEXT_ORDER_ID);
        lowStock = prepare(LOW_STOCK);
    }

    public static Input generate(Terminal t) {
        return new Input(t.warehouseId(), t.districtId(), t.random().uniform(10, 20));
    }

    public Output execute(Input in) throws SQLException {
        int next;
        try (ResultSet rs = oneRow(nextOrderId, "district", in.warehouseId(), in.districtId())) {
            next = rs.getInt(1);
        }
        lowStock.setInt(1, in.warehouseId());
        lowStock.setInt(2, in.districtId());
        lowStock.setInt(3, next);
        lowStock.setInt(4, next - RECENT_ORDERS);
        lowStock.setInt(5, in.threshold());
        try (ResultSet rs = lowStock.executeQuery()) {
            rs.next();
            return new Output(rs.getInt(1));
        }
    }
}
