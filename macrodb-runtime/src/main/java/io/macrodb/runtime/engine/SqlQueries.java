package io.macrodb.runtime.engine;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Small JDBC helpers the engines share for reading their catalogs. */
public final class SqlQueries {

    private SqlQueries() {
    }

    /** Runs {@code sql} and maps column 1 + "." + column 2 (quoted) to the long in column 3. */
    public static Map<String, Long> qualifiedLongs(Connection connection, String sql, boolean quote)
            throws SQLException {
        Map<String, Long> values = new LinkedHashMap<>();
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                String schema = rows.getString(1);
                String name = rows.getString(2);
                long value = rows.getLong(3);
                if (!rows.wasNull()) {
                    values.put(quote ? quote(schema) + "." + quote(name) : schema + "." + name, value);
                }
            }
        }
        return values;
    }

    /** Every row of column 1 of {@code sql}, as strings. */
    public static List<String> strings(Connection connection, String sql) throws SQLException {
        List<String> lines = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                lines.add(rows.getString(1));
            }
        }
        return lines;
    }

    public static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static String quote(String identifier) {
        return io.macrodb.runtime.capture.CapturedTable.quote(identifier);
    }
}
