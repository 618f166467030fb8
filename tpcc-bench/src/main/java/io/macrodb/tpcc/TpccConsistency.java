package io.macrodb.tpcc;

import io.macrodb.bench.ConsistencyCheck;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * TPC-C's consistency conditions (clause 3.3.2), each a query that returns the rows violating it. Conditions 1 to 4
 * are the ones the spec requires after a run; 5 to 9 and 12 are checked too. Every condition holds right after the
 * load and is kept by every transaction, so any row returned means a broken database (or a broken replica).
 */
public final class TpccConsistency {

    private static final int EXAMPLES = 5;

    /** A condition and the query listing its violations. */
    public record Condition(String description, String violationsQuery) implements ConsistencyCheck {

        @Override
        public List<String> violations(Connection connection) throws SQLException {
            var out = new ArrayList<String>();
            int total = 0;
            try (PreparedStatement ps = connection.prepareStatement(violationsQuery);
                 ResultSet rs = ps.executeQuery()) {
                ResultSetMetaData md = rs.getMetaData();
                while (rs.next()) {
                    total++;
                    if (out.size() < EXAMPLES) {
                        var sb = new StringBuilder();
                        for (int i = 1; i <= md.getColumnCount(); i++) {
                            sb.append(i == 1 ? "" : ", ").append(md.getColumnLabel(i).toLowerCase(Locale.ROOT))
                                    .append('=').append(rs.getObject(i));
                        }
                        out.add(sb.toString());
                    }
                }
            }
            if (total > EXAMPLES) {
                out.add("... " + (total - EXAMPLES) + " more violating rows");
            }
            return out;
        }
    }

    public static final Condition WAREHOUSE_YTD = new Condition("3.3.2.1 W_YTD = sum(D_YTD)", """
            SELECT w.w_id, w.w_ytd, SUM(d.d_ytd) AS sum_d_ytd
              FROM warehouse w
              JOIN district d ON d.d_w_id = w.w_id
             GROUP BY w.w_id, w.w_ytd
            HAVING w.w_ytd <> SUM(d.d_ytd)""");

    public static final Condition NEXT_ORDER_ID = new Condition(
            "3.3.2.2 D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID)", """
            SELECT d.d_w_id, d.d_id, d.d_next_o_id, o.max_o_id, n.max_no_o_id
              FROM district d
              LEFT JOIN (SELECT o_w_id, o_d_id, MAX(o_id) AS max_o_id
                           FROM orders GROUP BY o_w_id, o_d_id) o
                     ON o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id
              LEFT JOIN (SELECT no_w_id, no_d_id, MAX(no_o_id) AS max_no_o_id
                           FROM new_order GROUP BY no_w_id, no_d_id) n
                     ON n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id
             WHERE o.max_o_id IS NULL OR d.d_next_o_id - 1 <> o.max_o_id
                OR (n.max_no_o_id IS NOT NULL AND d.d_next_o_id - 1 <> n.max_no_o_id)""");

    public static final Condition NEW_ORDER_CONTIGUOUS = new Condition(
            "3.3.2.3 max(NO_O_ID) - min(NO_O_ID) + 1 = count(NEW-ORDER rows)", """
            SELECT no_w_id, no_d_id, MIN(no_o_id) AS min_no_o_id, MAX(no_o_id) AS max_no_o_id, COUNT(*) AS rows_
              FROM new_order
             GROUP BY no_w_id, no_d_id
            HAVING MAX(no_o_id) - MIN(no_o_id) + 1 <> COUNT(*)""");

    public static final Condition ORDER_LINE_COUNT = new Condition(
            "3.3.2.4 sum(O_OL_CNT) = count(ORDER-LINE rows) per district", """
            SELECT d.d_w_id, d.d_id, o.sum_ol_cnt, l.line_count
              FROM district d
              LEFT JOIN (SELECT o_w_id, o_d_id, SUM(o_ol_cnt) AS sum_ol_cnt
                           FROM orders GROUP BY o_w_id, o_d_id) o
                     ON o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id
              LEFT JOIN (SELECT ol_w_id, ol_d_id, COUNT(*) AS line_count
                           FROM order_line GROUP BY ol_w_id, ol_d_id) l
                     ON l.ol_w_id = d.d_w_id AND l.ol_d_id = d.d_id
             WHERE COALESCE(o.sum_ol_cnt, 0) <> COALESCE(l.line_count, 0)""");

    public static final Condition CARRIER_IFF_DELIVERED = new Condition(
            "3.3.2.5 O_CARRIER_ID is null iff a NEW-ORDER row exists", """
            SELECT o.o_w_id, o.o_d_id, o.o_id, o.o_carrier_id, n.no_o_id
              FROM orders o
              LEFT JOIN new_order n ON n.no_w_id = o.o_w_id AND n.no_d_id = o.o_d_id AND n.no_o_id = o.o_id
             WHERE (o.o_carrier_id IS NULL AND n.no_o_id IS NULL)
                OR (o.o_carrier_id IS NOT NULL AND n.no_o_id IS NOT NULL)""");

    public static final Condition LINES_PER_ORDER = new Condition(
            "3.3.2.6 O_OL_CNT = count(ORDER-LINE rows) per order", """
            SELECT o.o_w_id, o.o_d_id, o.o_id, o.o_ol_cnt, COUNT(ol.ol_number) AS lines_
              FROM orders o
              LEFT JOIN order_line ol ON ol.ol_w_id = o.o_w_id AND ol.ol_d_id = o.o_d_id AND ol.ol_o_id = o.o_id
             GROUP BY o.o_w_id, o.o_d_id, o.o_id, o.o_ol_cnt
            HAVING o.o_ol_cnt <> COUNT(ol.ol_number)""");

    public static final Condition DELIVERY_DATE_IFF_CARRIER = new Condition(
            "3.3.2.7 OL_DELIVERY_D is null iff O_CARRIER_ID is null", """
            SELECT ol.ol_w_id, ol.ol_d_id, ol.ol_o_id, ol.ol_number, ol.ol_delivery_d, o.o_carrier_id
              FROM order_line ol
              JOIN orders o ON o.o_w_id = ol.ol_w_id AND o.o_d_id = ol.ol_d_id AND o.o_id = ol.ol_o_id
             WHERE (ol.ol_delivery_d IS NULL AND o.o_carrier_id IS NOT NULL)
                OR (ol.ol_delivery_d IS NOT NULL AND o.o_carrier_id IS NULL)""");

    public static final Condition WAREHOUSE_HISTORY = new Condition("3.3.2.8 W_YTD = sum(H_AMOUNT) per warehouse", """
            SELECT w.w_id, w.w_ytd, h.sum_amount
              FROM warehouse w
              LEFT JOIN (SELECT h_w_id, SUM(h_amount) AS sum_amount FROM history GROUP BY h_w_id) h
                     ON h.h_w_id = w.w_id
             WHERE w.w_ytd <> COALESCE(h.sum_amount, 0)""");

    public static final Condition DISTRICT_HISTORY = new Condition("3.3.2.9 D_YTD = sum(H_AMOUNT) per district", """
            SELECT d.d_w_id, d.d_id, d.d_ytd, h.sum_amount
              FROM district d
              LEFT JOIN (SELECT h_w_id, h_d_id, SUM(h_amount) AS sum_amount
                           FROM history GROUP BY h_w_id, h_d_id) h
                     ON h.h_w_id = d.d_w_id AND h.h_d_id = d.d_id
             WHERE d.d_ytd <> COALESCE(h.sum_amount, 0)""");

    public static final Condition CUSTOMER_BALANCE = new Condition(
            "3.3.2.12 C_BALANCE + C_YTD_PAYMENT = sum(delivered OL_AMOUNT) per customer", """
            SELECT c.c_w_id, c.c_d_id, c.c_id, c.c_balance, c.c_ytd_payment, x.delivered
              FROM customer c
              LEFT JOIN (SELECT o.o_w_id, o.o_d_id, o.o_c_id, SUM(ol.ol_amount) AS delivered
                           FROM orders o
                           JOIN order_line ol
                             ON ol.ol_w_id = o.o_w_id AND ol.ol_d_id = o.o_d_id AND ol.ol_o_id = o.o_id
                          WHERE ol.ol_delivery_d IS NOT NULL
                          GROUP BY o.o_w_id, o.o_d_id, o.o_c_id) x
                     ON x.o_w_id = c.c_w_id AND x.o_d_id = c.c_d_id AND x.o_c_id = c.c_id
             WHERE c.c_balance + c.c_ytd_payment <> COALESCE(x.delivered, 0)""");

    private TpccConsistency() {
    }

    /** Every condition, in clause order. */
    public static List<ConsistencyCheck> all() {
        return List.of(WAREHOUSE_YTD, NEXT_ORDER_ID, NEW_ORDER_CONTIGUOUS, ORDER_LINE_COUNT, CARRIER_IFF_DELIVERED,
                LINES_PER_ORDER, DELIVERY_DATE_IFF_CARRIER, WAREHOUSE_HISTORY, DISTRICT_HISTORY, CUSTOMER_BALANCE);
    }
}
