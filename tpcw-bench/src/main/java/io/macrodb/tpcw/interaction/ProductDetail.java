package io.macrodb.tpcw.interaction;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Product Detail (clause 2.14): one item with its author. The browser picks the item uniformly among those the
 * page it comes from links to (a list, the promotion, or the related items of another product detail page);
 * a page without links (a search that found nothing) makes it pick any item.
 */
final class ProductDetail implements WebInteraction {

    @Override
    public Page run(Connection connection, Visit visit) throws SQLException {
        int itemId = visit.itemLinks().isEmpty()
                ? visit.randomItem()
                : visit.random().pick(visit.itemLinks());
        Book book = Book.require(connection, itemId);
        return new Page().item(itemId).links(book.related()).rows(1);
    }
}
