package io.macrodb.tpcw.interaction;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The database work behind one web interaction: the queries and updates the reference implementation's servlet
 * runs (via {@code TPCW_Database}), as one transaction.
 *
 * <p>An implementation is stateless: its SQL sits beside it as constants. It draws the browser's inputs (search
 * keys, quantities, card details) from {@link Visit#random()}, reads what the browser knows from the visit, and
 * returns what the page shows as a {@link Page}; the browser adopts the page only once the transaction has
 * committed, so a retried attempt starts from the same state. It never commits, rolls back or changes the
 * connection's read-only flag: the harness owns the transaction.
 */
public interface WebInteraction {

    Page run(Connection connection, Visit visit) throws SQLException;
}
