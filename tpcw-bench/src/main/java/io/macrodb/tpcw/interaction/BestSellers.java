package io.macrodb.tpcw.interaction;

import io.macrodb.tpcw.Vocabulary;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Best Sellers (clause 2.8): the 50 items of a subject sold in the largest quantities over the last 3333 orders
 * (the reference's unoptimised query, which the specification's rules allow), and the promotion.
 */
final class BestSellers implements WebInteraction {

    static final String GET_BEST_SELLERS = """
            SELECT i_id, i_title, a_fname, a_lname, SUM(order_line.ol_qty) AS sum_ol_qty
              FROM item, author, order_line
             WHERE item.i_id = order_line.ol_i_id
               AND item.i_a_id = author.a_id
               AND order_line.ol_o_id > (SELECT MAX(o_id) - 3333 FROM orders)
               AND item.i_subject = ?
             GROUP BY i_id, i_title, a_fname, a_lname
             ORDER BY sum_ol_qty DESC
             FETCH FIRST 50 ROWS ONLY""";

    @Override
    public Page run(Connection connection, Visit visit) throws SQLException {
        String subject = visit.random().pick(Vocabulary.SUBJECTS);
        var listed = ItemList.query(connection, GET_BEST_SELLERS, subject);
        return ItemList.page(listed, Promotions.relatedToRandomItem(connection, visit));
    }
}
