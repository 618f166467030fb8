package io.macrodb.tpcw.interaction;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/** An item with its author, as the Product Detail and Admin pages show it. */
record Book(int id, String title, String authorFirstName, String authorLastName, String subject,
            BigDecimal srp, BigDecimal cost, int stock, String image, List<Integer> related) {

    /** The reference's {@code getBook} ({@code SELECT * FROM item, author ...}), with the columns named. */
    static final String GET_BOOK = """
            SELECT i_id, i_title, a_fname, a_lname, i_subject, i_srp, i_cost, i_stock, i_image,
                   i_related1, i_related2, i_related3, i_related4, i_related5,
                   i_pub_date, i_publisher, i_desc, i_thumbnail, i_avail, i_isbn, i_page, i_backing, i_dimensions
              FROM item, author
             WHERE item.i_a_id = author.a_id AND i_id = ?""";

    static Optional<Book> read(Connection connection, int itemId) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(GET_BOOK)) {
            ps.setInt(1, itemId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new Book(rs.getInt(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getString(5), rs.getBigDecimal(6), rs.getBigDecimal(7), rs.getInt(8), rs.getString(9),
                        List.of(rs.getInt(10), rs.getInt(11), rs.getInt(12), rs.getInt(13), rs.getInt(14))));
            }
        }
    }

    /** Like {@link #read}, for an item the browser saw on a page: its absence is a broken database. */
    static Book require(Connection connection, int itemId) throws SQLException {
        return read(connection, itemId)
                .orElseThrow(() -> new SQLException("item " + itemId + " (with its author) not found", "02000"));
    }
}
