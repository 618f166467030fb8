package io.macrodb.tpcw.interaction;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/** Search Request (clause 2.10): the search form; its only database work is the promotion. */
final class SearchRequest implements WebInteraction {

    @Override
    public Page run(Connection connection, Visit visit) throws SQLException {
        List<Integer> promoted = Promotions.relatedToRandomItem(connection, visit);
        return new Page().links(promoted).rows(promoted.size());
    }
}
