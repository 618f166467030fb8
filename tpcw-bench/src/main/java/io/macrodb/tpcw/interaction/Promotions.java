package io.macrodb.tpcw.interaction;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Promotional processing (clause 2.15), shown on the Home, New Products, Best Sellers, Search Request, Search
 * Results and Shopping Cart pages: the five items related to a randomly chosen one, with their thumbnails.
 */
final class Promotions {

    /**
     * The reference's {@code getRelated}, as it wrote it. (The equivalent {@code J.i_id IN (I.i_related1, ...)}
     * makes HSQLDB 2.7 scan all of ITEM; this form is answered by key lookups on both engines.)
     */
    static final String GET_RELATED = """
            SELECT J.i_id, J.i_thumbnail
              FROM item I, item J
             WHERE (I.i_related1 = J.i_id OR I.i_related2 = J.i_id OR I.i_related3 = J.i_id
                    OR I.i_related4 = J.i_id OR I.i_related5 = J.i_id)
               AND I.i_id = ?""";

    private Promotions() {
    }

    /** The items related to a random item: the links the promotion adds to the page. */
    static List<Integer> relatedToRandomItem(Connection connection, Visit visit) throws SQLException {
        var related = new ArrayList<Integer>(5);
        try (PreparedStatement ps = connection.prepareStatement(GET_RELATED)) {
            ps.setInt(1, visit.randomItem());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    related.add(rs.getInt(1));
                    rs.getString(2);
                }
            }
        }
        return related;
    }
}
