package io.macrodb.tpcw.interaction;

import io.macrodb.tpcw.TpcwRandom;
import io.macrodb.tpcw.TpcwScale;
import io.macrodb.tpcw.Vocabulary;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * Search Results (clause 2.11): up to 50 items by author, title or subject (one of the three, uniformly), and the
 * promotion. Author and title keys are {@code DigSyl(NURand(A, 0, items/10 or items/5), 7)} (clause 2.10.5.1),
 * matched as prefixes as the reference does.
 */
final class SearchResults implements WebInteraction {

    /** The three kinds of search a browser makes, with their queries. */
    enum SearchType {
        AUTHOR("""
                SELECT i_id, i_title, a_fname, a_lname
                  FROM author, item
                 WHERE author.a_lname LIKE ?
                   AND item.i_a_id = author.a_id
                 ORDER BY item.i_title
                 FETCH FIRST 50 ROWS ONLY"""),
        TITLE("""
                SELECT i_id, i_title, a_fname, a_lname
                  FROM item, author
                 WHERE item.i_a_id = author.a_id
                   AND item.i_title LIKE ?
                 ORDER BY item.i_title
                 FETCH FIRST 50 ROWS ONLY"""),
        SUBJECT("""
                SELECT i_id, i_title, a_fname, a_lname
                  FROM item, author
                 WHERE item.i_a_id = author.a_id
                   AND item.i_subject = ?
                 ORDER BY item.i_title
                 FETCH FIRST 50 ROWS ONLY""");

        final String sql;

        SearchType(String sql) {
            this.sql = sql;
        }

        /** The parameter a browser sends for this kind of search. */
        String searchParameter(TpcwRandom random, TpcwScale scale) {
            return switch (this) {
                case AUTHOR -> prefix(random, scale, scale.items() / 10);
                case TITLE -> prefix(random, scale, scale.items() / 5);
                case SUBJECT -> random.pick(Vocabulary.SUBJECTS);
            };
        }

        private static String prefix(TpcwRandom random, TpcwScale scale, int keys) {
            return TpcwRandom.digSyl(random.nuRand(scale.itemNuRandA(), 0, keys), 7) + "%";
        }
    }

    private static final List<SearchType> TYPES = List.of(SearchType.values());

    @Override
    public Page run(Connection connection, Visit visit) throws SQLException {
        SearchType type = visit.random().pick(TYPES);
        String parameter = type.searchParameter(visit.random(), visit.store().scale());
        return run(connection, visit, type, parameter);
    }

    /** One search of a given kind; tests call it to cover all three. */
    Page run(Connection connection, Visit visit, SearchType type, String parameter) throws SQLException {
        var listed = ItemList.query(connection, type.sql, parameter);
        return ItemList.page(listed, Promotions.relatedToRandomItem(connection, visit));
    }
}
