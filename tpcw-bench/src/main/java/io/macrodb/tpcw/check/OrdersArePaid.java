package io.macrodb.tpcw.check;

import io.macrodb.bench.ConsistencyCheck;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Every order is whole: it has order lines and exactly one credit card transaction for its total, and no order
 * line or card transaction belongs to a missing order. Buy Confirm writes all of these in one transaction, so a
 * lost or half-applied Buy Confirm on any copy breaks this.
 */
final class OrdersArePaid implements ConsistencyCheck {

    static final String ORDERS_WITHOUT_LINES = """
            SELECT o_id FROM orders
             WHERE NOT EXISTS (SELECT 1 FROM order_line WHERE ol_o_id = o_id)
             ORDER BY o_id""";
    static final String ORDERS_NOT_PAID = """
            SELECT o_id, o_total, cx_xact_amt
              FROM orders LEFT JOIN cc_xacts ON cx_o_id = o_id
             WHERE cx_o_id IS NULL OR cx_xact_amt <> o_total
             ORDER BY o_id""";
    static final String LINES_WITHOUT_ORDER = """
            SELECT ol_o_id, ol_id FROM order_line
             WHERE NOT EXISTS (SELECT 1 FROM orders WHERE o_id = ol_o_id)
             ORDER BY ol_o_id, ol_id""";
    static final String PAYMENTS_WITHOUT_ORDER = """
            SELECT cx_o_id FROM cc_xacts
             WHERE NOT EXISTS (SELECT 1 FROM orders WHERE o_id = cx_o_id)
             ORDER BY cx_o_id""";

    @Override
    public String description() {
        return "TPC-W orders: every order has lines and one CC_XACTS row with CX_XACT_AMT = O_TOTAL, no orphans";
    }

    @Override
    public List<String> violations(Connection c) throws SQLException {
        var found = new ArrayList<String>();
        found.addAll(Violations.find(c, ORDERS_WITHOUT_LINES, rs -> "order " + rs.getInt(1) + " has no lines"));
        found.addAll(Violations.find(c, ORDERS_NOT_PAID, rs -> "order " + rs.getInt(1) + " total "
                + rs.getBigDecimal(2) + " has card transaction " + rs.getBigDecimal(3)));
        found.addAll(Violations.find(c, LINES_WITHOUT_ORDER, rs -> "order line " + rs.getInt(2) + " of missing order "
                + rs.getInt(1)));
        found.addAll(Violations.find(c, PAYMENTS_WITHOUT_ORDER, rs -> "card transaction of missing order "
                + rs.getInt(1)));
        return found;
    }
}
