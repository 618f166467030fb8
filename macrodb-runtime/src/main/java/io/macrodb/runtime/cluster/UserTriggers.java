package io.macrodb.runtime.cluster;

import io.macrodb.api.MacroSqlState;
import io.macrodb.runtime.engine.CaptureTriggers;
import io.macrodb.runtime.engine.Engine;
import io.macrodb.runtime.engine.SqlQueries;
import io.macrodb.runtime.sql.SqlText;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The application's own triggers live on the master only. What a trigger does on the master is captured like the
 * statement that fired it (a row it writes, a value a BEFORE trigger puts into the new row, a sequence it draws), so
 * the slaves receive its effects with the rest of the transaction; a slave that had the trigger too would do it all a
 * second time on top of them (an audit row twice, a timestamp of its own). So a trigger's DDL is run on the master
 * and never replayed ({@link #changesTriggers}), a new slave's copy leaves the source's triggers out
 * ({@link #isDefinition}), and a slave promoted to master gets the master's triggers before it takes any write
 * ({@link MasterPromotion}). Their definitions are kept, as the master's own script gives them, in
 * {@link TableCatalog#userTriggers()}, read again after every schema change: the old master may be gone when they
 * are needed.
 */
final class UserTriggers {

    private static final Pattern TRIGGER_DDL = Pattern.compile("^\\W*(CREATE\\s+(OR\\s+REPLACE\\s+)?(FORCE\\s+)?TRIGGER"
            + "|(DROP|ALTER)\\s+TRIGGER|COMMENT\\s+ON\\s+TRIGGER)\\b", Pattern.CASE_INSENSITIVE);
    /** A name, quoted or not, qualified or not: parts separated by dots. */
    private static final String PART = "(?:\"(?:[^\"]|\"\")*\"|[^\\s\".(;]+)";
    private static final String NAME = PART + "(?:\\s*\\.\\s*" + PART + ")*";
    /** The trigger a statement creates, changes or drops, and the new name of one it renames (HSQLDB). */
    private static final Pattern NAMED = Pattern.compile(
            "\\b(?:TRIGGER\\s+(?:IF\\s+(?:NOT\\s+)?EXISTS\\s+)?|RENAME\\s+TO\\s+)(" + NAME + ")",
            Pattern.CASE_INSENSITIVE);

    private UserTriggers() {
    }

    /** Whether {@code sql} creates, changes or drops a trigger: such DDL runs on the master only. */
    static boolean changesTriggers(String sql) {
        return TRIGGER_DDL.matcher(SqlText.withoutComments(sql)).find(); // behind a comment it was replayed on slaves
    }

    /**
     * Refuses trigger DDL ({@link #changesTriggers}) that names a trigger as MacroDB named its capture triggers: the
     * catalog drops triggers so named as left over from an older MacroDB, which captured with triggers
     * ({@link TableCatalog#dropCaptureTriggers}), and would drop an application's trigger given such a name.
     */
    static void refuseCaptureTriggerNames(String sql) throws SQLException {
        // A comment before the name hid it, and so did spelling it with Unicode escapes (U&"\004DACRODB_...").
        Matcher named = NAMED.matcher(SqlText.withUnicodeNamesDecoded(SqlText.withoutComments(sql)));
        while (named.find()) {
            if (CaptureTriggers.isReserved(named.group(1))) {
                throw new SQLException("MacroDB reserves trigger names containing MACRODB_ (" + named.group(1)
                        + "): it drops triggers so named, as left over from its capture triggers of old. Give your "
                        + "trigger another name.",
                        MacroSqlState.NOT_REPLICABLE);
            }
        }
    }

    /** Whether a line of an engine's schema script defines one of the application's triggers (not a capture one). */
    static boolean isDefinition(String scriptLine) {
        return CaptureTriggers.isTriggerDefinition(scriptLine)
                && !CaptureTriggers.isCaptureTriggerDefinition(scriptLine);
    }

    /** The application's trigger definitions in {@code master}'s schema script, in the script's order. */
    static List<String> definitions(Engine engine, Connection master) throws SQLException {
        return engine.snapshot(master).stream().filter(UserTriggers::isDefinition).toList();
    }

    /** Creates {@code definitions} on a slave about to become the master, which has none of them. */
    static void install(Connection promoted, List<String> definitions) throws SQLException {
        for (String definition : definitions) {
            SqlQueries.execute(promoted, definition);
        }
        promoted.commit();
    }
}
