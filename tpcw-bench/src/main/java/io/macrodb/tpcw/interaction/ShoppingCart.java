package io.macrodb.tpcw.interaction;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Shopping Cart (clause 2.4), an update transaction: the reference's {@code createEmptyCart} and {@code doCart}.
 *
 * <p>The page creates the browser's cart on its first visit. Arriving from a Product Detail page it adds that
 * item ("add to cart"); arriving from the Shopping Cart page itself it changes the quantities of some lines
 * ("refresh", clause 2.4.5.1 as the reference browser emulator does it: one line gets 1 to 10; with more lines,
 * 1 to all of them get a new quantity 0 to 10, 0 removing the line). A cart left empty gets the first related
 * item of a random item. Then the cart's time is reset and its lines are read for the page, with the promotion.
 */
final class ShoppingCart implements WebInteraction {

    static final String CREATE_CART = """
            INSERT INTO shopping_cart (sc_id, sc_time) VALUES (?, ?)""";
    static final String FIND_LINE = """
            SELECT scl_qty FROM shopping_cart_line WHERE scl_sc_id = ? AND scl_i_id = ?""";
    static final String SET_QUANTITY = """
            UPDATE shopping_cart_line SET scl_qty = ? WHERE scl_sc_id = ? AND scl_i_id = ?""";
    static final String INSERT_LINE = """
            INSERT INTO shopping_cart_line (scl_sc_id, scl_qty, scl_i_id) VALUES (?, ?, ?)""";
    static final String REMOVE_LINE = """
            DELETE FROM shopping_cart_line WHERE scl_sc_id = ? AND scl_i_id = ?""";
    static final String COUNT_LINES = """
            SELECT COUNT(*) FROM shopping_cart_line WHERE scl_sc_id = ?""";
    static final String GET_RELATED1 = """
            SELECT i_related1 FROM item WHERE i_id = ?""";
    static final String RESET_CART_TIME = """
            UPDATE shopping_cart SET sc_time = ? WHERE sc_id = ?""";

    /** A quantity the browser types into one line of its cart; 0 removes the line. */
    record QuantityChange(int itemId, int quantity) {
    }

    @Override
    public Page run(Connection connection, Visit visit) throws SQLException {
        int cartId;
        if (visit.cartId().isPresent()) {
            cartId = visit.cartId().getAsInt();
        } else {
            cartId = visit.store().ids().next(IdAllocator.Key.CART);
            try (PreparedStatement ps = connection.prepareStatement(CREATE_CART)) {
                ps.setInt(1, cartId);
                ps.setObject(2, visit.store().now());
                ps.executeUpdate();
            }
        }
        if (visit.comesFrom(Interaction.PRODUCT_DETAIL)) {
            int itemId = visit.itemId().orElseThrow(
                    () -> new IllegalStateException("add to cart from a product page without an item"));
            addItem(connection, cartId, itemId);
        } else if (visit.comesFrom(Interaction.SHOPPING_CART)) {
            refresh(connection, cartId, quantityChanges(visit));
        }
        addRandomItemIfEmpty(connection, cartId, visit);
        try (PreparedStatement ps = connection.prepareStatement(RESET_CART_TIME)) {
            ps.setObject(1, visit.store().now());
            ps.setInt(2, cartId);
            ps.executeUpdate();
        }
        Cart cart = Cart.read(connection, cartId, BigDecimal.ZERO);
        List<Integer> promoted = Promotions.relatedToRandomItem(connection, visit);
        return new Page().cart(cartId, cart.lines()).links(promoted).rows(cart.lines().size());
    }

    /** Adds one of an item: a new line with quantity 1, or one more on its line. */
    static void addItem(Connection connection, int cartId, int itemId) throws SQLException {
        Integer quantity = null;
        try (PreparedStatement find = connection.prepareStatement(FIND_LINE)) {
            find.setInt(1, cartId);
            find.setInt(2, itemId);
            try (ResultSet rs = find.executeQuery()) {
                if (rs.next()) {
                    quantity = rs.getInt(1);
                }
            }
        }
        if (quantity != null) {
            try (PreparedStatement update = connection.prepareStatement(SET_QUANTITY)) {
                update.setInt(1, quantity + 1);
                update.setInt(2, cartId);
                update.setInt(3, itemId);
                update.executeUpdate();
            }
        } else {
            try (PreparedStatement insert = connection.prepareStatement(INSERT_LINE)) {
                insert.setInt(1, cartId);
                insert.setInt(2, 1);
                insert.setInt(3, itemId);
                insert.executeUpdate();
            }
        }
    }

    /** The browser's refresh: new quantities for a random subset of the lines it was shown. */
    static List<QuantityChange> quantityChanges(Visit visit) {
        List<CartLine> lines = visit.cartLines();
        var changes = new ArrayList<QuantityChange>();
        if (lines.size() == 1) {
            changes.add(new QuantityChange(lines.get(0).itemId(), visit.random().uniform(1, 10)));
        } else if (lines.size() > 1) {
            var shuffled = new ArrayList<>(lines);
            for (int i = shuffled.size() - 1; i > 0; i--) {
                Collections.swap(shuffled, i, visit.random().uniform(0, i));
            }
            int changed = visit.random().uniform(1, lines.size());
            for (CartLine line : shuffled.subList(0, changed)) {
                int quantity = visit.random().uniform(0, 9);
                if (quantity >= line.quantity()) {
                    quantity++;
                }
                changes.add(new QuantityChange(line.itemId(), quantity));
            }
        }
        return changes;
    }

    private static void refresh(Connection connection, int cartId, List<QuantityChange> changes)
            throws SQLException {
        try (PreparedStatement remove = connection.prepareStatement(REMOVE_LINE);
             PreparedStatement update = connection.prepareStatement(SET_QUANTITY)) {
            for (QuantityChange change : changes) {
                if (change.quantity() == 0) {
                    remove.setInt(1, cartId);
                    remove.setInt(2, change.itemId());
                    remove.executeUpdate();
                } else {
                    update.setInt(1, change.quantity());
                    update.setInt(2, cartId);
                    update.setInt(3, change.itemId());
                    update.executeUpdate();
                }
            }
        }
    }

    private static void addRandomItemIfEmpty(Connection connection, int cartId, Visit visit) throws SQLException {
        try (PreparedStatement count = connection.prepareStatement(COUNT_LINES)) {
            count.setInt(1, cartId);
            try (ResultSet rs = count.executeQuery()) {
                rs.next();
                if (rs.getInt(1) > 0) {
                    return;
                }
            }
        }
        int related;
        try (PreparedStatement ps = connection.prepareStatement(GET_RELATED1)) {
            ps.setInt(1, visit.randomItem());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("a random item has no row", "02000");
                }
                related = rs.getInt(1);
            }
        }
        addItem(connection, cartId, related);
    }
}
