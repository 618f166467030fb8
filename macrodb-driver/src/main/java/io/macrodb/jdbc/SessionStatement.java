package io.macrodb.jdbc;

import io.macrodb.runtime.engine.Engine;

import io.macrodb.runtime.sql.SqlText;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code SET} (or HSQLDB {@code DECLARE}) statement of the session, as it is replayed on the other engines a
 * MacroDB connection uses (its master and each slave it reads from have a session of their own).
 *
 * <p>Most are replayed as written. H2's {@code SET @name = expr} is not: replayed, {@code expr} would be evaluated
 * again by each engine ({@code RAND()}, the clock, a query over rows a slave has not applied yet, a parameter the
 * text does not carry), and a read-only transaction would then read a value of its own. The variable's value as the
 * first engine holds it is given to the others ({@link Engine#sessionVariable}): with its SQL type, which a JDBC
 * round trip loses ({@code CHAR(5)} compared as {@code VARCHAR}, {@code DECFLOAT} divided as {@code NUMERIC}).
 *
 * <p>HSQLDB's variables ({@code DECLARE v INT;}, {@code SET v = ...}) are given the same way, all of the session's at
 * once ({@link Engine#sessionVariables}): a later one replaces the earlier.
 *
 * @param sql          the statement as the application ran it
 * @param variableName the variable it assigns, as written after {@code @}; {@link #EVERY_VARIABLE} for a statement
 *                     that declares or assigns HSQLDB's; null for any other statement
 * @param variable     for a variable's assignment, the engine's token for the value it set (see
 *                     {@link Engine#sessionVariable}, {@link Engine#sessionVariables}); null to replay the statement
 *                     as written
 * @param engine       the engine that made {@code variable}, which gives it to another session
 */
record SessionStatement(String sql, String variableName, Object variable, Engine engine) {

    /** The {@link #variableName} of a statement whose token holds all of the session's variables. */
    static final String EVERY_VARIABLE = "*";

    private static final Pattern VARIABLE = Pattern.compile("^\\W*SET\\s+@([\\w$]+)\\s*(?::?=|\\s)",
            Pattern.CASE_INSENSITIVE);
    /** {@code SET SCHEMA s}, and H2's {@code USE s}, which does the same. */
    private static final Pattern SCHEMA = Pattern.compile("^\\W*(SET\\s+SCHEMA|USE)\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern TIME_ZONE = Pattern.compile("^\\W*SET\\s+TIME\\s+ZONE\\b", Pattern.CASE_INSENSITIVE);
    // Each pattern reads the text past its comments: behind one, a SET SCHEMA was replayed over a later setSchema, a
    // SET TIME ZONE did not reach the rows slaves write, and a variable set to RAND() was evaluated again by a slave.

    /** {@code SET TRANSACTION READ ONLY | READ WRITE}: the next transaction's access mode, not the session's. */
    private static final Pattern NEXT_TRANSACTION_ACCESS = Pattern.compile(
            "^\\W*SET\\s+TRANSACTION\\s+READ\\s+(ONLY|WRITE)\\b", Pattern.CASE_INSENSITIVE);

    /** Whether {@code sql} sets the access mode of the next transaction only. */
    static boolean setsNextTransactionAccess(String sql) {
        return NEXT_TRANSACTION_ACCESS.matcher(SqlText.withoutComments(sql)).lookingAt();
    }

    /** Whether {@code sql} sets the session's schema ({@code SET SCHEMA s}, {@code USE s}), kept by the connection. */
    static boolean setsSchema(String sql) {
        return SCHEMA.matcher(SqlText.withoutComments(sql)).lookingAt();
    }

    /** Whether {@code sql} assigns one of H2's session variables ({@code SET @name = ...}). */
    static boolean assignsVariable(String sql) {
        return VARIABLE.matcher(SqlText.withoutComments(sql)).lookingAt();
    }

    /** {@code sql}, just run on {@code connection}, in the form to replay on the others. */
    static SessionStatement replayOf(String sql, Connection connection, Engine engine) throws SQLException {
        if (engine.setsSessionVariables(sql)) {
            return new SessionStatement(sql, EVERY_VARIABLE, engine.sessionVariables(connection), engine);
        }
        Matcher variable = VARIABLE.matcher(SqlText.withoutComments(sql));
        if (!variable.lookingAt()) {
            return new SessionStatement(sql, null, null, engine);
        }
        String name = variable.group(1);
        return new SessionStatement(sql, name, engine.sessionVariable(connection, name), engine);
    }

    /**
     * The session's variables as {@code sql}, a statement that set some without declaring or assigning them (HSQLDB's
     * {@code CALL p(v)}), left them on {@code connection}; null where the engine cannot read them. Its text is never
     * replayed: the routine would run again.
     */
    static SessionStatement variablesAfter(String sql, Connection connection, Engine engine) throws SQLException {
        Object variables = engine.sessionVariables(connection);
        return variables == null ? null : new SessionStatement(sql, EVERY_VARIABLE, variables, engine);
    }

    /** Whether this assigns a session variable. */
    boolean setsVariable() {
        return variableName != null;
    }

    /** Whether this sets the session's time zone ({@code SET TIME ZONE ...}, both engines). */
    boolean setsTimeZone() {
        return TIME_ZONE.matcher(SqlText.withoutComments(sql)).lookingAt();
    }

    void runOn(Connection connection) throws SQLException {
        if (variable != null) {
            engine.setSessionVariable(connection, variable);
            return;
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
