package io.macrodb.runtime.cluster;

import io.macrodb.api.MacroSqlState;
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
    private SessionTables() {
    }

    /**
     * Whether {@code sql}, about to run on {@code master}, changes only tables of that session. A statement on both
     * kinds at once ({@code DROP TABLE mine, shared}) is refused: replayed, it failed the slaves, which have no such
     * session table; not replayed, the slaves kept the shared one.
     */
    static boolean onlyTouched(Engine engine, Connection master, String sql) throws SQLException {
        String text = SqlText.withUnicodeNamesDecoded(SqlText.withoutComments(sql));
        if (CREATE_LOCAL_TEMPORARY.matcher(text).lookingAt()) {
            return true;
        }
        List<TableName> names = targets(text);
        int sessions = 0;
        for (TableName name : names) {
            if (engine.isSessionTable(master, name.schema(), name.table())) {
                sessions++;
            }
        }
        if (sessions > 0 && sessions < names.size()) {
            throw new SQLException("MacroDB cannot run one statement on a temporary table of this session and on a "
                    + "shared table (" + sql.strip() + "): only the shared one's change reaches the slaves. Run it "
                    + "once for each kind.", MacroSqlState.NOT_REPLICABLE);
        }
        return sessions > 0;
    }

    /** A table's name as the engine stores it, and its schema's (null: not qualified). */
    record TableName(String schema, String table) {
    }

    /**
     * The tables a DROP TABLE, TRUNCATE TABLE, ALTER TABLE or CREATE INDEX names, as the engine stores names; empty for
     * other statements.
     */
    static List<TableName> targets(String text) {
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
        List<TableName> names = new ArrayList<>();
        while (true) {
            int end = SqlText.nameEnd(text, at);
            if (end == at) {
                return List.of();
            }
            names.add(parsed(text.substring(at, end)));
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

    /**
     * A possibly qualified name's last two parts, each as the engine stores it (quoted: as written; plain: upper case).
     */
    private static TableName parsed(String name) {
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
        return new TableName(parts.size() > 1 ? parts.get(parts.size() - 2) : null, parts.get(parts.size() - 1));
    }
}
