package io.macrodb.tpcw.check;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** Runs a query whose rows are violations and describes the first few. */
final class Violations {

    /** How many example rows a check reports per query. */
    static final int EXAMPLES = 5;

    /** Describes one row of a query as a violation, or returns null when the row turns out to be fine. */
    @FunctionalInterface
    interface RowDescription {
        String describe(ResultSet row) throws SQLException;
    }

    private Violations() {
    }

    /** The first {@link #EXAMPLES} violations among the rows of {@code sql} (run with {@code parameters}). */
    static List<String> find(Connection connection, String sql, RowDescription description, Object... parameters)
            throws SQLException {
        var found = new ArrayList<String>();
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                ps.setObject(i + 1, parameters[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next() && found.size() < EXAMPLES) {
                    String violation = description.describe(rs);
                    if (violation != null) {
                        found.add(violation);
                    }
                }
            }
        }
        return found;
    }
}
