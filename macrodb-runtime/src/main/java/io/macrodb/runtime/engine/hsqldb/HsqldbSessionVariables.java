package io.macrodb.runtime.engine.hsqldb;

import io.macrodb.runtime.sql.SqlText;
import org.hsqldb.ColumnSchema;
import org.hsqldb.Session;
import org.hsqldb.SessionContext;
import org.hsqldb.jdbc.JDBCConnection;
import org.hsqldb.lib.OrderedHashMap;

import java.lang.reflect.Field;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.regex.Pattern;

/**
 * HSQLDB's session variables ({@code DECLARE v INT DEFAULT 7;}, {@code SET v = RAND()}, {@code SET (a, b) = (...)}),
 * as one session holds them, given to another session of the same connection (found by a review, 2026-11-28: they
 * were declared on the master's session only, so a read-only transaction reading one failed on its slave with
 * {@code 42501}). Replaying the statements would not do: each session would evaluate the default or the assigned
 * expression again ({@code RAND()}, the clock, a query over rows a slave has not applied yet).
 *
 * <p>HSQLDB has no public API for them. A session keeps its variables' definitions in
 * {@code SessionContext.sessionVariables} (name to {@code ColumnSchema}, in declaration order) and their values at
 * the same positions in {@code SessionContext.routineVariables}; {@code DECLARE} adds to both
 * ({@code SessionContext.addSessionVariable}, which also evaluates the default: not used here for that reason).
 * Both fields are package-private, so they are read by reflection (HSQLDB 2.7.4; on the class path, where HSQLDB's
 * module descriptor does not apply). Where reflection is refused, {@link #of} gives null and the statement is
 * replayed as written, as before. Values are HSQLDB's own, immutable objects, so the other session shares them with
 * their SQL type; a LOB is an id in the master's LOB store, which no other database has: LOB variables are left out.
 */
final class HsqldbSessionVariables {

    /** {@code DECLARE} of variables, not of a temporary table (a table of the master's session, not a variable). */
    private static final Pattern DECLARE = Pattern.compile("^\\W*DECLARE\\s+(?!LOCAL\\s+TEMPORARY\\b)",
            Pattern.CASE_INSENSITIVE);
    /**
     * {@code SET v = ...}, {@code SET v[i] = ...} or {@code SET (a, b) = ...}: no setting of HSQLDB's has an
     * {@code =} after one word.
     */
    private static final Pattern ASSIGNMENT = Pattern.compile(
            "^\\W*SET\\s+((\"[^\"]+\"|[A-Za-z_][\\w$]*)(\\s*\\[[^]]*])?|\\([^)]*\\))\\s*=",
            Pattern.CASE_INSENSITIVE);

    private static final Field DEFINITIONS = field("sessionVariables");
    private static final Field VALUES = field("routineVariables");

    /** Every variable of a session, in declaration order: definitions and values at the same positions. */
    private record Snapshot(ColumnSchema[] definitions, Object[] values) {
    }

    private HsqldbSessionVariables() {
    }

    /** Whether {@code sql} declares or assigns session variables. */
    static boolean setBy(String sql) {
        String text = SqlText.withoutComments(sql);
        return DECLARE.matcher(text).lookingAt() || ASSIGNMENT.matcher(text).lookingAt();
    }

    /** All of {@code connection}'s session's variables, as a token for {@link #giveTo}; null if unreadable. */
    static Object of(Connection connection) throws SQLException {
        if (DEFINITIONS == null || VALUES == null) {
            return null;
        }
        SessionContext context = session(connection).sessionContext;
        try {
            OrderedHashMap<?, ?> definitions = (OrderedHashMap<?, ?>) DEFINITIONS.get(context);
            Object[] values = (Object[]) VALUES.get(context);
            ColumnSchema[] copied = new ColumnSchema[definitions.size()];
            for (int i = 0; i < copied.length; i++) {
                copied[i] = (ColumnSchema) definitions.get(i);
            }
            Object[] valuesCopied = new Object[copied.length];
            System.arraycopy(values, 0, valuesCopied, 0, Math.min(values.length, copied.length));
            return new Snapshot(copied, valuesCopied);
        } catch (IllegalAccessException e) {
            return null;
        }
    }

    /**
     * Declares on {@code connection}'s session each variable of {@code token} it lacks and sets every one to the
     * token's value. A CLOB or BLOB variable is left out, whatever its value now: a value is an id in the master's LOB
     * store, which no other database has, so reading one in a read-only transaction fails ({@code 42501}, not found;
     * declared there while still null, it read null after the master set it: found by a review, 2026-11-29).
     */
    @SuppressWarnings("unchecked")
    static void giveTo(Connection connection, Object token) throws SQLException {
        Snapshot snapshot = (Snapshot) token;
        SessionContext context = session(connection).sessionContext;
        try {
            OrderedHashMap<String, ColumnSchema> definitions =
                    (OrderedHashMap<String, ColumnSchema>) DEFINITIONS.get(context);
            for (int i = 0; i < snapshot.definitions().length; i++) {
                String name = snapshot.definitions()[i].getName().name;
                Object value = snapshot.values()[i];
                if (snapshot.definitions()[i].getDataType().isLobType()) {
                    continue;
                }
                if (definitions.getIndex(name) < 0) {
                    definitions.add(name, snapshot.definitions()[i]);
                }
                Object[] values = (Object[]) VALUES.get(context);
                if (values.length < definitions.size()) {
                    values = Arrays.copyOf(values, definitions.size());
                    VALUES.set(context, values);
                }
                values[definitions.getIndex(name)] = value;
            }
        } catch (IllegalAccessException e) {
            throw new SQLException("HSQLDB refused MacroDB the session's variables", e);
        }
    }

    private static Session session(Connection connection) throws SQLException {
        return (Session) connection.unwrap(JDBCConnection.class).getSession();
    }

    private static Field field(String name) {
        try {
            Field field = SessionContext.class.getDeclaredField(name);
            field.setAccessible(true);
            return field;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // another HSQLDB version, or a module path that keeps HSQLDB's fields closed
        }
    }
}
