package io.macrodb.jdbc;

/**
 * Just enough reading of SQL text to split the statements MacroDB runs in steps ({@link SchemaChangeInSteps}):
 * names (quoted or not, qualified or not) and keywords outside parentheses, strings and quoted names.
 */
final class SqlText {

    private SqlText() {
    }

    /** {@code sql} without surrounding blanks and trailing semicolons. */
    static String statement(String sql) {
        String statement = sql.strip();
        while (statement.endsWith(";")) {
            statement = statement.substring(0, statement.length() - 1).stripTrailing();
        }
        return statement;
    }

    /**
     * Where {@code keyword} (a whole word) first stands at or after {@code from}, outside parentheses, strings and
     * quoted names; -1 if nowhere.
     */
    static int topLevelKeyword(String sql, String keyword, int from) {
        int depth = 0;
        for (int i = from; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                i = closingQuote(sql, i);
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (depth == 0 && sql.regionMatches(true, i, keyword, 0, keyword.length())
                    && !isNamePart(sql, i - 1) && !isNamePart(sql, i + keyword.length())) {
                return i;
            }
        }
        return -1;
    }

    /** Whether {@code c} stands somewhere outside parentheses, strings and quoted names. */
    static boolean hasTopLevel(String sql, char c) {
        int depth = 0;
        for (int i = 0; i < sql.length(); i++) {
            char at = sql.charAt(i);
            if (at == '\'' || at == '"') {
                i = closingQuote(sql, i);
            } else if (at == '(') {
                depth++;
            } else if (at == ')') {
                depth--;
            } else if (depth == 0 && at == c) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code sql} holds a statement after a semicolon (both engines run such a text as several statements):
     * a semicolon outside strings, quoted names, comments and H2's {@code $$} bodies, followed by more than blanks,
     * semicolons and comments.
     */
    static boolean hasSecondStatement(String sql) {
        boolean afterSemicolon = false;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (c == '-' && sql.startsWith("--", i)) {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? sql.length() : end;
            } else if (c == '/' && sql.startsWith("/*", i)) {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? sql.length() : end + 1;
            } else if (Character.isWhitespace(c)) {
                continue;
            } else if (c == ';') {
                afterSemicolon = true;
            } else if (afterSemicolon) {
                return true;
            } else if (c == '\'' || c == '"') {
                i = closingQuote(sql, i);
            } else if (c == '$' && sql.startsWith("$$", i)) {
                int end = sql.indexOf("$$", i + 2);
                i = end < 0 ? sql.length() : end + 1;
            }
        }
        return false;
    }

    /** The index of the parenthesis closing the one at {@code open} (strings and quoted names skipped). */
    static int closingParenthesis(String sql, int open) {
        int depth = 0;
        for (int i = open; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                i = closingQuote(sql, i);
            } else if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
        }
        return sql.length();
    }

    /** The index of the quote closing the one at {@code open} (a doubled quote stands for itself). */
    static int closingQuote(String sql, int open) {
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
    static int nameEnd(String sql, int start) {
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

    static boolean isNamePart(String sql, int i) {
        if (i < 0 || i >= sql.length()) {
            return false;
        }
        char c = sql.charAt(i);
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }
}
