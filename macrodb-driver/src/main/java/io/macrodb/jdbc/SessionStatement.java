package io.macrodb.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code SET} statement of the session, as it is replayed on the other engines a MacroDB connection uses (its
 * master and each slave it reads from have a session of their own).
 *
 * <p>Most are replayed as written. H2's {@code SET @name = expr} is not: replayed, {@code expr} would be evaluated
 * again by each engine ({@code RAND()}, the clock, a query over rows a slave has not applied yet, a parameter the
 * text does not carry), and a read-only transaction would then read a value of its own. The value the first engine
 * computed is replayed instead.
 *
 * @param sql   the statement to replay
 * @param value the value bound to its one parameter, if {@code bound}
 * @param bound whether it is a variable's assignment, replayed with the value the first engine computed
 */
record SessionStatement(String sql, Object value, boolean bound) {

    private static final Pattern VARIABLE = Pattern.compile("^\\W*SET\\s+(@[\\w$]+)\\s*(?::?=|\\s)",
            Pattern.CASE_INSENSITIVE);

    private static final Pattern SCHEMA = Pattern.compile("^\\W*SET\\s+SCHEMA\\b", Pattern.CASE_INSENSITIVE);

    /** Whether {@code sql} sets the session's schema ({@code SET SCHEMA s}), which the connection keeps itself. */
    static boolean setsSchema(String sql) {
        return SCHEMA.matcher(sql).lookingAt();
    }

    private static final Pattern TIME_ZONE = Pattern.compile("^\\W*SET\\s+TIME\\s+ZONE\\b", Pattern.CASE_INSENSITIVE);

    /** Whether this sets the session's time zone ({@code SET TIME ZONE ...}, both engines). */
    boolean setsTimeZone() {
        return TIME_ZONE.matcher(sql).lookingAt();
    }

    /** Whether {@code sql} assigns one of H2's session variables ({@code SET @name = ...}). */
    static boolean assignsVariable(String sql) {
        return VARIABLE.matcher(sql).lookingAt();
    }

    /** {@code sql}, just run on {@code engine}, in the form to replay on the others. */
    static SessionStatement replayOf(String sql, Connection engine) throws SQLException {
        Matcher variable = VARIABLE.matcher(sql);
        if (!variable.lookingAt()) {
            return new SessionStatement(sql, null, false);
        }
        String name = variable.group(1);
        try (Statement statement = engine.createStatement(); ResultSet value = statement.executeQuery("SELECT " + name)) {
            value.next();
            return new SessionStatement("SET " + name + " = ?", value.getObject(1), true);
        }
    }

    void runOn(Connection engine) throws SQLException {
        if (!bound) {
            try (Statement statement = engine.createStatement()) {
                statement.execute(sql);
            }
            return;
        }
        try (PreparedStatement statement = engine.prepareStatement(sql)) {
            statement.setObject(1, value);
            statement.execute();
        }
    }
}
