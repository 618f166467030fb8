package io.macrodb.tpcw.interaction;

import io.macrodb.tpcw.Vocabulary;

import java.sql.Connection;
import java.sql.SQLException;

/** New Products (clause 2.12): the 50 most recently published items of a subject, and the promotion. */
final class NewProducts implements WebInteraction {

    static final String GET_NEW_PRODUCTS = """
            SELECT i_id, i_title, a_fname, a_lname
              FROM item, author
             WHERE item.i_a_id = author.a_id
               AND item.i_subject = ?
             ORDER BY i_pub_date DESC, i_title
             FETCH FIRST 50 ROWS ONLY""";

    @Override
    public Page run(Connection connection, Visit visit) throws SQLException {
        String subject = visit.random().pick(Vocabulary.SUBJECTS);
        var listed = ItemList.query(connection, GET_NEW_PRODUCTS, subject);
        return ItemList.page(listed, Promotions.relatedToRandomItem(connection, visit));
    }
}
