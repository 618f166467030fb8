package io.macrodb.tpcc.procedures;

import io.macrodb.bench.UserAbortException;
import io.macrodb.tpcc.Terminal;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * New-Order (clause 2.4): enter an order of 5 to 15 lines for a customer of the home warehouse.
 *
 * <p>Inputs per clause 2.4.1: district uniform, customer by NURand(1023), item ids by NURand(8191), quantities 1..10;
 * each line's supplying warehouse is a remote one with 1% probability (never with one warehouse); 1% of orders
 * carry an unused item id as their last line, which makes the transaction roll back (a {@link UserAbortException}).
 *
 * <p>Two deviations in statement order, both equivalent inside the transaction: the district's next order id is
 * incremented before it is read, and each stock row is updated (with the spec's rule, "subtract the quantity, and add
 * 91 unless S_QUANTITY >= OL_QUANTITY + 10", computed in SQL) before its data is read. Writing first takes the row lock at once, so concurrent New-Orders queue on the
 * district instead of deadlocking on a read-then-write upgrade, and the same SQL is correct on H2 and HSQLDB
 * without {@code SELECT ... FOR UPDATE}. Lines are processed in (item, supplying warehouse) order so that two
 * New-Orders lock stock rows in the same order; item first, so that the unused item id (larger than every real one)
 * stays the last line processed, as clause 2.4.1.5 puts it, whatever warehouse supplies it or the other lines.
 */
public final class NewOrder extends Procedure {

    static final String GET_WAREHOUSE_TAX = """
            SELECT w_tax
              FROM warehouse
             WHERE w_id = ?""";

    static final String NEXT_ORDER_ID = """
            UPDATE district
               SET d_next_o_id = d_next_o_id + 1
             WHERE d_w_id = ? AND d_id = ?""";

    static final String GET_DISTRICT = """
            SELECT d_tax, d_next_o_id
              FROM district
             WHERE d_w_id = ? AND d_id = ?""";

    static final String GET_CUSTOMER = """
            SELECT c_discount, c_last, c_credit
              FROM customer
             WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?""";

    static final String INSERT_ORDER = """
            INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
            VALUES (?, ?, ?, ?, ?, NULL, ?, ?)""";

    static final String INSERT_NEW_ORDER = """
            INSERT INTO new_order (no_o_id, no_d_id, no_w_id)
            VALUES (?, ?, ?)""";

    static final String GET_ITEM = """
            SELECT i_price, i_name, i_data
              FROM item
             WHERE i_id = ?""";

    static final String UPDATE_STOCK = """
            UPDATE stock
               SET s_quantity = CASE WHEN s_quantity >= ? + 10 THEN s_quantity - ? ELSE s_quantity - ? + 91 END,
                   s_ytd = s_ytd + ?,
                   s_order_cnt = s_order_cnt + 1,
                   s_remote_cnt = s_remote_cnt + ?
             WHERE s_w_id = ? AND s_i_id = ?""";

    static final String GET_STOCK = """
            SELECT s_quantity, s_data,
                   s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05,
                   s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10
              FROM stock
             WHERE s_w_id = ? AND s_i_id = ?""";

    static final String INSERT_ORDER_LINE = """
            INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d,
                                    ol_quantity, ol_amount, ol_dist_info)
            VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)""";

    private static final int ROLLBACK_PERCENT = 1;
    private static final int REMOTE_PERCENT = 1;
    private static final String ORIGINAL = "ORIGINAL";

    /** One order line's input. */
    public record Line(int itemId, int supplyWarehouseId, int quantity) {
    }

    /** The terminal's input (clause 2.4.1). */
    public record Input(int warehouseId, int districtId, int customerId, List<Line> lines) {
    }

    /** What the terminal displays, reduced to what tests check. */
    public record Output(int orderId, int lineCount, boolean allLocal, int brandLines, BigDecimal total) {
    }

    private final PreparedStatement getWarehouseTax;
    private final PreparedStatement nextOrderId;
    private final PreparedStatement getDistrict;
    private final PreparedStatement getCustomer;
    private final PreparedStatement insertOrder;
    private final PreparedStatement insertNewOrder;
    private final PreparedStatement getItem;
    private final PreparedStatement updateStock;
    private final PreparedStatement getStock;
    private final PreparedStatement insertOrderLine;

    public NewOrder(Connection connection) throws SQLException {
        super(connection);
        getWarehouseTax = prepare(GET_WAREHOUSE_TAX);
        nextOrderId = prepare(NEXT_ORDER_ID);
        getDistrict = prepare(GET_DISTRICT);
        getCustomer = prepare(GET_CUSTOMER);
        insertOrder = prepare(INSERT_ORDER);
        insertNewOrder = prepare(INSERT_NEW_ORDER);
        getItem = prepare(GET_ITEM);
        updateStock = prepare(UPDATE_STOCK);
        getStock = prepare(GET_STOCK);
        insertOrderLine = prepare(INSERT_ORDER_LINE);
    }

    /** Draws the input per clause 2.4.1. */
    public static Input generate(Terminal t) {
        var r = t.random();
        int lineCount = r.uniform(5, 15);
        boolean rollback = r.percent(ROLLBACK_PERCENT);
        var lines = new ArrayList<Line>(lineCount);
        for (int i = 1; i <= lineCount; i++) {
            int item = rollback && i == lineCount ? unusedItemId(t) : r.itemId();
            int supply = r.percent(REMOTE_PERCENT) ? t.remoteWarehouse() : t.warehouseId();
            lines.add(new Line(item, supply, r.uniform(1, 10)));
        }
        return new Input(t.warehouseId(), t.randomDistrict(), r.customerId(), lines);
    }

    /** An item id that no row has (clause 2.4.1.5: "an unused value"). */
    public static int unusedItemId(Terminal t) {
        return t.scale().items() + 1;
    }

    public Output execute(Input in) throws SQLException, UserAbortException {
        int w = in.warehouseId();
        int d = in.districtId();
        BigDecimal warehouseTax = warehouseTax(w);

        nextOrderId.setInt(1, w);
        nextOrderId.setInt(2, d);
        if (nextOrderId.executeUpdate() != 1) {
            throw missing("district " + w + "/" + d);
        }
        BigDecimal districtTax;
        int orderId;
        try (ResultSet rs = oneRow(getDistrict, "district", w, d)) {
            districtTax = rs.getBigDecimal(1);
            orderId = rs.getInt(2) - 1;
        }

        BigDecimal discount;
        try (ResultSet rs = oneRow(getCustomer, "customer", w, d, in.customerId())) {
            discount = rs.getBigDecimal(1);
        }

        List<Line> lines = new ArrayList<>(in.lines());
        // Item first: the unused item (the largest id) stays last, so its line aborts after all the others ran.
        lines.sort(Comparator.comparingInt(Line::itemId).thenComparingInt(Line::supplyWarehouseId));
        boolean allLocal = lines.stream().allMatch(l -> l.supplyWarehouseId() == w);
        Timestamp now = new Timestamp(System.currentTimeMillis());

        insertOrder.setInt(1, orderId);
        insertOrder.setInt(2, d);
        insertOrder.setInt(3, w);
        insertOrder.setInt(4, in.customerId());
        insertOrder.setTimestamp(5, now);
        insertOrder.setInt(6, lines.size());
        insertOrder.setInt(7, allLocal ? 1 : 0);
        insertOrder.executeUpdate();

        insertNewOrder.setInt(1, orderId);
        insertNewOrder.setInt(2, d);
        insertNewOrder.setInt(3, w);
        insertNewOrder.executeUpdate();

        BigDecimal sum = BigDecimal.ZERO;
        int number = 0;
        int brandLines = 0;
        for (Line line : lines) {
            number++;
            getItem.setInt(1, line.itemId());
            BigDecimal price;
            String itemData;
            try (ResultSet rs = getItem.executeQuery()) {
                if (!rs.next()) {
                    throw new UserAbortException("Item number is not valid: " + line.itemId());
                }
                price = rs.getBigDecimal(1);
                itemData = rs.getString(3);
            }

            int remote = line.supplyWarehouseId() == w ? 0 : 1;
            updateStock.setInt(1, line.quantity());
            updateStock.setInt(2, line.quantity());
            updateStock.setInt(3, line.quantity());
            updateStock.setInt(4, line.quantity());
            updateStock.setInt(5, remote);
            updateStock.setInt(6, line.supplyWarehouseId());
            updateStock.setInt(7, line.itemId());
            if (updateStock.executeUpdate() != 1) {
                throw missing("stock " + line.supplyWarehouseId() + "/" + line.itemId());
            }
            String stockData;
            String distInfo;
            try (ResultSet rs = oneRow(getStock, "stock", line.supplyWarehouseId(), line.itemId())) {
                stockData = rs.getString(2);
                distInfo = rs.getString(2 + d);
            }
            // brand-generic: "B" when both I_DATA and S_DATA contain ORIGINAL (displayed, not stored)
            if (itemData.contains(ORIGINAL) && stockData.contains(ORIGINAL)) {
                brandLines++;
            }
            BigDecimal amount = price.multiply(BigDecimal.valueOf(line.quantity()));
            sum = sum.add(amount);

            insertOrderLine.setInt(1, orderId);
            insertOrderLine.setInt(2, d);
            insertOrderLine.setInt(3, w);
            insertOrderLine.setInt(4, number);
            insertOrderLine.setInt(5, line.itemId());
            insertOrderLine.setInt(6, line.supplyWarehouseId());
            insertOrderLine.setInt(7, line.quantity());
            insertOrderLine.setBigDecimal(8, amount);
            insertOrderLine.setString(9, distInfo);
            insertOrderLine.executeUpdate();
        }
        BigDecimal total = sum.multiply(BigDecimal.ONE.subtract(discount))
                .multiply(BigDecimal.ONE.add(warehouseTax).add(districtTax)).setScale(2, RoundingMode.HALF_UP);
        return new Output(orderId, lines.size(), allLocal, brandLines, total);
    }

    private BigDecimal warehouseTax(int w) throws SQLException {
        try (ResultSet rs = oneRow(getWarehouseTax, "warehouse", w)) {
            return rs.getBigDecimal(1);
        }
    }
}
