package io.macrodb.tpcw.interaction;

import java.sql.Connection;
import java.sql.SQLException;

/** Admin Request (clause 2.15): the product update form for the item of the Product Detail page. */
final class AdminRequest implements WebInteraction {

    @Override
    public Page run(Connection connection, Visit visit) throws SQLException {
        int itemId = visit.itemId().orElseThrow(
                () -> new IllegalStateException("Admin Request without an item"));
        Book book = Book.require(connection, itemId);
        return new Page().item(itemId).links(book.related()).rows(1);
    }
}
