package io.macrodb.tpcw.interaction;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A shopping cart's lines and the amounts the reference's {@code Cart} class derives from them (clause 2.4.3):
 * the subtotal after the customer's discount, tax at 8.25%, shipping of 3.00 plus 1.00 per book, and the total.
 * Amounts are exact decimals rounded to cents, so an order's O_TOTAL and its CC_XACTS amount agree to the cent.
 */
public record Cart(List<CartLine> lines, BigDecimal subTotal, BigDecimal tax, BigDecimal shipping,
                   BigDecimal total) {

    private static final BigDecimal TAX_RATE = new BigDecimal("0.0825");

    /** The reference's {@code getCart}: the cart's lines with their items, in item order. */
    static final String GET_CART = """
            SELECT scl_i_id, scl_qty, i_cost, i_srp, i_title
              FROM shopping_cart_line, item
             WHERE scl_i_id = i_id AND scl_sc_id = ?
             ORDER BY scl_i_id""";

    public Cart {
        lines = List.copyOf(lines);
    }

    /** Reads the cart's lines and prices them with {@code discount} (a fraction, such as 0.25). */
    static Cart read(Connection connection, int cartId, BigDecimal discount) throws SQLException {
        var lines = new ArrayList<CartLine>();
        try (PreparedStatement ps = connection.prepareStatement(GET_CART)) {
            ps.setInt(1, cartId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    lines.add(new CartLine(rs.getInt(1), rs.getInt(2), rs.getBigDecimal(3), rs.getBigDecimal(4),
                            rs.getString(5)));
                }
            }
        }
        return priced(lines, discount);
    }

    static Cart priced(List<CartLine> lines, BigDecimal discount) {
        BigDecimal gross = BigDecimal.ZERO;
        long books = 0;
        for (CartLine line : lines) {
            gross = gross.add(line.cost().multiply(BigDecimal.valueOf(line.quantity())));
            books += line.quantity();
        }
        BigDecimal subTotal = gross.multiply(BigDecimal.ONE.subtract(discount)).setScale(2, RoundingMode.HALF_UP);
        BigDecimal tax = subTotal.multiply(TAX_RATE).setScale(2, RoundingMode.HALF_UP);
        BigDecimal shipping = BigDecimal.valueOf(300 + 100 * books, 2);
        return new Cart(lines, subTotal, tax, shipping, subTotal.add(tax).add(shipping));
    }

    public boolean isEmpty() {
        return lines.isEmpty();
    }
}
