package io.macrodb.runtime.cluster;

import io.macrodb.runtime.engine.Engine;
import io.macrodb.runtime.sql.SqlText;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * DDL on a table of the writer's session only (H2's {@code CREATE LOCAL TEMPORARY TABLE}, HSQLDB's {@code DECLARE
 * LOCAL TEMPORARY TABLE}): such a table and its rows are the session's, so the DDL runs on the master and is not
 * replayed. Replayed, it failed the slaves: two connections creating a temporary table of the same name met on the
 * applier's one session (H2: "already exists"), and HSQLDB's {@code TRUNCATE}/{@code DROP TABLE MODULE.t} found no
 * such table there.
 */
final class SessionTables {

    private static final Pattern CREATE_LOCAL_TEMPORARY = Pattern.compile(
            "^\\W*CREATE\\s+((MEMORY|CACHED)\\s+)?LOCAL\\s+TEMPORARY\\s+TABLE\\b", Pattern.CASE_INSENSITIVE);
    /** Statements on named tables: what follows is a list of names. */
    private static final Pattern ON_TABLES = Pattern.compile("^\\W*(DROP\\s+TABLE(\\s+IF\\s+EXISTS)?|TRUNCATE\\s+TABLE"
            + "|ALTER\\s+TABLE(\\s+IF\\s+EXISTS)?)\\s+", Pattern.CASE_INSENSITIVE);
    private static final Pattern CREATE_INDEX = Pattern.compile(
            "^\\W*CREATE\\s+(UNIQUE\\s+|HASH\\s+|SPATIAL\\s+)*INDEX\\b.*?\\bON\\s+", Pattern.CASE_INSENSITIVE);
    /** Qualifiers that name the session's own tables (HSQLDB's MODULE and SESSION). */
    private static final List<String> SESSION_QUALIFIERS = List.of("MODULE", "SESSION");

    private SessionTables() {
    }

    /** Whether {@code sql}, about to run on {@code master}, changes only tables of that session. */
    static boolean onlyTouched(Engine engine, Connection master, String sql) throws SQLException {
        String text = SqlText.withoutComments(sql);
        if (CREATE_LOCAL_TEMPORARY.matcher(text).lookingAt()) {
            return true;
        }
        List<String> names = targets(text);
        if (names.isEmpty()) {
            return false;
        }
        for (String name : names) {
            if (name == null || !engine.isSessionTable(master, name)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The tables a DROP TABLE, TRUNCATE TABLE, ALTER TABLE or CREATE INDEX names, each as the engine stores an
     * unqualified name (null for one qualified by a schema, which is no session's); empty for other statements.
     */
    static List<String> targets(String text) {
        int at;
        boolean list;
        Matcher onTables = ON_TABLES.matcher(text);
        Matcher createIndex = CREATE_INDEX.matcher(text);
        if (onTables.lookingAt()) {
            at = onTables.end();
            list = text.substring(0, at).strip().toUpperCase(Locale.ROOT).startsWith("DROP");
        } else if (createIndex.lookingAt()) {
            at = createIndex.end();
            list = false;
        } else {
            return List.of();
        }
        List<String> names = new ArrayList<>();
        while (true) {
            int end = SqlText.nameEnd(text, at);
            if (end == at) {
                return List.of();
            }
            names.add(unqualified(text.substring(at, end)));
            at = end;
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                at++;
            }
            if (!list || at >= text.length() || text.charAt(at) != ',') {
                return names;
            }
            at++;
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                at++;
            }
        }
    }

    /** The last part of a name as the engine stores it (quoted: as written; plain: upper case), or null. */
    private static String unqualified(String name) {
        List<String> parts = new ArrayList<>();
        int at = 0;
        while (at < name.length()) {
            int end = name.charAt(at) == '"' ? SqlText.closingQuote(name, at) + 1 : name.indexOf('.', at);
            end = end < 0 ? name.length() : Math.min(end, name.length());
            String part = name.substring(at, end);
            parts.add(part.startsWith("\"") ? part.substring(1, Math.max(1, part.length() - 1)).replace("\"\"", "\"")
                    : part.toUpperCase(Locale.ROOT));
            at = end + 1; // past the dot
        }
        if (parts.size() > 1 && !SESSION_QUALIFIERS.contains(parts.get(parts.size() - 2))) {
            return null;
        }
        return parts.isEmpty() ? null : parts.get(parts.size() - 1);
    }
}
