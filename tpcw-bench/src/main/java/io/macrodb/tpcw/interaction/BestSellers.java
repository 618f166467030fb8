package io.macrodb.tpcw.interaction;

import io.macrodb.tpcw.Vocabulary;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
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
               AND order_line.ol_o_id >= ?
               AND item.i_subject = ?
             GROUP BY i_id, i_title, a_fname, a_lname
             ORDER BY sum_ol_qty DESC
             FETCH FIRST 50 ROWS ONLY""";

    static final String FIRST_OF_RECENT_ORDERS = """
            SELECT o_id FROM orders ORDER BY o_id DESC OFFSET ? ROWS FETCH FIRST 1 ROW ONLY""";

    /**
     * The smallest id of the {@code count} most recent orders (those with the largest ids), or 0 with fewer orders.
     * Order ids are not dense ({@code IdAllocator}), so a range below the largest id holds fewer. Read by a query of
     * its own and given to the main one as a value: as a subquery in it, both engines scanned every order line
     * (Best Sellers' p95 went from milliseconds to seconds).
     */
    static int firstOfRecentOrders(Connection connection, int count) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(FIRST_OF_RECENT_ORDERS)) {
            ps.setInt(1, count - 1);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getInt(1) : 0;
            }
        }
    }

    @Override
    public Page run(Connection connection, Visit visit) throws SQLException {
        String subject = visit.random().pick(Vocabulary.SUBJECTS);
        var listed = ItemList.query(connection, GET_BEST_SELLERS, firstOfRecentOrders(connection, 3333), subject);
        return ItemList.page(listed, Promotions.relatedToRandomItem(connection, visit));
    }
}
