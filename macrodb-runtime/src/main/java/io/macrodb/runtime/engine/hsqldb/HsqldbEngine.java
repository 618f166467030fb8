package io.macrodb.runtime.engine.hsqldb;

import io.macrodb.api.MacroSqlState;
import io.macrodb.runtime.capture.CapturedTable;
import io.macrodb.runtime.capture.KeylessMatch;
import io.macrodb.runtime.capture.RowLog;
import io.macrodb.runtime.capture.ValueConverter;
import io.macrodb.runtime.engine.Engine;
import io.macrodb.runtime.engine.EngineUrl;
import io.macrodb.runtime.engine.SqlQueries;
import io.macrodb.runtime.sql.SqlText;
import org.hsqldb.SessionInterface;
import org.hsqldb.jdbc.JDBCConnection;
import org.hsqldb.jdbc.JDBCResultSet;
import org.hsqldb.lib.StringConverter;
import org.hsqldb.types.BinaryData;
import org.hsqldb.types.BlobData;
import org.hsqldb.types.ClobData;
import org.hsqldb.types.IntervalMonthData;
import org.hsqldb.types.IntervalSecondData;
import org.hsqldb.types.TimeData;
import org.hsqldb.types.TimestampData;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.Period;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * HSQLDB 2.7, embedded ({@code mem:} and {@code file:}). Captures from the session's own record of the rows its
 * transaction wrote ({@link HsqldbRowLog}), read after each statement, not with triggers: HSQLDB's trigger calls cost
 * more than the rest of MacroDB together. HSQLDB stores some values in internal types (TimestampData, TimeData,
 * BinaryData); they are converted once at capture into {@code java.time} values and byte arrays that a slave can
 * bind. A LOB is stored as an id in the master's LOB store: it is read there and then, through the writer's session,
 * into a byte array or a string (see {@link #LOB_READER}).
 *
 * <p>This class is loaded by service loader even when HSQLDB is absent; only methods MacroDB calls when HSQLDB is the
 * engine touch HSQLDB's classes, and none so that verifying this class would load them
 * ({@code EngineOnTheClassPathAloneTest}).
 *
 * <p>Why slaves write with SQL here, not straight into their tables as H2's do ({@link #directWriter} is not
 * overridden). A slave cannot store an array safely through public API: {@code Table.insertSingleRow} and
 * {@code Session.addInsertAction} are package-private, the jar is sealed (and a named module), and the statement
 * bracket a write needs (the LOCKS-mode table locks and the wait for readers' locks, MVCC's action numbers, a
 * deadlock's abort) lives in {@code Session.executeCompiledStatement} on package-private fields;
 * {@code Session.beginAction} takes the locks without waiting for them. Rows with DATE, TIME, TIMESTAMP, binary or interval
 * columns are also copied at capture (the converters below), since HSQLDB's {@code setObject} refuses its own
 * TimestampData, BinaryData and the like. And the gain is bounded: under TPC-C (1 warehouse, 4 replicas) each slave's
 * own RowAVL and index nodes are 50 MB of the 93 MB it adds, so sharing every row array and TimestampData would leave
 * about 1.58x HSQLDB alone's heap (2.13x measured, 2026-11-23).
 */
public final class HsqldbEngine implements Engine {

    private static final List<String> KINDS = List.of("file", "mem");
    private static final int SECONDS_PER_DAY = 86_400;

    @Override
    public String name() {
        return "hsqldb";
    }

    @Override
    public boolean accepts(String engineUrl) {
        return engineUrl.regionMatches(true, 0, "hsqldb:", 0, 7);
    }

    /**
     * Slaves run in the mode the URL asks for, like the master. Forcing MVCC or MVLOCKS on slaves was measured and is
     * far worse: in those modes HSQLDB takes a per-table read-write lock on every row access, so long read-only scans
     * and the applier's writes stall each other (TPC-C 80-20, 4 clients: about 10x slower than LOCKS slaves).
     */
    @Override
    public boolean inMemory(String engineUrl) throws SQLException {
        return url(engineUrl).inMemory();
    }

    @Override
    public EngineUrl url(String engineUrl) throws SQLException {
        return EngineUrl.parse(engineUrl, "hsqldb", KINDS);
    }

    @Override
    public String replicaUrl(String engineUrl, int index) throws SQLException {
        EngineUrl url = url(engineUrl);
        return url.replicaUrl(index, url.settings());
    }

    @Override
    public String existingDatabaseUrl(String replicaUrl) {
        return replicaUrl.replaceAll("(?i);ifexists=[^;]*", "") + ";ifexists=true";
    }

    /**
     * HSQLDB's "statement is invalid" (07502): after a schema change it compiles a session's prepared statements again
     * at their next use and drops one it cannot, which then fails (seen on MVCC-mode slaves beside ALTER SEQUENCE).
     */
    @Override
    public boolean isStatementDropped(SQLException error) {
        return error.getErrorCode() == -org.hsqldb.error.ErrorCode.X_07502;
    }

    /** Open: the cluster's own session with the database is (HSQLDB closes every session when the database closes). */
    @Override
    public boolean isKnownOpen(Connection connection) {
        try {
            return !((org.hsqldb.Session) connection.unwrap(JDBCConnection.class).getSession()).isClosed();
        } catch (SQLException | RuntimeException gone) {
            return false;
        }
    }

    /** Also HSQLDB's "database does not exist" (error -465), what {@link #existingDatabaseUrl} gets for a lost one. */
    @Override
    public boolean isDatabaseLost(SQLException error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof SQLException e && e.getErrorCode() == -org.hsqldb.error.ErrorCode.DATABASE_NOT_EXISTS) {
                return true;
            }
        }
        return Engine.super.isDatabaseLost(error);
    }

    /**
     * TEXT tables (their rows live in a file the master reads; an in-memory slave refuses the table's source) and
     * tables with a system-time period (each engine stamps the periods as it writes; a slave's copy cannot insert the
     * master's), which a file database made by HSQLDB alone may hold: seeding a slave failed with HSQLDB's own error.
     */
    @Override
    public List<String> tablesSlavesCannotHold(Connection master) throws SQLException {
        List<String> tables = new ArrayList<>();
        for (String text : SqlQueries.strings(master, "SELECT TABLE_SCHEM || '.' || TABLE_NAME"
                + " FROM INFORMATION_SCHEMA.SYSTEM_TABLES WHERE HSQLDB_TYPE = 'TEXT' ORDER BY 1")) {
            tables.add(text + " (a TEXT table: move its rows into a CACHED or MEMORY table)");
        }
        for (String versioned : SqlQueries.strings(master, "SELECT DISTINCT TABLE_SCHEMA || '.' || TABLE_NAME"
                + " FROM INFORMATION_SCHEMA.COLUMNS WHERE IS_SYSTEM_TIME_PERIOD_START = 'YES' ORDER BY 1")) {
            tables.add(versioned + " (a system-time period: drop its system versioning and period columns)");
        }
        return tables;
    }

    @Override
    public boolean hasColumnsGeneratedBySequence(Connection connection) throws SQLException {
        return !SqlQueries.strings(connection,
                "SELECT COLUMN_NAME FROM INFORMATION_SCHEMA.SYSTEM_COLUMN_SEQUENCE_USAGE").isEmpty();
    }

    @Override
    public boolean isSystemSchema(String schema) {
        return isOwnSchema(schema);
    }

    static boolean isOwnSchema(String schema) {
        return "INFORMATION_SCHEMA".equals(schema) || "SYSTEM_LOBS".equals(schema);
    }

    /** One part of a qualified name, quoted or not. */
    private static final String NAME_PART = "(\"[^\"]*\"|[^\\s\"().]+)";
    private static final Pattern NOT_NULL_CHECK =
            Pattern.compile("^" + NAME_PART + "(\\." + NAME_PART + ")* IS NOT NULL$", Pattern.CASE_INSENSITIVE);

    /**
     * HSQLDB lists a column's NOT NULL as a CHECK constraint ({@code PUBLIC.T.ID IS NOT NULL}), but not for a primary
     * key column declared without it, whose copy from a script ({@code NOT NULL PRIMARY KEY}) then has one more.
     */
    @Override
    public boolean isNullabilityCheck(String checkClause) {
        return NOT_NULL_CHECK.matcher(checkClause.strip()).matches();
    }

    /** HSQLDB writes a routine's generated {@code SPECIFIC} name (MY_ABS_10217) into its definition. */
    @Override
    public String comparableRoutine(String definition, String specificName) {
        return definition == null || specificName == null ? definition : definition.replace(specificName, "");
    }

    /** Rows are read from the session's record of them ({@link HsqldbRowLog}). */
    @Override
    public RowLog rowLog(Connection master) throws SQLException {
        return new HsqldbRowLog((org.hsqldb.Session) master.unwrap(JDBCConnection.class).getSession());
    }

    /** Types whose values HSQLDB stores as plain Java objects: no converter, so no row copy. */
    private static final java.util.Set<Integer> PLAIN = java.util.Set.of(Types.CHAR, Types.VARCHAR,
            Types.LONGVARCHAR, Types.NCHAR, Types.NVARCHAR, Types.BOOLEAN, Types.TINYINT, Types.SMALLINT,
            Types.INTEGER, Types.BIGINT, Types.DECIMAL, Types.NUMERIC, Types.REAL, Types.FLOAT, Types.DOUBLE);

    /** The same for keyed and keyless tables: what HSQLDB stores is, or becomes, a plain JDBC value. */
    @Override
    public ValueConverter converterFor(CapturedTable.Column column, boolean keyed) {
        return converterFor(column);
    }

    private ValueConverter converterFor(CapturedTable.Column column) {
        // HSQLDB's catalog reports INTERVAL columns as VARCHAR (java.sql.Types has no interval type), but a row
        // holds IntervalMonthData/IntervalSecondData, which no slave can bind: known by the type name, before PLAIN.
        // java.time's Period and Duration bind to HSQLDB's intervals exactly (months; seconds and nanoseconds).
        if (column.typeName() != null && column.typeName().startsWith("INTERVAL")) {
            return value -> value instanceof IntervalMonthData m ? Period.ofMonths(m.getMonths())
                    : value instanceof IntervalSecondData s ? Duration.ofSeconds(s.getSeconds(), s.getNanos())
                    : refuseInternal(column, value);
        }
        if (PLAIN.contains(column.jdbcType())) {
            return null;
        }
        return switch (column.jdbcType()) {
            case Types.DATE -> value -> value instanceof TimestampData t
                    ? LocalDate.ofEpochDay(Math.floorDiv(t.getSeconds(), SECONDS_PER_DAY)) : value;
            case Types.TIMESTAMP -> value -> value instanceof TimestampData t
                    ? LocalDateTime.ofEpochSecond(t.getSeconds(), t.getNanos(), ZoneOffset.UTC) : value;
            case Types.TIMESTAMP_WITH_TIMEZONE -> value -> value instanceof TimestampData t
                    ? OffsetDateTime.ofInstant(Instant.ofEpochSecond(t.getSeconds(), t.getNanos()),
                    ZoneOffset.ofTotalSeconds(t.getZone())) : value;
            case Types.TIME -> value -> value instanceof TimeData t
                    ? LocalTime.ofNanoOfDay(Math.floorMod(t.getSeconds(), SECONDS_PER_DAY) * 1_000_000_000L
                    + t.getNanos()) : value;
            case Types.TIME_WITH_TIMEZONE -> value -> value instanceof TimeData t
                    ? OffsetTime.of(LocalTime.ofNanoOfDay(Math.floorMod(t.getSeconds() + t.getZone(), SECONDS_PER_DAY)
                    * 1_000_000_000L + t.getNanos()), ZoneOffset.ofTotalSeconds(t.getZone())) : value;
            // BIT and BIT VARYING are bit strings: a row holds BinaryData, which no slave can bind. Their '0'/'1'
            // text binds to either (a byte array would pad a BIT VARYING to whole bytes).
            case Types.BIT -> value -> value instanceof BinaryData b
                    ? StringConverter.byteArrayToBitString(b.getBytes(), (int) b.bitLength(null)) : value;
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.OTHER ->
                    value -> value instanceof BinaryData b ? b.getBytes() : refuseInternal(column, value);
            case Types.BLOB -> value -> value instanceof BlobData blob ? bytesOf(column, blob) : value;
            case Types.CLOB, Types.NCLOB -> value -> value instanceof ClobData clob ? textOf(column, clob) : value;
            case Types.ARRAY -> arrayConverter(column);
            default -> value -> refuseInternal(column, value);
        };
    }

    /**
     * An array is stored as an Object[] whose elements are HSQLDB's own values for its element type (a
     * TIMESTAMP ARRAY holds TimestampData): each element is converted as a column of the element type would be. The
     * element type is the column's type name less its " ARRAY" suffix (HSQLDB has no arrays of arrays).
     */
    private ValueConverter arrayConverter(CapturedTable.Column column) {
        String name = column.typeName() == null ? "" : column.typeName();
        String elementName = name.endsWith(" ARRAY") ? name.substring(0, name.length() - " ARRAY".length()) : name;
        ValueConverter element = converterFor(new CapturedTable.Column(column.name(), elementType(elementName),
                elementName));
        return value -> {
            if (!(value instanceof Object[] array)) {
                return refuseInternal(column, value);
            }
            Object[] converted = array.clone();
            for (int i = 0; i < converted.length; i++) {
                if (converted[i] != null) {
                    converted[i] = element == null ? refuseInternal(column, converted[i])
                            : element.convert(converted[i]);
                }
            }
            return converted;
        };
    }

    /** The {@link Types} code of an array's element type, from HSQLDB's name for it ("TIMESTAMP(9) WITH TIME ZONE"). */
    private static int elementType(String typeName) {
        String base = typeName.replaceAll("\\(\\d+(,\\d+)?\\)", "").trim();
        return switch (base) {
            case "DATE" -> Types.DATE;
            case "TIME" -> Types.TIME;
            case "TIME WITH TIME ZONE" -> Types.TIME_WITH_TIMEZONE;
            case "TIMESTAMP" -> Types.TIMESTAMP;
            case "TIMESTAMP WITH TIME ZONE" -> Types.TIMESTAMP_WITH_TIMEZONE;
            case "BINARY", "VARBINARY", "UUID" -> Types.VARBINARY;
            case "BIT", "BIT VARYING" -> Types.BIT;
            case "CHARACTER", "CHAR" -> Types.CHAR;
            case "CHARACTER VARYING", "VARCHAR", "VARCHAR_IGNORECASE", "LONGVARCHAR" -> Types.VARCHAR;
            case "BOOLEAN" -> Types.BOOLEAN;
            case "TINYINT" -> Types.TINYINT;
            case "SMALLINT" -> Types.SMALLINT;
            case "INTEGER", "INT" -> Types.INTEGER;
            case "BIGINT" -> Types.BIGINT;
            case "DECIMAL" -> Types.DECIMAL;
            case "NUMERIC" -> Types.NUMERIC;
            case "REAL", "FLOAT", "DOUBLE" -> Types.DOUBLE;
            default -> Types.OTHER; // refused below unless its values are plain Java objects
        };
    }

    /**
     * Dates and timestamps (and arrays of them) are copied from the row's stored values, converted as the capture
     * converts them, which is what the appliers bind: HSQLDB's {@code getObject(i, LocalDate.class)} reads a
     * date on the hybrid Julian calendar while {@code setObject(LocalDate)} takes it as proleptic Gregorian, so a
     * copy moved every date before 1582-10-15 by days (and java.sql types would depend on the JVM's time zone).
     * Other values are read as {@link Engine#copiedRow} reads them.
     */
    @Override
    public Object[] copiedRow(ResultSet rows, CapturedTable table) throws SQLException {
        Object[] row = Engine.super.copiedRow(rows, table);
        Object[] stored = null;
        for (int i = 0; i < row.length; i++) {
            CapturedTable.Column column = table.columns().get(i);
            switch (column.jdbcType()) {
                case Types.DATE, Types.TIMESTAMP, Types.TIMESTAMP_WITH_TIMEZONE, Types.ARRAY -> {
                    if (stored == null) {
                        stored = rows.unwrap(JDBCResultSet.class).result.getNavigator().getCurrent();
                    }
                    row[i] = stored[i] == null ? null : converterFor(column).convert(stored[i]);
                }
                default -> {
                }
            }
        }
        return row;
    }

    private static byte[] bytesOf(CapturedTable.Column column, BlobData blob) throws SQLException {
        SessionInterface session = lobReader(column);
        return blob.getBytes(session, 0, lobLength(column, blob.length(session)));
    }

    private static String textOf(CapturedTable.Column column, ClobData clob) throws SQLException {
        SessionInterface session = lobReader(column);
        return clob.getSubString(session, 0, lobLength(column, clob.length(session)));
    }

    /**
     * The writer's session while its statement's rows are captured ({@link HsqldbRowLog} sets it), to read a LOB id
     * with: in the writer's transaction, so a LOB written by that very statement is visible.
     */
    static final ThreadLocal<org.hsqldb.Session> LOB_READER = new ThreadLocal<>();

    private static SessionInterface lobReader(CapturedTable.Column column) throws SQLException {
        SessionInterface session = LOB_READER.get();
        if (session == null) {
            throw new SQLException("MacroDB could not read LOB column " + column.name() + ": no writer's session to "
                    + "read it with.", MacroSqlState.NOT_REPLICABLE);
        }
        return session;
    }

    /** A LOB is shipped whole, in one array: larger than one can hold, it is refused. */
    private static int lobLength(CapturedTable.Column column, long length) throws SQLException {
        if (length > Integer.MAX_VALUE - 8) {
            throw new SQLException("MacroDB cannot replicate a LOB of " + length + " bytes or characters (column "
                    + column.name() + "): at most 2 GB.", MacroSqlState.NOT_REPLICABLE);
        }
        return (int) length;
    }

    /** Plain Java values pass; an HSQLDB-internal type nobody converts would bind wrongly on a slave, so refuse. */
    private static Object refuseInternal(CapturedTable.Column column, Object value) throws SQLException {
        if (value.getClass().getName().startsWith("org.hsqldb.")) {
            throw new SQLException("MacroDB cannot replicate values of type " + column.typeName() + " (column "
                    + column.name() + ") on HSQLDB yet.", MacroSqlState.NOT_REPLICABLE);
        }
        return value;
    }

    @Override
    public boolean setsSessionVariables(String sql) {
        return HsqldbSessionVariables.setBy(sql);
    }

    @Override
    public Object sessionVariables(Connection connection) throws SQLException {
        return HsqldbSessionVariables.of(connection);
    }

    @Override
    public void setSessionVariable(Connection connection, Object variables) throws SQLException {
        HsqldbSessionVariables.giveTo(connection, variables);
    }

    /**
     * HSQLDB commits before a {@code SET} of the database ({@code SET DATABASE}, {@code SET FILES}, {@code SET TABLE}),
     * {@code CHECKPOINT} and {@code SCRIPT} (measured with HSQLDB 2.7.4: a row written before them survived a
     * rollback); the settings of the session, {@code SET DATABASE EVENT LOG} and {@code SET FILES WRITE DELAY} do not.
     */
    @Override
    public boolean commitsOpenTransaction(String sql) {
        String word = SqlText.firstWord(sql);
        return word.equals("CHECKPOINT") || word.equals("SCRIPT")
                || word.equals("SET") && DATABASE_SETTING.matcher(SqlText.withoutComments(sql))
                .lookingAt();
    }

    private static final Pattern DATABASE_SETTING = Pattern.compile(
            "^\\W*SET\\s+(DATABASE\\s+(?!EVENT\\s+LOG\\b)|FILES\\s+(?!WRITE\\s+DELAY\\b)|TABLE\\b)",
            Pattern.CASE_INSENSITIVE);

    /**
     * HSQLDB waits for a lock until it is released, so a schema change waiting for a writer whose
     * commit waits for the commit lock would wait for ever. Its sessions list who waits for them; read without HSQLDB's
     * own lock, as its {@code SYSTEM_SESSIONS} view reads it, so a list changing meanwhile can give a wrong answer
     * once: the caller asks again while it waits. A statement that waits for a session that waits for the holder
     * waits for the holder too. HSQLDB takes every lock a statement needs before the statement runs
     * (its transaction manager's {@code beginAction}, where DDL in MVCC mode also waits for every open transaction),
     * so a statement that waits has not begun.
     */
    @Override
    public boolean waitsFor(Connection waiting, Connection holder) throws SQLException {
        org.hsqldb.Session waiter = (org.hsqldb.Session) waiting.unwrap(JDBCConnection.class).getSession();
        org.hsqldb.Session owner = (org.hsqldb.Session) holder.unwrap(JDBCConnection.class).getSession();
        try {
            // Through other sessions too: the statement may wait for a writer that waits in the engine for the
            // holder (found by a review: a commit then hung behind a third transaction, every commit with it).
            java.util.Set<org.hsqldb.Session> reached = new java.util.HashSet<>();
            java.util.ArrayDeque<org.hsqldb.Session> waitingFor = new java.util.ArrayDeque<>();
            waitingFor.add(owner);
            while (!waitingFor.isEmpty()) {
                // toArray() (HSQLDB's toArray(T[]) fills only an array of the set's size), read without its lock
                for (Object next : waitingFor.poll().waitingSessions.toArray()) {
                    org.hsqldb.Session waits = (org.hsqldb.Session) next;
                    if (waits == waiter) {
                        return true;
                    }
                    if (reached.add(waits)) {
                        waitingFor.add(waits);
                    }
                }
            }
            return false;
        } catch (RuntimeException changedMeanwhile) {
            return false;
        }
    }

    @Override
    public int releaseStaleLockWaits(Connection connection) throws SQLException {
        return HsqldbStaleLockWaits.release((org.hsqldb.Session) connection.unwrap(JDBCConnection.class).getSession());
    }

    /** HSQLDB looks an unqualified name up among the session's tables first; MODULE and SESSION name only those. */
    @Override
    public boolean isSessionTable(Connection connection, String schema, String table) throws SQLException {
        if (schema != null && !schema.equals("MODULE") && !schema.equals("SESSION")) {
            return false;
        }
        org.hsqldb.Session session = (org.hsqldb.Session) connection.unwrap(JDBCConnection.class).getSession();
        return session.sessionContext.findSessionTable(table) != null;
    }

    @Override
    public String tableDefinition(Connection connection, String schema, String table) throws SQLException {
        org.hsqldb.Session session = (org.hsqldb.Session) connection.unwrap(JDBCConnection.class).getSession();
        org.hsqldb.Table t = session.getDatabase().schemaManager.findUserTable(table, schema);
        return t == null ? null : t.getSQL();
    }

    /**
     * Read from HSQLDB's sequence objects, as {@code INFORMATION_SCHEMA.SEQUENCES.NEXT_VALUE} gives it (its own
     * {@code SYSTEM_LOBS} schema left out): the commit path asks for it, and that table cost a commit about ten times
     * the transaction itself with ten sequences (measured on this 2-core machine, 2026-11-22).
     */
    @Override
    public Map<String, Long> sequenceState(Connection connection) throws SQLException {
        org.hsqldb.Session session = (org.hsqldb.Session) connection.unwrap(JDBCConnection.class).getSession();
        Map<String, Long> sequences = new LinkedHashMap<>();
        org.hsqldb.lib.Iterator<org.hsqldb.SchemaObject> all =
                session.getDatabase().schemaManager.databaseObjectIterator(org.hsqldb.SchemaObject.SEQUENCE);
        while (all.hasNext()) {
            org.hsqldb.NumberSequence sequence = (org.hsqldb.NumberSequence) all.next();
            String schema = sequence.getSchemaName().name;
            if (!schema.equals("SYSTEM_LOBS") && !schema.equals("INFORMATION_SCHEMA")) {
                sequences.put(CapturedTable.quote(schema) + "." + CapturedTable.quote(sequence.getName().name),
                        sequence.peek());
            }
        }
        return sequences;
    }

    @Override
    public String restartSequence(String quotedSequence, long next) {
        return "ALTER SEQUENCE " + quotedSequence + " RESTART WITH " + next;
    }

    /** HSQLDB moves an identity counter past every value inserted explicitly, so slaves follow without help. */
    @Override
    public Map<String, Long> identityState(Connection connection) {
        return Map.of();
    }

    @Override
    public String restartIdentity(CapturedTable table, long next) {
        return "ALTER TABLE " + table.name().quoted() + " ALTER COLUMN "
                + CapturedTable.quote(table.columns().get(table.identityColumn()).name()) + " RESTART WITH " + next;
    }

    @Override
    public KeylessMatch keylessMatch() {
        return new KeylessMatch("LIMIT 1", "=");
    }

    @Override
    public List<String> snapshot(Connection source) throws SQLException {
        return SqlQueries.strings(source, "SCRIPT");
    }

    /** HSQLDB's SCRIPT waits for every other session's transaction, and so does CREATE TRIGGER in the MVCC modes. */
    @Override
    public boolean schemaReadWaitsForTransactions() {
        return true;
    }

    @Override
    public String referentialIntegrity(boolean enabled) {
        return "SET DATABASE REFERENTIAL INTEGRITY " + enabled;
    }

    @Override
    public void shutdown(Connection connection) throws SQLException {
        SqlQueries.execute(connection, "SHUTDOWN");
    }

    /**
     * Ends every other session's statement first ({@code ALTER SESSION n END STATEMENT}: one running or waiting for a
     * row lock fails). SHUTDOWN IMMEDIATELY closes the sessions one by one in the order they were opened, each once no
     * statement runs in it, and a session waiting for a lock that a later session's open transaction held was never
     * free: the shutdown (a failed master's, before its place was rebuilt) waited for as long as that transaction
     * stayed open (found by CI, 2026-11-29). Not {@code RELEASE}, which rolls the target's transaction back from this
     * thread, holding the transaction manager's lock, and so deadlocks with a statement running in it (found by a
     * review, 2026-11-29). In LOCKS mode END STATEMENT leaves waiting a statement that began its transaction (measured;
     * one whose transaction held a lock already it ends): the shutdown then waits for the transaction holding the lock
     * to end ({@code Cluster.retire} does not wait for the shutdown).
     */
    @Override
    public void discard(Connection connection) throws SQLException {
        for (String session : SqlQueries.strings(connection, "SELECT SESSION_ID FROM INFORMATION_SCHEMA.SYSTEM_SESSIONS"
                + " WHERE SESSION_ID <> SESSION_ID()")) {
            try {
                SqlQueries.execute(connection, "ALTER SESSION " + session + " END STATEMENT");
            } catch (SQLException closedMeanwhile) {
                // nothing to end
            }
        }
        SqlQueries.execute(connection, "SHUTDOWN IMMEDIATELY");
    }
}
