package io.macrodb.tpcw.interaction;

import io.macrodb.tpcw.TpcwRandom;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * Buy Request (clause 2.6), an update transaction. A browser that knows its customer logs in with the user name
 * and password derived from C_ID (clause 4.7.1): the customer is read with address and country and the session
 * refreshed (C_LOGIN, C_EXPIRATION). A browser that does not registers a new customer (a new or matching address,
 * then the CUSTOMER row), whose id it keeps. Either way the page then shows the cart priced with the customer's
 * discount.
 */
final class BuyRequest implements WebInteraction {

    static final String GET_CUSTOMER = """
            SELECT c_id, c_passwd, c_fname, c_lname, c_discount, c_email, c_phone,
                   addr_street1, addr_street2, addr_city, addr_state, addr_zip, co_name
              FROM customer, address, country
             WHERE customer.c_addr_id = address.addr_id
               AND address.addr_co_id = country.co_id
               AND customer.c_uname = ?""";
    static final String REFRESH_SESSION = """
            UPDATE customer SET c_login = ?, c_expiration = ? WHERE c_id = ?""";
    static final String INSERT_CUSTOMER = """
            INSERT INTO customer (c_id, c_uname, c_passwd, c_fname, c_lname, c_addr_id, c_phone, c_email,
                c_since, c_last_login, c_login, c_expiration, c_discount, c_balance, c_ytd_pmt, c_birthdate, c_data)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""";

    /** Birth dates go back this many days (clause 4.7.1: from 1880 to now). */
    private static final int BIRTH_DAYS = 50_000;

    /** Who is buying: id, name and discount. */
    private record Buyer(int id, String name, BigDecimal discount) {
    }

    @Override
    public Page run(Connection connection, Visit visit) throws SQLException {
        int cartId = visit.cartId().orElseThrow(
                () -> new IllegalStateException("Buy Request without a shopping cart"));
        Buyer buyer = visit.customerId().isPresent()
                ? logIn(connection, visit, visit.customerId().getAsInt())
                : register(connection, visit);
        Cart cart = Cart.read(connection, cartId, buyer.discount());
        return new Page().customer(buyer.id()).customerName(buyer.name()).cart(cartId, cart.lines())
                .rows(1 + cart.lines().size());
    }

    private static Buyer logIn(Connection connection, Visit visit, int customerId) throws SQLException {
        String userName = TpcwRandom.userName(customerId);
        Buyer buyer;
        try (PreparedStatement ps = connection.prepareStatement(GET_CUSTOMER)) {
            ps.setString(1, userName);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("no customer " + userName + " with address and country", "02000");
                }
                if (!TpcwRandom.password(userName).equals(rs.getString("c_passwd"))) {
                    throw new SQLException("wrong password stored for customer " + userName, "28000");
                }
                buyer = new Buyer(rs.getInt("c_id"), rs.getString("c_fname") + " " + rs.getString("c_lname"),
                        rs.getBigDecimal("c_discount"));
            }
        }
        LocalDateTime now = visit.store().now();
        try (PreparedStatement ps = connection.prepareStatement(REFRESH_SESSION)) {
            ps.setObject(1, now);
            ps.setObject(2, now.plusHours(2));
            ps.setInt(3, buyer.id());
            ps.executeUpdate();
        }
        return buyer;
    }

    private static Buyer register(Connection connection, Visit visit) throws SQLException {
        TpcwRandom random = visit.random();
        String firstName = random.aString(8, 15);
        String lastName = random.aString(8, 15);
        var address = Addresses.Address.random(random);
        String phone = random.nString(9, 16);
        String email = random.aString(8, 15) + "@" + random.aString(2, 9) + ".com";
        LocalDate today = visit.store().now().toLocalDate();
        LocalDate birthDate = today.minusDays(random.uniform(0, BIRTH_DAYS));
        String data = random.aString(100, 500);
        BigDecimal discount = random.cents(0, 50);

        int addressId = Addresses.enter(connection, visit.store(), address);
        int customerId = visit.store().ids().next(IdAllocator.Key.CUSTOMER);
        String userName = TpcwRandom.userName(customerId);
        LocalDateTime now = visit.store().now();
        try (PreparedStatement ps = connection.prepareStatement(INSERT_CUSTOMER)) {
            ps.setInt(1, customerId);
            ps.setString(2, userName);
            ps.setString(3, TpcwRandom.password(userName));
            ps.setString(4, firstName);
            ps.setString(5, lastName);
            ps.setInt(6, addressId);
            ps.setString(7, phone);
            ps.setString(8, email);
            ps.setObject(9, today);
            ps.setObject(10, today);
            ps.setObject(11, now);
            ps.setObject(12, now.plusHours(2));
            ps.setBigDecimal(13, discount);
            ps.setBigDecimal(14, BigDecimal.ZERO.setScale(2));
            ps.setBigDecimal(15, BigDecimal.ZERO.setScale(2));
            ps.setObject(16, birthDate);
            ps.setString(17, data);
            ps.executeUpdate();
        }
        return new Buyer(customerId, firstName + " " + lastName, discount);
    }
}
