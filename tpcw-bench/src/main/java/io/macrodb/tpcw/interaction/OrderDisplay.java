package io.macrodb.tpcw.interaction;

import io.macrodb.tpcw.TpcwRandom;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;

/**
 * Order Display (clause 2.9): a customer logs in (a browser that knows no customer picks one by NURand and keeps
 * it, as the reference browser emulator does) and sees its most recent order with addresses, card and lines.
 *
 * <p>The reference orders by {@code o_date, o_id DESC}, which puts the oldest date first; the specification asks
 * for the most recent order, so both keys sort descending here.
 */
final class OrderDisplay implements WebInteraction {

    static final String GET_PASSWORD = """
            SELECT c_passwd FROM customer WHERE c_uname = ?""";
    static final String GET_MOST_RECENT_ORDER_ID = """
            SELECT o_id
              FROM customer, orders
             WHERE customer.c_id = orders.o_c_id
               AND c_uname = ?
             ORDER BY o_date DESC, orders.o_id DESC
             FETCH FIRST 1 ROWS ONLY""";
    static final String GET_ORDER = """
            SELECT orders.o_id, orders.o_date, orders.o_sub_total, orders.o_tax, orders.o_total,
                   orders.o_ship_type, orders.o_ship_date, orders.o_status,
                   customer.c_fname, customer.c_lname, customer.c_phone, customer.c_email,
                   cc_xacts.cx_type,
                   ship.addr_street1 AS ship_addr_street1, ship.addr_street2 AS ship_addr_street2,
                   ship.addr_state AS ship_addr_state, ship.addr_zip AS ship_addr_zip,
                   ship_co.co_name AS ship_co_name,
                   bill.addr_street1 AS bill_addr_street1, bill.addr_street2 AS bill_addr_street2,
                   bill.addr_state AS bill_addr_state, bill.addr_zip AS bill_addr_zip,
                   bill_co.co_name AS bill_co_name
              FROM customer, orders, cc_xacts,
                   address ship, country ship_co, address bill, country bill_co
             WHERE orders.o_id = ?
               AND cx_o_id = orders.o_id
               AND customer.c_id = orders.o_c_id
               AND orders.o_bill_addr_id = bill.addr_id
               AND bill.addr_co_id = bill_co.co_id
               AND orders.o_ship_addr_id = ship.addr_id
               AND ship.addr_co_id = ship_co.co_id""";
    static final String GET_ORDER_LINES = """
            SELECT ol_i_id, ol_qty, ol_discount, ol_comments, i_title, i_publisher, i_cost, i_srp
              FROM order_line, item
             WHERE ol_o_id = ?
               AND ol_i_id = i_id""";

    @Override
    public Page run(Connection connection, Visit visit) throws SQLException {
        int customerId = visit.customerId().orElseGet(visit::randomCustomer);
        String userName = TpcwRandom.userName(customerId);
        var page = new Page().customer(customerId);
        try (PreparedStatement ps = connection.prepareStatement(GET_PASSWORD)) {
            ps.setString(1, userName);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("no customer " + userName, "02000");
                }
                if (!TpcwRandom.password(userName).equals(rs.getString(1))) {
                    throw new SQLException("wrong password stored for customer " + userName, "28000");
                }
            }
        }
        int orderId;
        try (PreparedStatement ps = connection.prepareStatement(GET_MOST_RECENT_ORDER_ID)) {
            ps.setString(1, userName);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return page.rows(1);
                }
                orderId = rs.getInt(1);
            }
        }
        try (PreparedStatement ps = connection.prepareStatement(GET_ORDER)) {
            ps.setInt(1, orderId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("order " + orderId + " lacks its payment, customer or addresses",
                            "02000");
                }
            }
        }
        var items = new ArrayList<Integer>();
        try (PreparedStatement ps = connection.prepareStatement(GET_ORDER_LINES)) {
            ps.setInt(1, orderId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    items.add(rs.getInt(1));
                }
            }
        }
        return page.order(orderId).links(items).rows(2 + items.size());
    }
}
