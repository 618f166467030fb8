package io.macrodb.tpcw.interaction;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Order Inquiry (clause 2.8): the log-in form for Order Display. The reference servlet reads nothing; this one
 * fills in a known customer's user name as Customer Registration does, so the page is a (small) read-only
 * transaction like the other pages.
 */
final class OrderInquiry implements WebInteraction {

    @Override
    public Page run(Connection connection, Visit visit) throws SQLException {
        int rows = visit.customerId().isPresent()
                ? CustomerRegistration.userName(connection, visit.customerId().getAsInt())
                : 0;
        return new Page().rows(rows);
    }
}
