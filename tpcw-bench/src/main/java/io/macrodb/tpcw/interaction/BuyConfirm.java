package io.macrodb.tpcw.interaction;

import io.macrodb.tpcw.TpcwRandom;
import io.macrodb.tpcw.Vocabulary;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.List;

/**
 * Buy Confirm (clause 2.7), an update transaction: the reference's {@code doBuyConfirm}. It prices the cart with
 * the customer's discount, ships to the customer's address or (5% of the time) to a new one the browser types
 * in, enters the order, one order line per cart line with the stock adjusted, the credit card transaction, and
 * empties the cart.
 *
 * <p>The stock rule is clause 2.7.3.3's: subtract the quantity, and add 21 if fewer than 10 would remain. The
 * reference reads I_STOCK and writes the new value in two statements, which loses an update when two buyers
 * order the same item at once under read-committed isolation; here it is one UPDATE, so concurrent orders of an
 * item serialise on its row and the stock invariant ({@code TpcwChecks}) holds exactly.
 */
final class BuyConfirm implements WebInteraction {

    static final String GET_CUSTOMER = """
            SELECT c_discount, c_addr_id FROM customer WHERE c_id = ?""";
    static final String INSERT_ORDER = """
            INSERT INTO orders (o_id, o_c_id, o_date, o_sub_total, o_tax, o_total, o_ship_type, o_ship_date,
                o_bill_addr_id, o_ship_addr_id, o_status)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'PENDING')""";
    static final String INSERT_ORDER_LINE = """
            INSERT INTO order_line (ol_id, ol_o_id, ol_i_id, ol_qty, ol_discount, ol_comments)
            VALUES (?, ?, ?, ?, ?, ?)""";
    static final String UPDATE_STOCK = """
            UPDATE item
               SET i_stock = CASE WHEN i_stock - ? < 10 THEN i_stock - ? + 21 ELSE i_stock - ? END
             WHERE i_id = ?""";
    static final String INSERT_CC_XACT = """
            INSERT INTO cc_xacts (cx_o_id, cx_type, cx_num, cx_name, cx_expire, cx_auth_id, cx_xact_amt,
                cx_xact_date, cx_co_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?,
                    (SELECT co_id FROM address, country WHERE addr_id = ? AND addr_co_id = co_id))""";
    static final String CLEAR_CART = """
            DELETE FROM shopping_cart_line WHERE scl_sc_id = ?""";

    @Override
    public Page run(Connection connection, Visit visit) throws SQLException {
        int customerId = visit.customerId().orElseThrow(
                () -> new IllegalStateException("Buy Confirm without a customer"));
        int cartId = visit.cartId().orElseThrow(() -> new IllegalStateException("Buy Confirm without a cart"));
        TpcwRandom random = visit.random();
        String cardType = random.pick(Vocabulary.CARD_TYPES);
        long cardNumber = Long.parseLong(random.nString(16, 16));
        String cardName = visit.customerName().orElse(random.aString(14, 30));
        String shipping = random.pick(Vocabulary.SHIP_TYPES);
        Addresses.Address newAddress = random.percent(5) ? Addresses.Address.random(random) : null;
        LocalDateTime now = visit.store().now();

        BigDecimal discount;
        int customerAddressId;
        try (PreparedStatement ps = connection.prepareStatement(GET_CUSTOMER)) {
            ps.setInt(1, customerId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("no customer " + customerId, "02000");
                }
                discount = rs.getBigDecimal(1);
                customerAddressId = rs.getInt(2);
            }
        }
        Cart cart = Cart.read(connection, cartId, discount);
        if (cart.isEmpty()) {
            throw new IllegalStateException("Buy Confirm with an empty cart " + cartId);
        }
        int shipAddressId = newAddress == null
                ? customerAddressId
                : Addresses.enter(connection, visit.store(), newAddress);

        int orderId = visit.store().ids().next(IdAllocator.Key.ORDER);
        try (PreparedStatement ps = connection.prepareStatement(INSERT_ORDER)) {
            ps.setInt(1, orderId);
            ps.setInt(2, customerId);
            ps.setObject(3, now);
            ps.setBigDecimal(4, cart.subTotal());
            ps.setBigDecimal(5, cart.tax());
            ps.setBigDecimal(6, cart.total());
            ps.setString(7, shipping);
            ps.setObject(8, now.plusDays(random.uniform(1, 7)));
            ps.setInt(9, customerAddressId);
            ps.setInt(10, shipAddressId);
            ps.executeUpdate();
        }
        try (PreparedStatement line = connection.prepareStatement(INSERT_ORDER_LINE);
             PreparedStatement stock = connection.prepareStatement(UPDATE_STOCK)) {
            int lineId = 0;
            for (CartLine cartLine : cart.lines()) {
                line.setInt(1, ++lineId);
                line.setInt(2, orderId);
                line.setInt(3, cartLine.itemId());
                line.setInt(4, cartLine.quantity());
                line.setBigDecimal(5, discount);
                line.setString(6, random.aString(20, 100));
                line.executeUpdate();
                stock.setInt(1, cartLine.quantity());
                stock.setInt(2, cartLine.quantity());
                stock.setInt(3, cartLine.quantity());
                stock.setInt(4, cartLine.itemId());
                stock.executeUpdate();
            }
        }
        try (PreparedStatement ps = connection.prepareStatement(INSERT_CC_XACT)) {
            ps.setInt(1, orderId);
            ps.setString(2, cardType);
            ps.setLong(3, cardNumber);
            ps.setString(4, cardName.length() > 30 ? cardName.substring(0, 30) : cardName);
            ps.setObject(5, now.toLocalDate().plusDays(random.uniform(1, 730)));
            ps.setString(6, random.aString(15, 15));
            ps.setBigDecimal(7, cart.total());
            ps.setObject(8, now);
            ps.setInt(9, shipAddressId);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = connection.prepareStatement(CLEAR_CART)) {
            ps.setInt(1, cartId);
            ps.executeUpdate();
        }
        return new Page().order(orderId).cart(cartId, List.of()).rows(cart.lines().size());
    }
}
