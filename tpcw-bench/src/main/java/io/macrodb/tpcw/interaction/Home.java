package io.macrodb.tpcw.interaction;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/** Home (clause 2.3): greets a known customer by name, and shows the promotion. */
final class Home implements WebInteraction {

    static final String GET_NAME = """
            SELECT c_fname, c_lname FROM customer WHERE c_id = ?""";

    @Override
    public Page run(Connection connection, Visit visit) throws SQLException {
        int rows = 0;
        if (visit.customerId().isPresent()) {
            try (PreparedStatement ps = connection.prepareStatement(GET_NAME)) {
                ps.setInt(1, visit.customerId().getAsInt());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows++;
                    }
                }
            }
        }
        List<Integer> promoted = Promotions.relatedToRandomItem(connection, visit);
        return new Page().links(promoted).rows(rows + promoted.size());
    }
}
