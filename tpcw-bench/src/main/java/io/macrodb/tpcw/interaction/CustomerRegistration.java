package io.macrodb.tpcw.interaction;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Customer Registration (clause 2.5): the registration form, pre-filled with a known customer's user name. The
 * browser's choice of registering or logging in is made on the next page (Buy Request).
 */
final class CustomerRegistration implements WebInteraction {

    static final String GET_USER_NAME = """
            SELECT c_uname FROM customer WHERE c_id = ?""";

    @Override
    public Page run(Connection connection, Visit visit) throws SQLException {
        int rows = visit.customerId().isPresent() ? userName(connection, visit.customerId().getAsInt()) : 0;
        return new Page().rows(rows);
    }

    /** The reference's {@code GetUserName}; returns the number of rows found. */
    static int userName(Connection connection, int customerId) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(GET_USER_NAME)) {
            ps.setInt(1, customerId);
            try (ResultSet rs = ps.executeQuery()) {
                int rows = 0;
                while (rs.next()) {
                    rs.getString(1);
                    rows++;
                }
                return rows;
            }
        }
    }
}
