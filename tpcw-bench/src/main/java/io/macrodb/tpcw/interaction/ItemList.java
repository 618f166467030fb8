package io.macrodb.tpcw.interaction;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a query whose first column is an item id and one string parameter, as the list pages do (New Products,
 * Best Sellers, Search Results), and returns the listed ids: the page's links.
 */
final class ItemList {

    private ItemList() {
    }

    static List<Integer> query(Connection connection, String sql, Object... parameters) throws SQLException {
        var ids = new ArrayList<Integer>();
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                ps.setObject(i + 1, parameters[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                int columns = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    ids.add(rs.getInt(1));
                    for (int c = 2; c <= columns; c++) {
                        rs.getObject(c);
                    }
                }
            }
        }
        return ids;
    }

    /** The page's links: the listed items, then the promotion's. */
    static Page page(List<Integer> listed, List<Integer> promoted) {
        var links = new ArrayList<Integer>(listed.size() + promoted.size());
        links.addAll(listed);
        links.addAll(promoted);
        return new Page().links(links).rows(listed.size());
    }
}
