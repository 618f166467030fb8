package io.macrodb.tpcw;


import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Creates and counts the TPC-W tables through any JDBC connection (a bare engine or MacroDB). The DDL is one
 * resource, {@code ddl.sql} beside this class: both engines accept the same declarations.
 *
 * <p>The interactions' SQL is the same on both engines too (standard {@code FETCH FIRST n ROWS ONLY}, values
 * computed in Java and bound as parameters).
 */
public final class TpcwSchema {

    private TpcwSchema() {
    }

    /** Drops the TPC-W tables that exist, then creates all of them with their indexes, and commits. */
    public static void create(Connection connection) throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(true);
        try (Statement statement = connection.createStatement()) {
            for (int i = TpcwTable.values().length - 1; i >= 0; i--) {
                statement.execute("DROP TABLE IF EXISTS " + TpcwTable.values()[i].sqlName());
            }
            for (String ddl : ddlStatements()) {
                statement.execute(ddl);
            }
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }

    /** The row count of every table. */
    public static Map<TpcwTable, Long> rowCounts(Connection connection) throws SQLException {
        var counts = new EnumMap<TpcwTable, Long>(TpcwTable.class);
        try (Statement statement = connection.createStatement()) {
            for (TpcwTable table : TpcwTable.values()) {
                try (ResultSet rs = statement.executeQuery("SELECT COUNT(*) FROM " + table.sqlName())) {
                    rs.next();
                    counts.put(table, rs.getLong(1));
                }
            }
        }
        return counts;
    }

    /** The schema's statements, comments removed, one entry per statement (the same for every engine). */
    static List<String> ddlStatements() {
        String resource = "ddl.sql";
        try (InputStream in = TpcwSchema.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            return split(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Splits a script on ';' at the end of a line, dropping '--' comments and blank lines. */
    static List<String> split(String script) {
        var statements = new ArrayList<String>();
        var current = new StringBuilder();
        for (String line : script.split("\n")) {
            int comment = line.indexOf("--");
            String code = (comment >= 0 ? line.substring(0, comment) : line).strip();
            if (code.isEmpty()) {
                continue;
            }
            if (code.endsWith(";")) {
                current.append(code, 0, code.length() - 1);
                statements.add(current.toString().strip());
                current.setLength(0);
            } else {
                current.append(code).append('\n');
            }
        }
        if (!current.toString().isBlank()) {
            statements.add(current.toString().strip());
        }
        return statements;
    }
}
