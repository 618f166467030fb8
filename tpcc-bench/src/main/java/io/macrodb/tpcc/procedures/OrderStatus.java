package io.macrodb.tpcc.procedures;

import io.macrodb.tpcc.Terminal;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Order-Status (clause 2.6), read-only: a customer's balance, latest order and its lines.
 *
 * <p>Inputs per clause 2.6.1: home warehouse, district uniform, 60% of customers by last name, 40% by id.
 */
public final class OrderStatus extends Procedure {

    static final String GET_CUSTOMER = """
            SELECT c_first, c_middle, c_last, c_balance
              FROM customer
             WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?""";

    static final String LAST_ORDER = """
            SELECT o_id, o_entry_d, o_carrier_id
              FROM orders
             WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ?
             ORDER BY o_id DESC
             FETCH FIRST 1 ROWS ONLY""";

    static final String ORDER_LINES = """
            SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d
              FROM order_line
             WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?""";

    private static final int BY_NAME_PERCENT = 60;

    /** Exactly one of {@code customerId} (> 0) and {@code customerLastName} is set. */
    public record Input(int warehouseId, int districtId, int customerId, String customerLastName) {
    }

    /** What tests check. */
    public record Output(int customerId, BigDecimal balance, int orderId, int lineCount) {
    }

    private final PreparedStatement customersByName;
    private final PreparedStatement getCustomer;
    private final PreparedStatement lastOrder;
    private final PreparedStatement orderLines;

    public OrderStatus(Connection connection) throws SQLException {
        super(connection);
        customersByName = prepare(CustomerLookup.CUSTOMERS_BY_LAST_NAME);
        getCustomer = prepare(GET_CUSTOMER);
        lastOrder = prepare(LAST_ORDER);
        orderLines = prepare(ORDER_LINES);
    }

    /** Draws the input per clause 2.6.1. */
    public static Input generate(Terminal t) {
        var r = t.random();
        int d = t.randomDistrict();
        boolean byName = r.percent(BY_NAME_PERCENT);
        return new Input(t.warehouseId(), d, byName ? 0 : r.customerId(), byName ? r.lastNameByNuRand() : null);
    }

    public Output execute(Input in) throws SQLException {
        int w = in.warehouseId();
        int d = in.districtId();
        int cId = in.customerLastName() != null
                ? CustomerLookup.byLastName(customersByName, w, d, in.customerLastName())
                : in.customerId();
        BigDecimal balance;
        try (ResultSet rs = oneRow(getCustomer, "customer", w, d, cId)) {
            balance = rs.getBigDecimal(4);
        }

        int orderId;
        try (ResultSet rs = oneRow(lastOrder, "an order of customer", w, d, cId)) {
            orderId = rs.getInt(1);
        }

        orderLines.setInt(1, w);
        orderLines.setInt(2, d);
        orderLines.setInt(3, orderId);
        int lines = 0;
        try (ResultSet rs = orderLines.executeQuery()) {
            while (rs.next()) {
                lines++;
            }
        }
        return new Output(cId, balance, orderId, lines);
    }
}
