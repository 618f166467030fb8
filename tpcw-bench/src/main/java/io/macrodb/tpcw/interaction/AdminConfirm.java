package io.macrodb.tpcw.interaction;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Admin Confirm (clause 2.16), an update transaction: the reference's {@code adminUpdate}. It sets the item's
 * cost, image and thumbnail (and publication date), then recomputes its five related items: the items most
 * bought by the customers who bought this one in the last 10 000 orders. Two departures from the specification's
 * text, both the reference's: the items are counted over all those customers' orders, not only the 10 000 (clause
 * 2.16.3.3), and with fewer than five such items the list is completed with the ids following the last one (the
 * specification: the item's id plus 7, 14, ... 35), wrapping past the last item so that every related id names an
 * item.
 */
final class AdminConfirm implements WebInteraction {

    static final String ADMIN_UPDATE = """
            UPDATE item SET i_cost = ?, i_image = ?, i_thumbnail = ?, i_pub_date = ? WHERE i_id = ?""";
    static final String GET_RELATED_BY_CUSTOMERS = """
            SELECT ol_i_id, SUM(ol_qty) AS sum_ol_qty
              FROM orders, order_line
             WHERE orders.o_id = order_line.ol_o_id
               AND order_line.ol_i_id <> ?
               AND orders.o_c_id IN (SELECT o_c_id
                                       FROM orders, order_line
                                      WHERE orders.o_id = order_line.ol_o_id
                                        AND orders.o_id >= ?
                                        AND order_line.ol_i_id = ?)
             GROUP BY ol_i_id
             ORDER BY sum_ol_qty DESC
             FETCH FIRST 5 ROWS ONLY""";
    static final String UPDATE_RELATED = """
            UPDATE item SET i_related1 = ?, i_related2 = ?, i_related3 = ?, i_related4 = ?, i_related5 = ?
             WHERE i_id = ?""";

    @Override
    public Page run(Connection connection, Visit visit) throws SQLException {
        int itemId = visit.itemId().orElseThrow(
                () -> new IllegalStateException("Admin Confirm without an item"));
        int imageItem = visit.randomItem();
        int thumbnailItem = visit.randomItem();
        try (PreparedStatement ps = connection.prepareStatement(ADMIN_UPDATE)) {
            ps.setBigDecimal(1, visit.random().cents(100, 999_999));
            ps.setString(2, "img" + imageItem % 100 + "/image_" + imageItem + ".gif");
            ps.setString(3, "img" + thumbnailItem % 100 + "/thumb_" + thumbnailItem + ".gif");
            ps.setObject(4, visit.store().now().toLocalDate());
            ps.setInt(5, itemId);
            ps.executeUpdate();
        }
        int[] related = new int[5];
        int found = 0;
        int since = BestSellers.firstOfRecentOrders(connection, 10_000);
        try (PreparedStatement ps = connection.prepareStatement(GET_RELATED_BY_CUSTOMERS)) {
            ps.setInt(1, itemId);
            ps.setInt(2, since);
            ps.setInt(3, itemId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next() && found < related.length) {
                    related[found++] = rs.getInt(1);
                }
            }
        }
        int items = visit.store().scale().items();
        int last = found == 0 ? 0 : related[found - 1];
        for (int i = found; i < related.length; i++) {
            last = last % items + 1;
            related[i] = last;
        }
        try (PreparedStatement ps = connection.prepareStatement(UPDATE_RELATED)) {
            for (int i = 0; i < related.length; i++) {
                ps.setInt(i + 1, related[i]);
            }
            ps.setInt(6, itemId);
            ps.executeUpdate();
        }
        Book book = Book.require(connection, itemId);
        return new Page().item(itemId).links(book.related()).rows(1 + found);
    }
}
