package io.macrodb.jdbc;

import io.macrodb.api.MacroSqlState;

import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code CREATE TABLE ... AS SELECT} whose query computes values that differ per evaluation
 * ({@code CURRENT_TIMESTAMP}, {@code RAND()}...), split in the two steps MacroDB runs it as. Slaves replay DDL as text,
 * so replaying the statement itself would fill each slave's copy with values of its own; instead:
 * <ol>
 *   <li>{@link #createEmpty}: the same statement {@code WITH NO DATA}, DDL that every replica replays alike (the same
 *       columns, no values computed);</li>
 *   <li>{@link #fill}: {@code INSERT INTO <table> <query>}, an update transaction whose rows reach every slave as the
 *       master stored them, like any insert. Null when the statement asked for no data.</li>
 * </ol>
 * Flyway creates its schema history table on H2 with such a statement (its first row carries CURRENT_TIMESTAMP).
 *
 * @param table the table's name as written (quoted, qualified: whatever the statement said)
 */
record TableFromQuery(String table, String createEmpty, String fill) {

    private static final Pattern HEAD = Pattern.compile(
            "^\\W*CREATE\\s+(?:\\w+\\s+)*?TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?", Pattern.CASE_INSENSITIVE);
    private static final Pattern DATA_CLAUSE = Pattern.compile("\\s+WITH\\s+(NO\\s+)?DATA$", Pattern.CASE_INSENSITIVE);

    /** Splits {@code sql}, a statement {@link StatementKind} classified as {@code TABLE_FROM_QUERY}. */
    static TableFromQuery parse(String sql) throws SQLException {
        String statement = sql.strip();
        while (statement.endsWith(";")) {
            statement = statement.substring(0, statement.length() - 1).stripTrailing();
        }
        Matcher head = HEAD.matcher(statement);
        int as = topLevelAs(statement);
        if (!head.lookingAt() || as < 0) {
            throw new SQLException("MacroDB cannot split this CREATE TABLE ... AS SELECT into DDL and rows: " + sql,
                    MacroSqlState.NOT_REPLICABLE);
        }
        String table = statement.substring(head.end(), nameEnd(statement, head.end()));
        String query = statement.substring(as + 2).strip();
        Matcher data = DATA_CLAUSE.matcher(query);
        boolean withData = true;
        if (data.find()) {
            withData = data.group(1) == null;
            query = query.substring(0, data.start());
        }
        String createEmpty = statement.substring(0, as) + "AS " + query + " WITH NO DATA";
        return new TableFromQuery(table, createEmpty, withData ? "INSERT INTO " + table + " " + query : null);
    }

    /** Where the keyword {@code AS} stands outside parentheses, strings and quoted names; -1 if nowhere. */
    private static int topLevelAs(String sql) {
        int depth = 0;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                i = closingQuote(sql, i);
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (depth == 0 && sql.regionMatches(true, i, "AS", 0, 2) && !isNamePart(sql, i - 1)
                    && !isNamePart(sql, i + 2)) {
                return i;
            }
        }
        return -1;
    }

    /** The index of the quote closing the one at {@code open} (a doubled quote stands for itself). */
    private static int closingQuote(String sql, int open) {
        char quote = sql.charAt(open);
        int i = open + 1;
        while (i < sql.length()) {
            if (sql.charAt(i) == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i;
            }
            i++;
        }
        return sql.length();
    }

    /** Where the (possibly quoted, possibly qualified) name starting at {@code start} ends. */
    private static int nameEnd(String sql, int start) {
        int i = start;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '"') {
                i = closingQuote(sql, i) + 1;
            } else if (isNamePart(sql, i) || c == '.') {
                i++;
            } else {
                break;
            }
        }
        return i;
    }

    private static boolean isNamePart(String sql, int i) {
        if (i < 0 || i >= sql.length()) {
            return false;
        }
        char c = sql.charAt(i);
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }
}
