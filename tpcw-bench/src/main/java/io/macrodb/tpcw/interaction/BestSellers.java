package io.macrodb.tpcw.interaction;

import io.macrodb.tpcw.Vocabulary;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Best Sellers (clause 2.13): the 50 items of a subject sold in the largest quantities over the 3,333 most recent
 * orders (the reference's unoptimised query, which the specification's rules allow), and the promotion. The most
 * recent orders are the 3,333 largest order ids, counted, not the ids above {@code MAX(o_id) - 3333} as the reference
 * has it: browsers number their orders in residue classes of their own ({@code IdAllocator}), so that range held ever
 * fewer orders as a run went on (a third of them after 30 s at 128 browsers, found by an audit, 2026-11-23).
 */
final class BestSellers implements WebInteraction {

    static final String GET_BEST_SELLERS = """
            SELECT i_id, i_title, a_fname, a_lname, SUM(order_line.ol_qty) AS sum_ol_qty
              FROM item, author, order_line
             WHERE item.i_id = order_line.ol_i_id
               AND item.i_a_id = author.a_id
               AND order_line.ol_o_id >= """ + firstOfRecentOrders(3333) + """
               AND item.i_subject = ?
             GROUP BY i_id, i_title, a_fname, a_lname
             ORDER BY sum_ol_qty DESC
             FETCH FIRST 50 ROWS ONLY""";

    /**
     * A scalar subquery: the smallest id of the {@code count} most recent orders (those with the largest ids), or 0
     * with fewer orders. Order ids are not dense ({@code IdAllocator}), so a range below the largest id holds fewer.
     */
    static String firstOfRecentOrders(int count) {
        return "(SELECT COALESCE(MIN(o_id), 0) FROM (SELECT o_id FROM orders ORDER BY o_id DESC FETCH FIRST " + count
                + " ROWS ONLY) AS recent)";
    }

    @Override
    public Page run(Connection connection, Visit visit) throws SQLException {
        String subject = visit.random().pick(Vocabulary.SUBJECTS);
        var listed = ItemList.query(connection, GET_BEST_SELLERS, subject);
        return ItemList.page(listed, Promotions.relatedToRandomItem(connection, visit));
    }
}
