package io.macrodb.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code SET} statements a MacroDB connection ran, for each engine session it opens later to replay, each one
 * once, in the order it last ran. The same statement run again (a framework's {@code SET TRANSACTION READ ONLY} at
 * every read-only transaction), or a variable set again, replaces the earlier one: a pooled connection used to keep
 * every one it ever ran, and a new engine session replayed them all.
 */
final class SessionStatements {

    private static final String EVERY_VARIABLE_KEY = key(SessionStatement.EVERY_VARIABLE);

    private final Map<String, Recorded> byKey = new LinkedHashMap<>();
    private long last;
    private List<String> rowSettings = List.of();

    private record Recorded(long sequence, SessionStatement statement) {
    }

    /** Records {@code statement} as the last one run; returns its sequence number. */
    long record(SessionStatement statement) {
        String key = statement.setsVariable() ? key(statement.variableName()) : statement.sql().strip();
        byKey.remove(key); // moved to the end: the order they last ran in
        byKey.put(key, new Recorded(++last, statement));
        if (statement.setsTimeZone()) {
            rowSettings = List.of(statement.sql());
        }
        return last;
    }

    private static String key(String variableName) {
        return "@" + variableName.toUpperCase(Locale.ROOT);
    }

    /**
     * The settings a slave must apply this connection's rows under: its time zone, which a computed column or a CHECK
     * may read (a slave applying the rows in its own zone computed other values). Usually none; kept as statements
     * are recorded, since every update transaction asks for it.
     */
    List<String> rowSettings() {
        return rowSettings;
    }

    /** Whether a statement recorded holds all of the session's variables (HSQLDB's, once one was declared). */
    boolean holdsEveryVariable() {
        return byKey.containsKey(EVERY_VARIABLE_KEY); // asked at every statement: no key made each time
    }

    /** The sequence number of the last statement recorded (0 for none). */
    long last() {
        return last;
    }

    int size() {
        return byKey.size();
    }

    /** Runs on {@code engine} every statement recorded after {@code sequence}, in order; returns the last one's. */
    long replayAfter(long sequence, Connection engine) throws SQLException {
        if (sequence >= last) {
            return last;
        }
        for (Recorded recorded : byKey.values()) {
            if (recorded.sequence() > sequence) {
                recorded.statement().runOn(engine);
            }
        }
        return last;
    }

    /** The statements that are not a variable's assignment, as written, in order. */
    List<String> settings() {
        return byKey.values().stream().map(Recorded::statement).filter(s -> !s.setsVariable())
                .map(SessionStatement::sql).toList();
    }
}
