package io.macrodb.runtime.sql;

/**
 * Just enough reading of SQL text for what MacroDB must know about a statement before an engine runs it, and for
 * comparing definitions the engines give back as text: strings, quoted names, comments, parentheses, names (quoted or
 * not, qualified or not) and keywords. The driver and the runtime share this one scanner, so that every place reads
 * a quote, a comment or a name the same way.
 */
public final class SqlText {

    private SqlText() {
    }

    /**
     * {@code sql} as a parser of one statement's shape reads it: its comments blanked ({@link #withoutComments}), then
     * as {@link #statement}, so that a comment before or inside it (a migration tool's header) changes nothing.
     */
    public static String statementWithoutComments(String sql) {
        return statement(withoutComments(sql));
    }

    /** {@code sql} without surrounding blanks and trailing semicolons. */
    public static String statement(String sql) {
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
    public static int topLevelKeyword(String sql, String keyword, int from) {
        int depth = 0;
        for (int i = from; i < sql.length(); i++) {
            char c = sql.charAt(i);
            int quoted = quotedEnd(sql, i);
            if (quoted >= 0) {
                i = quoted;
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
    public static boolean hasTopLevel(String sql, char c) {
        int depth = 0;
        for (int i = 0; i < sql.length(); i++) {
            char at = sql.charAt(i);
            int quoted = quotedEnd(sql, i);
            if (quoted >= 0) {
                i = quoted;
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
    public static boolean hasSecondStatement(String sql) {
        boolean afterSemicolon = false;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            int commentEnd = commentEnd(sql, i);
            if (commentEnd >= 0) {
                i = commentEnd;
            } else if (Character.isWhitespace(c)) {
                continue;
            } else if (c == ';') {
                afterSemicolon = true;
            } else if (afterSemicolon) {
                return true;
            } else {
                int quoted = quotedEnd(sql, i);
                i = quoted >= 0 ? quoted : i;
            }
        }
        return false;
    }

    /**
     * Whether {@code sql} reads a session variable ({@code @name}, H2's) outside strings, quoted names, comments and
     * {@code $$} bodies.
     */
    public static boolean hasSessionVariable(String sql) {
        return findOutsideQuotes(sql, i -> sql.charAt(i) == '@' && i + 1 < sql.length()
                && Character.isLetter(sql.charAt(i + 1)) && !isNamePart(sql, i - 1));
    }

    /** Whether {@code sql} has a parameter marker ({@code ?}, or H2's {@code ?1}) where the engine reads one. */
    public static boolean hasParameterMarker(String sql) {
        return findOutsideQuotes(sql, i -> sql.charAt(i) == '?');
    }

    /**
     * How many parameters {@code sql}'s markers ask for, as the engines count them: one per {@code ?} outside strings,
     * quoted names and comments, or, with H2's numbered markers ({@code ?1}), the largest number.
     */
    public static int parameterCount(String sql) {
        int[] plain = {0};
        int[] numbered = {0};
        findOutsideQuotes(sql, i -> {
            if (sql.charAt(i) == '?') {
                int end = i + 1;
                while (end < sql.length() && Character.isDigit(sql.charAt(end))) {
                    end++;
                }
                if (end > i + 1 && end - i < 10) {
                    numbered[0] = Math.max(numbered[0], Integer.parseInt(sql.substring(i + 1, end)));
                } else {
                    plain[0]++;
                }
            }
            return false;
        });
        return Math.max(plain[0], numbered[0]);
    }

    /** Whether {@code test} holds at some index outside strings, quoted names, comments and {@code $$} bodies. */
    private static boolean findOutsideQuotes(String sql, java.util.function.IntPredicate test) {
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            int commentEnd = commentEnd(sql, i);
            int quoted = quotedEnd(sql, i);
            if (commentEnd >= 0) {
                i = commentEnd;
            } else if (quoted >= 0) {
                i = quoted;
            } else if (test.test(i)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The first keyword, upper case, skipping blanks, comments, opening parentheses and the start of a JDBC escape
     * ({@code {call p(?)}}, {@code {? = call f(?)}}).
     */
    public static String firstWord(String sql) {
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            int commentEnd = commentEnd(sql, i);
            if (commentEnd >= 0) {
                i = commentEnd + 1;
            } else if (Character.isWhitespace(c) || c == '(' || c == '{' || c == '?' || c == '=') {
                i++;
            } else {
                break;
            }
        }
        int start = i;
        while (i < sql.length() && Character.isLetter(sql.charAt(i))) {
            i++;
        }
        return sql.substring(start, i).toUpperCase(java.util.Locale.ROOT);
    }

    /** {@code sql} with its comments ({@code --} to the line's end, and block comments) each made one blank. */
    public static String withoutComments(String sql) {
        if (sql.indexOf("--") < 0 && sql.indexOf("/*") < 0 && sql.indexOf("//") < 0) {
            return sql; // most statements: nothing to copy
        }
        StringBuilder kept = new StringBuilder(sql.length());
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            int commentEnd = commentEnd(sql, i);
            int quoted = quotedEnd(sql, i);
            if (commentEnd >= 0) {
                kept.append(' ');
                i = commentEnd;
            } else if (quoted >= 0) {
                kept.append(sql, i, quoted + 1);
                i = quoted;
            } else {
                kept.append(c);
            }
        }
        return kept.toString();
    }

    /**
     * {@code sql} with what its strings and quoted names hold blanked out (the quotes kept, every index where it
     * was), so that a pattern looking for a function or keyword cannot match a value or a name: every form
     * {@link #quotedEnd} reads ({@code [...]} is left: outside SQL Server's mode it holds array elements, expressions).
     */
    public static String withoutQuotedText(String sql) {
        return blanked(sql, true);
    }

    /** {@code sql} with what its strings hold blanked out, as {@link #withoutQuotedText}, its quoted names kept. */
    public static String withoutStrings(String sql) {
        return blanked(sql, false);
    }

    private static String blanked(String sql, boolean names) {
        char[] kept = sql.toCharArray();
        for (int i = 0; i < kept.length; i++) {
            int quoted = quotedEnd(sql, i);
            if (quoted >= 0 && !names && (kept[i] == '"' || kept[i] == '`')) {
                i = quoted; // a quoted name, kept
            } else if (quoted >= 0) {
                int delimiter = sql.charAt(i) == '$' ? 2 : 1; // $$ opens and closes with two characters
                for (int j = i + delimiter; j <= quoted - delimiter; j++) {
                    kept[j] = ' ';
                }
                i = quoted;
            }
        }
        return new String(kept);
    }

    /** {@code text} without blanks outside strings and quoted names, and without trailing semicolons. */
    public static String withoutBlanks(String text) {
        StringBuilder kept = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            int quoted = quotedEnd(text, i);
            if (quoted >= 0) {
                kept.append(text, i, quoted + 1);
                i = quoted;
            } else if (!Character.isWhitespace(c)) {
                kept.append(c);
            }
        }
        int end = kept.length();
        while (end > 0 && kept.charAt(end - 1) == ';') {
            end--;
        }
        return kept.substring(0, end);
    }

    /**
     * {@code sql} with every Unicode-escaped quoted name ({@code U&"\004DY_NAME"}, with an optional
     * {@code UESCAPE 'c'}) written as the plain quoted name it stands for ({@code "MY_NAME"}), so that a name can be
     * recognised however it was spelt. Both engines accept the standard's escapes: {@code \XXXX}, {@code \+XXXXXX} and
     * the escape character doubled; a malformed escape is kept as written (the engine refuses the statement).
     */
    public static String withUnicodeNamesDecoded(String sql) {
        StringBuilder decoded = null;
        int copied = 0;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if ((c == 'U' || c == 'u') && sql.startsWith("&\"", i + 1) && !isNamePart(sql, i - 1)) {
                int open = i + 2;
                int close = closingQuote(sql, open);
                String body = sql.substring(open + 1, Math.min(close, sql.length())).replace("\"\"", "\"");
                int end = Math.min(close + 1, sql.length());
                char escape = '\\';
                java.util.regex.Matcher uescape = UESCAPE.matcher(sql).region(end, sql.length());
                if (uescape.lookingAt()) {
                    escape = uescape.group(1).charAt(0);
                    end = uescape.end();
                }
                if (decoded == null) {
                    decoded = new StringBuilder(sql.length());
                }
                decoded.append(sql, copied, i).append('"')
                        .append(unescaped(body, escape).replace("\"", "\"\"")).append('"');
                copied = end;
                i = end - 1;
            } else {
                int skipped = Math.max(quotedEnd(sql, i), commentEnd(sql, i));
                i = skipped >= 0 ? skipped : i;
            }
        }
        return decoded == null ? sql : decoded.append(sql, Math.min(copied, sql.length()), sql.length()).toString();
    }

    private static final java.util.regex.Pattern UESCAPE =
            java.util.regex.Pattern.compile("\\s*UESCAPE\\s*'([^'])'", java.util.regex.Pattern.CASE_INSENSITIVE);

    private static String unescaped(String body, char escape) {
        StringBuilder text = new StringBuilder(body.length());
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c != escape || i + 1 >= body.length()) {
                text.append(c);
            } else if (body.charAt(i + 1) == escape) {
                text.append(escape);
                i++;
            } else if (body.charAt(i + 1) == '+' && isHex(body, i + 2, 6)) {
                text.appendCodePoint(Integer.parseInt(body.substring(i + 2, i + 8), 16));
                i += 7;
            } else if (isHex(body, i + 1, 4)) {
                text.append((char) Integer.parseInt(body.substring(i + 1, i + 5), 16));
                i += 4;
            } else {
                text.append(c);
            }
        }
        return text.toString();
    }

    private static boolean isHex(String text, int from, int digits) {
        if (from + digits > text.length()) {
            return false;
        }
        for (int i = from; i < from + digits; i++) {
            if (Character.digit(text.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * If a comment ({@code --}, H2's {@code //}, or a block comment) starts at {@code i}: the index of its last
     * character; else -1. Block comments nest, as H2 reads them (HSQLDB does not: a statement whose block comment
     * holds another one is refused before anything reads it, see {@link #hasNestedComment}).
     */
    public static int commentEnd(String sql, int i) {
        if (sql.startsWith("--", i) || sql.startsWith("//", i)) { // H2 reads // as -- (HSQLDB refuses it)
            int end = sql.indexOf('\n', i);
            return end < 0 ? sql.length() - 1 : end - 1;
        }
        if (sql.startsWith("/*", i)) {
            int depth = 0;
            for (int j = i; j < sql.length() - 1; j++) {
                if (sql.startsWith("/*", j)) {
                    depth++;
                    j++;
                } else if (sql.startsWith("*/", j)) {
                    if (--depth == 0) {
                        return j + 1;
                    }
                    j++;
                }
            }
            return sql.length() - 1;
        }
        return -1;
    }

    /**
     * Whether a block comment of {@code sql} holds another {@code /*}: H2 nests block comments and HSQLDB does not, so
     * the two engines read such a text differently, and MacroDB cannot tell which statement it is.
     */
    public static boolean hasNestedComment(String sql) {
        if (sql.indexOf("/*") < 0) {
            return false; // most statements: no block comment at all
        }
        for (int i = 0; i < sql.length(); i++) {
            int commentEnd = commentEnd(sql, i);
            int quoted = quotedEnd(sql, i);
            if (commentEnd >= 0) {
                if (sql.startsWith("/*", i) && sql.substring(i + 2, commentEnd + 1).contains("/*")) {
                    return true;
                }
                i = commentEnd;
            } else if (quoted >= 0) {
                i = quoted;
            }
        }
        return false;
    }

    /**
     * If a string or a quoted name starts at {@code i}: the index of its last character (the closing quote; the last
     * character of {@code sql} if none closes it); else -1. Strings {@code '...'}, quoted names {@code "..."} and the
     * {@code `...`} H2 accepts, and H2's {@code $$...$$} strings, though not the {@code $$} inside a name such as
     * {@code t$$}.
     */
    public static int quotedEnd(String sql, int i) {
        char c = sql.charAt(i);
        if (c == '\'' || c == '"' || c == '`') {
            return Math.min(closingQuote(sql, i), sql.length() - 1);
        }
        if (c == '$' && sql.startsWith("$$", i) && !isNamePart(sql, i - 1)) {
            int end = sql.indexOf("$$", i + 2);
            return end < 0 ? sql.length() - 1 : end + 1;
        }
        return -1;
    }

    /** The index of the parenthesis closing the one at {@code open} (strings and quoted names skipped). */
    public static int closingParenthesis(String sql, int open) {
        int depth = 0;
        for (int i = open; i < sql.length(); i++) {
            char c = sql.charAt(i);
            int quoted = quotedEnd(sql, i);
            if (quoted >= 0) {
                i = quoted;
            } else if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
        }
        return sql.length();
    }

    /**
     * The index of the quote closing the one at {@code open} (a doubled quote stands for itself);
     * {@code sql.length()} if none closes it.
     */
    public static int closingQuote(String sql, int open) {
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

    /**
     * Where the (possibly quoted, possibly qualified) name starting at {@code start} ends. Besides {@code "..."}, the
     * quotes of H2's compatibility modes: MySQL's {@code `...`} and SQL Server's {@code [...]}.
     */
    public static int nameEnd(String sql, int start) {
        int i = start;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '"' || c == '`') {
                i = closingQuote(sql, i) + 1;
            } else if (c == '[') {
                int close = sql.indexOf(']', i);
                i = close < 0 ? sql.length() : close + 1;
            } else if (isNamePart(sql, i) || c == '.') {
                i++;
            } else {
                break;
            }
        }
        return i;
    }

    /** Whether the character at {@code i} can be part of an unquoted name (false outside {@code sql}). */
    public static boolean isNamePart(String sql, int i) {
        if (i < 0 || i >= sql.length()) {
            return false;
        }
        char c = sql.charAt(i);
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }
}
