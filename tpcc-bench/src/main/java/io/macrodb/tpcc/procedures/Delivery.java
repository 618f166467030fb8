package io.macrodb.tpcc.procedures;

import io.macrodb.tpcc.Terminal;
import io.macrodb.tpcc.TpccScale;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.sql.Timestamp;

/**
 * Delivery (clause 2.7): for each of the home warehouse's 10 districts, deliver the oldest undelivered order: remove
 * its NEW-ORDER row, set its carrier, stamp its lines' delivery date, and add its amount to the customer's balance.
 * A district without undelivered orders is skipped. Run in the foreground (the spec allows deferred execution;
 * this measures the same database work).
 *
 * <p>Two concurrent Deliveries of one warehouse can pick the same oldest order; the second's DELETE then removes no
 * row once the first commits, and it takes the next oldest instead, so no order is delivered twice. (Where the engine
 * would show it the same row again, it fails with SQLState 40001 and the harness runs it again.)
 */
public final class Delivery extends Procedure {

    /**
     * The district's oldest undelivered order. Ordered by the whole primary key, not by {@code no_o_id} alone and not
     * as {@code MIN(no_o_id)}: only then do H2 and HSQLDB read the first index entry instead of every NEW-ORDER row
     * of the district (measured 20-40x per query; with MIN, Delivery took over 40% of H2's CPU on the standard mix).
     */
    static final String OLDEST_NEW_ORDER = """
            SELECT no_o_id
              FROM new_order
             WHERE no_w_id = ? AND no_d_id = ?
             ORDER BY no_w_id, no_d_id, no_o_id
             FETCH FIRST 1 ROWS ONLY""";

    static final String DELETE_NEW_ORDER = """
            DELETE FROM new_order
             WHERE no_w_id = ? AND no_d_id = ? AND no_o_id = ?""";

    static final String GET_ORDER_CUSTOMER = """
            SELECT o_c_id
              FROM orders
             WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?""";

    static final String SET_CARRIER = """
            UPDATE orders
               SET o_carrier_id = ?
             WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?""";

    static final String SET_DELIVERY_DATE = """
            UPDATE order_line
               SET ol_delivery_d = ?
             WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?""";

    static final String ORDER_AMOUNT = """
            SELECT SUM(ol_amount)
              FROM order_line
             WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?""";

    static final String CREDIT_CUSTOMER = """
            UPDATE customer
               SET c_balance = c_balance + ?,
                   c_delivery_cnt = c_delivery_cnt + 1
             WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?""";

    /** The terminal's input (clause 2.7.1). */
    public record Input(int warehouseId, int carrierId) {
    }

    /** How many districts had an order to deliver. */
    public record Output(int delivered) {
    }

    private final PreparedStatement oldestNewOrder;
    private final PreparedStatement deleteNewOrder;
    private final PreparedStatement getOrderCustomer;
    private final PreparedStatement setCarrier;
    private final PreparedStatement setDeliveryDate;
    private final PreparedStatement orderAmount;
    private final PreparedStatement creditCustomer;

    public Delivery(Connection connection) throws SQLException {
        super(connection);
        oldestNewOrder = prepare(OLDEST_NEW_ORDER);
        deleteNewOrder = prepare(DELETE_NEW_ORDER);
        getOrderCustomer = prepare(GET_ORDER_CUSTOMER);
        setCarrier = prepare(SET_CARRIER);
        setDeliveryDate = prepare(SET_DELIVERY_DATE);
        orderAmount = prepare(ORDER_AMOUNT);
        creditCustomer = prepare(CREDIT_CUSTOMER);
    }

    public static Input generate(Terminal t) {
        return new Input(t.warehouseId(), t.random().uniform(1, 10));
    }

    public Output execute(Input in) throws SQLException {
        int w = in.warehouseId();
        Timestamp now = new Timestamp(System.currentTimeMillis());
        int delivered = 0;
        for (int d = 1; d <= TpccScale.DISTRICTS_PER_WAREHOUSE; d++) {
            int orderId = claimOldest(w, d);
            if (orderId < 0) {
                continue;
            }
            int customerId;
            try (ResultSet rs = oneRow(getOrderCustomer, "order", w, d, orderId)) {
                customerId = rs.getInt(1);
            }
            setCarrier.setInt(1, in.carrierId());
            setCarrier.setInt(2, w);
            setCarrier.setInt(3, d);
            setCarrier.setInt(4, orderId);
            setCarrier.executeUpdate();

            setDeliveryDate.setTimestamp(1, now);
            setDeliveryDate.setInt(2, w);
            setDeliveryDate.setInt(3, d);
            setDeliveryDate.setInt(4, orderId);
            setDeliveryDate.executeUpdate();

            orderAmount.setInt(1, w);
            orderAmount.setInt(2, d);
            orderAmount.setInt(3, orderId);
            BigDecimal amount;
            try (ResultSet rs = orderAmount.executeQuery()) {
                rs.next();
                amount = rs.getBigDecimal(1);
            }
            if (amount == null) {
                throw missing("order lines of order " + w + "/" + d + "/" + orderId);
            }
            creditCustomer.setBigDecimal(1, amount);
            creditCustomer.setInt(2, w);
            creditCustomer.setInt(3, d);
            creditCustomer.setInt(4, customerId);
            creditCustomer.executeUpdate();
            delivered++;
        }
        return new Output(delivered);
    }

    /** Deletes the district's oldest NEW-ORDER row and returns its order id; -1 when there is none. */
    private int claimOldest(int w, int d) throws SQLException {
        int lost = -1;
        while (true) {
            oldestNewOrder.setInt(1, w);
            oldestNewOrder.setInt(2, d);
            int orderId;
            try (ResultSet rs = oldestNewOrder.executeQuery()) {
                if (!rs.next()) {
                    return -1;
                }
                orderId = rs.getInt(1);
            }
            if (orderId == lost) {
                // the engine still shows the row this transaction could not delete (a snapshot isolation level):
                // only running the whole transaction again sees the other Delivery's work
                throw new SQLTransactionRollbackException("order " + w + "/" + d + "/" + orderId + " was delivered "
                        + "by a concurrent Delivery", "40001");
            }
            deleteNewOrder.setInt(1, w);
            deleteNewOrder.setInt(2, d);
            deleteNewOrder.setInt(3, orderId);
            if (deleteNewOrder.executeUpdate() == 1) {
                return orderId;
            }
            lost = orderId; // another Delivery took it meanwhile: try the next oldest
        }
    }
}
