package io.macrodb.tpcc.procedures;

import io.macrodb.tpcc.Terminal;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;

/**
 * Payment (clause 2.5): a customer pays an amount at the home warehouse's district; the warehouse's, district's and
 * customer's year-to-date figures move, and a HISTORY row records it.
 *
 * <p>Inputs per clause 2.5.1: district uniform; 85% of payments are for a customer of that district, 15% for a
 * customer of a random district of a remote warehouse (home again when W = 1); 60% of customers are found by last
 * name (NURand(255) with the run's C), 40% by id (NURand(1023)); amount uniform in [1.00, 5,000.00]. A customer
 * with bad credit ("BC") gets the payment prepended to C_DATA, kept to 500 characters.
 */
public final class Payment extends Procedure {

    static final String UPDATE_WAREHOUSE = """
            UPDATE warehouse
               SET w_ytd = w_ytd + ?
             WHERE w_id = ?""";

    static final String GET_WAREHOUSE = """
            SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip
              FROM warehouse
             WHERE w_id = ?""";

    static final String UPDATE_DISTRICT = """
            UPDATE district
               SET d_ytd = d_ytd + ?
             WHERE d_w_id = ? AND d_id = ?""";

    static final String GET_DISTRICT = """
            SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip
              FROM district
             WHERE d_w_id = ? AND d_id = ?""";

    static final String GET_CUSTOMER = """
            SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone,
                   c_since, c_credit, c_credit_lim, c_discount, c_balance
              FROM customer
             WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?""";

    static final String UPDATE_CUSTOMER_BALANCE = """
            UPDATE customer
               SET c_balance = c_balance - ?,
                   c_ytd_payment = c_ytd_payment + ?,
                   c_payment_cnt = c_payment_cnt + 1
             WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?""";

    static final String GET_CUSTOMER_DATA = """
            SELECT c_data
              FROM customer
             WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?""";

    static final String UPDATE_CUSTOMER_DATA = """
            UPDATE customer
               SET c_data = ?
             WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?""";

    static final String INSERT_HISTORY = """
            INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)""";

    private static final int HOME_PERCENT = 85;
    private static final int BY_NAME_PERCENT = 60;
    private static final int MAX_C_DATA = 500;

    /**
     * The terminal's input: exactly one of {@code customerId} (> 0) and {@code customerLastName} (non-null) is set.
     */
    public record Input(int warehouseId, int districtId, int customerWarehouseId, int customerDistrictId,
                        int customerId, String customerLastName, BigDecimal amount) {
    }

    /** What tests check: the customer paid for and whether C_DATA was rewritten (bad credit). */
    public record Output(int customerId, boolean badCredit, BigDecimal balance) {
    }

    private final PreparedStatement updateWarehouse;
    private final PreparedStatement getWarehouse;
    private final PreparedStatement updateDistrict;
    private final PreparedStatement getDistrict;
    private final PreparedStatement customersByName;
    private final PreparedStatement getCustomer;
    private final PreparedStatement updateBalance;
    private final PreparedStatement getCustomerData;
    private final PreparedStatement updateCustomerData;
    private final PreparedStatement insertHistory;

    public Payment(Connection connection) throws SQLException {
        super(connection);
        updateWarehouse = prepare(UPDATE_WAREHOUSE);
        getWarehouse = prepare(GET_WAREHOUSE);
        updateDistrict = prepare(UPDATE_DISTRICT);
        getDistrict = prepare(GET_DISTRICT);
        customersByName = prepare(CustomerLookup.CUSTOMERS_BY_LAST_NAME);
        getCustomer = prepare(GET_CUSTOMER);
        updateBalance = prepare(UPDATE_CUSTOMER_BALANCE);
        getCustomerData = prepare(GET_CUSTOMER_DATA);
        updateCustomerData = prepare(UPDATE_CUSTOMER_DATA);
        insertHistory = prepare(INSERT_HISTORY);
    }

    /** Draws the input per clause 2.5.1. */
    public static Input generate(Terminal t) {
        var r = t.random();
        int d = t.randomDistrict();
        boolean home = r.percent(HOME_PERCENT);
        int cw = home ? t.warehouseId() : t.remoteWarehouse();
        int cd = home ? d : t.randomDistrict();
        boolean byName = r.percent(BY_NAME_PERCENT);
        int cId = byName ? 0 : r.customerId();
        String last = byName ? r.lastNameByNuRand() : null;
        BigDecimal amount = r.decimal(100, 500_000, 2);
        return new Input(t.warehouseId(), d, cw, cd, cId, last, amount);
    }

    public Output execute(Input in) throws SQLException {
        int w = in.warehouseId();
        int d = in.districtId();
        BigDecimal amount = in.amount();

        updateWarehouse.setBigDecimal(1, amount);
        updateWarehouse.setInt(2, w);
        if (updateWarehouse.executeUpdate() != 1) {
            throw missing("warehouse " + w);
        }
        String warehouseName;
        try (ResultSet rs = oneRow(getWarehouse, "warehouse", w)) {
            warehouseName = rs.getString(1);
        }

        updateDistrict.setBigDecimal(1, amount);
        updateDistrict.setInt(2, w);
        updateDistrict.setInt(3, d);
        if (updateDistrict.executeUpdate() != 1) {
            throw missing("district " + w + "/" + d);
        }
        String districtName;
        try (ResultSet rs = oneRow(getDistrict, "district", w, d)) {
            districtName = rs.getString(1);
        }

        int cw = in.customerWarehouseId();
        int cd = in.customerDistrictId();
        int cId = in.customerLastName() != null
                ? CustomerLookup.byLastName(customersByName, cw, cd, in.customerLastName())
                : in.customerId();
        boolean badCredit;
        BigDecimal balance;
        try (ResultSet rs = oneRow(getCustomer, "customer", cw, cd, cId)) {
            badCredit = "BC".equals(rs.getString(11));
            balance = rs.getBigDecimal(14).subtract(amount);
        }

        updateBalance.setBigDecimal(1, amount);
        updateBalance.setBigDecimal(2, amount);
        updateBalance.setInt(3, cw);
        updateBalance.setInt(4, cd);
        updateBalance.setInt(5, cId);
        updateBalance.executeUpdate();

        if (badCredit) {
            String data;
            try (ResultSet rs = oneRow(getCustomerData, "customer", cw, cd, cId)) {
                data = rs.getString(1);
            }
            String entry = cId + " " + cd + " " + cw + " " + d + " " + w + " " + amount.toPlainString() + " | ";
            String newData = entry + data;
            if (newData.length() > MAX_C_DATA) {
                newData = newData.substring(0, MAX_C_DATA);
            }
            updateCustomerData.setString(1, newData);
            updateCustomerData.setInt(2, cw);
            updateCustomerData.setInt(3, cd);
            updateCustomerData.setInt(4, cId);
            updateCustomerData.executeUpdate();
        }

        insertHistory.setInt(1, cId);
        insertHistory.setInt(2, cd);
        insertHistory.setInt(3, cw);
        insertHistory.setInt(4, d);
        insertHistory.setInt(5, w);
        insertHistory.setTimestamp(6, new Timestamp(System.currentTimeMillis()));
        insertHistory.setBigDecimal(7, amount);
        insertHistory.setString(8, warehouseName + "    " + districtName);
        insertHistory.executeUpdate();
        return new Output(cId, badCredit, balance);
    }
}
