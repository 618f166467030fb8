package io.macrodb.tpcw.interaction;

import io.macrodb.tpcw.TpcwRandom;
import io.macrodb.tpcw.TpcwScale;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The reference's {@code enterAddress}, used by Buy Request for a new customer and by Buy Confirm for a new
 * shipping address: reuse an identical ADDRESS row when there is one, insert a new one otherwise.
 */
final class Addresses {

    static final String MATCH_ADDRESS = """
            SELECT addr_id FROM address
             WHERE addr_street1 = ? AND addr_street2 = ? AND addr_city = ? AND addr_state = ? AND addr_zip = ?
               AND addr_co_id = ?""";

    static final String INSERT_ADDRESS = """
            INSERT INTO address (addr_id, addr_street1, addr_street2, addr_city, addr_state, addr_zip, addr_co_id)
            VALUES (?, ?, ?, ?, ?, ?, ?)""";

    /** An address as a browser types it in (clause 2.6.3.3 / 2.7.3.2 field rules). */
    record Address(String street1, String street2, String city, String state, String zip, int countryId) {

        static Address random(TpcwRandom random) {
            return new Address(random.aString(15, 40), random.aString(15, 40), random.aString(4, 30),
                    random.aString(2, 20), random.aString(5, 10), random.uniform(1, TpcwScale.COUNTRIES));
        }
    }

    private Addresses() {
    }

    /** The id of a matching address, inserting it first when none matches. */
    static int enter(Connection connection, Store store, Address a) throws SQLException {
        try (PreparedStatement match = connection.prepareStatement(MATCH_ADDRESS)) {
            match.setString(1, a.street1());
            match.setString(2, a.street2());
            match.setString(3, a.city());
            match.setString(4, a.state());
            match.setString(5, a.zip());
            match.setInt(6, a.countryId());
            try (ResultSet rs = match.executeQuery()) {
                if (rs.next()) {
                    return rs.getInt(1);
                }
            }
        }
        int id = store.ids().next(IdAllocator.Key.ADDRESS);
        try (PreparedStatement insert = connection.prepareStatement(INSERT_ADDRESS)) {
            insert.setInt(1, id);
            insert.setString(2, a.street1());
            insert.setString(3, a.street2());
            insert.setString(4, a.city());
            insert.setString(5, a.state());
            insert.setString(6, a.zip());
            insert.setInt(7, a.countryId());
            insert.executeUpdate();
        }
        return id;
    }
}
