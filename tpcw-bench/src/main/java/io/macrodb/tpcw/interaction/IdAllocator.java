package io.macrodb.tpcw.interaction;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.EnumMap;
import java.util.Map;

/**
 * Hands one emulated browser the keys of the rows it creates: customers, addresses, orders and shopping carts.
 *
 * <p>The reference implementation reads {@code MAX(id)} or {@code COUNT(*)} and inserts inside a Java
 * {@code synchronized} block, which serialises inserts and only works within one application server. Here the
 * {@code count} browsers of a run split the key space by residue: browser {@code index} takes the keys above the
 * table's maximum (read when the browser starts) that are congruent to {@code index} modulo {@code count}. No two
 * browsers can ever pick the same key, nothing is shared between them, and a browser replaced mid-run continues
 * in its own residue class above the new maximum. A transaction that rolls back leaves a gap. The ids are therefore
 * not dense: the interactions that look at the most recent orders (Best Sellers, Admin Confirm) count them by rank,
 * not by an id range.
 */
public final class IdAllocator {

    /** The keys allocated here, with the table and column they number. */
    public enum Key {
        CUSTOMER("customer", "c_id"),
        ADDRESS("address", "addr_id"),
        ORDER("orders", "o_id"),
        CART("shopping_cart", "sc_id");

        private final String table;
        private final String column;

        Key(String table, String column) {
            this.table = table;
            this.column = column;
        }
    }

    private final int stride;
    private final Map<Key, Integer> last = new EnumMap<>(Key.class);

    private IdAllocator(int index, int count, Map<Key, Integer> maxima) {
        if (count < 1 || index < 0 || index >= count) {
            throw new IllegalArgumentException("browser " + index + " of " + count);
        }
        this.stride = count;
        for (Key key : Key.values()) {
            int max = maxima.get(key);
            // The largest key <= max in this browser's residue class; next() adds the stride to it.
            last.put(key, max - Math.floorMod(max - index, count));
        }
    }

    /**
     * An allocator for browser {@code index} of {@code count}, continuing above each table's current maximum. It
     * reads through {@code connection} and leaves the read transaction for the caller to end.
     */
    public static IdAllocator continuing(Connection connection, int index, int count) throws SQLException {
        var maxima = new EnumMap<Key, Integer>(Key.class);
        try (Statement statement = connection.createStatement()) {
            for (Key key : Key.values()) {
                try (ResultSet rs = statement.executeQuery(
                        "SELECT COALESCE(MAX(" + key.column + "), 0) FROM " + key.table)) {
                    rs.next();
                    maxima.put(key, rs.getInt(1));
                }
            }
        }
        return new IdAllocator(index, count, maxima);
    }

    /** The next unused key of this browser. */
    public int next(Key key) {
        int id = Math.addExact(last.get(key), stride);
        last.put(key, id);
        return id;
    }
}
