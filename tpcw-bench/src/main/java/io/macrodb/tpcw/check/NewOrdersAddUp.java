package io.macrodb.tpcw.check;

import io.macrodb.bench.ConsistencyCheck;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The orders placed during the run (O_ID above the loaded ones) add up: O_TAX is 8.25% of O_SUB_TOTAL and
 * O_TOTAL is O_SUB_TOTAL + O_TAX + 3.00 + 1.00 per book ordered (the sum of their lines' OL_QTY), and they
 * name a customer and addresses that exist.
 */
final class NewOrdersAddUp implements ConsistencyCheck {

    private static final BigDecimal TAX_RATE = new BigDecimal("0.0825");

    static final String NEW_ORDER_TOTALS = """
            SELECT o_id, o_sub_total, o_tax, o_total, SUM(ol_qty)
              FROM orders, order_line
             WHERE ol_o_id = o_id AND o_id > ?
             GROUP BY o_id, o_sub_total, o_tax, o_total
             ORDER BY o_id""";
    static final String NEW_ORDERS_WITH_DANGLING_KEYS = """
            SELECT o_id FROM orders
             WHERE o_id > ?
               AND (NOT EXISTS (SELECT 1 FROM customer WHERE c_id = o_c_id)
                    OR NOT EXISTS (SELECT 1 FROM address WHERE addr_id = o_bill_addr_id)
                    OR NOT EXISTS (SELECT 1 FROM address WHERE addr_id = o_ship_addr_id))
             ORDER BY o_id""";

    private final int loadedOrders;

    NewOrdersAddUp(int loadedOrders) {
        this.loadedOrders = loadedOrders;
    }

    @Override
    public String description() {
        return "TPC-W new orders: O_TOTAL = O_SUB_TOTAL + 8.25% tax + 3.00 + 1.00 per book; "
                + "customer and addresses exist";
    }

    @Override
    public List<String> violations(Connection c) throws SQLException {
        var found = new ArrayList<String>();
        found.addAll(Violations.find(c, NEW_ORDER_TOTALS, rs -> {
            BigDecimal subTotal = rs.getBigDecimal(2);
            BigDecimal tax = rs.getBigDecimal(3);
            BigDecimal total = rs.getBigDecimal(4);
            long books = rs.getLong(5);
            BigDecimal expectedTax = subTotal.multiply(TAX_RATE).setScale(2, RoundingMode.HALF_UP);
            BigDecimal expectedTotal = subTotal.add(expectedTax).add(BigDecimal.valueOf(300 + 100 * books, 2));
            if (tax.compareTo(expectedTax) == 0 && total.compareTo(expectedTotal) == 0) {
                return null;
            }
            return "order " + rs.getInt(1) + ": sub-total " + subTotal + ", tax " + tax + ", total " + total
                    + " for " + books + " books; expected tax " + expectedTax + ", total " + expectedTotal;
        }, loadedOrders));
        found.addAll(Violations.find(c, NEW_ORDERS_WITH_DANGLING_KEYS,
                rs -> "order " + rs.getInt(1) + " names a missing customer or address", loadedOrders));
        return found;
    }
}
