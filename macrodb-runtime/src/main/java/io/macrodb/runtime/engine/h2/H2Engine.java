package io.macrodb.runtime.engine.h2;

import io.macrodb.api.MacroSqlState;
import io.macrodb.runtime.capture.CapturedTable;
import io.macrodb.runtime.capture.KeylessMatch;
import io.macrodb.runtime.capture.ValueConverter;
import io.macrodb.runtime.engine.Engine;
import io.macrodb.runtime.engine.EngineUrl;
import io.macrodb.runtime.engine.SqlQueries;
import io.macrodb.runtime.sql.SqlText;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * H2 2.x, embedded ({@code mem:} and {@code file:}). Captures from each transaction's undo log ({@link H2RowLog}), in
 * H2's own immutable {@code Value} objects ({@link #converterFor} names the few columns captured otherwise), and writes a
 * slave's rows straight into its tables where it can ({@link H2DirectWriter}).
 */
public final class H2Engine implements Engine {

    private static final Pattern RUNSCRIPT = Pattern.compile(
            "^\\s*RUNSCRIPT\\s+FROM\\s+'((?:[^']|'')*)'(?:\\s+CHARSET\\s+'([^']*)')?\\s*;?\\s*$",
            Pattern.CASE_INSENSITIVE);
    /** H2's SQLState for a file it cannot read (IO_EXCEPTION_2), for a script MacroDB reads in its place. */
    private static final String IO_ERROR = "90031";

    private static final List<String> KINDS = List.of("file", "mem");
    /** Settings that only make sense for the file database and would be refused by an in-memory slave. */
    private static final List<String> FILE_ONLY = List.of("AUTO_SERVER", "AUTO_SERVER_PORT", "FILE_LOCK",
            "ACCESS_MODE_DATA", "IFEXISTS", "CIPHER", "RECOVER", "DB_CLOSE_ON_EXIT", "AUTO_RECONNECT");

    @Override
    public String name() {
        return "h2";
    }

    @Override
    public boolean accepts(String engineUrl) {
        return engineUrl.regionMatches(true, 0, "h2:", 0, 3);
    }

    /** H2 reports a closed database with its own codes: 90121 (database is closed), 90098 (closed by a failure). */
    @Override
    public boolean isDatabaseLost(SQLException error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            // 90121 database closed, 90098 closed after an I/O error, 90146 not found (opened with IFEXISTS=TRUE)
            if (t instanceof SQLException e
                    && (e.getErrorCode() == 90121 || e.getErrorCode() == 90098 || e.getErrorCode() == 90146)) {
                return true;
            }
        }
        return Engine.super.isDatabaseLost(error);
    }

    /**
     * H2 says "The database has been closed" (90098) for a write into an index a concurrent {@code DROP INDEX} has just
     * closed (its MVStore map), and goes on serving: the statement fails, as with H2 alone, and the replica is no more
     * lost than H2 alone was (MacroDB failed the master over for it until 2026-11-23). Open: the session, the database
     * and its store are.
     */
    @Override
    public boolean isKnownOpen(Connection connection) {
        try {
            org.h2.engine.SessionLocal session = session(connection);
            org.h2.engine.Database database = session.getDatabase();
            org.h2.mvstore.db.Store store = database.getStore();
            return !session.isClosed() && !database.isClosing() && store != null && !store.getMvStore().isClosed();
        } catch (SQLException | RuntimeException gone) {
            return false;
        }
    }

    @Override
    public String existingDatabaseUrl(String replicaUrl) {
        return replicaUrl.replaceAll("(?i);IFEXISTS=[^;]*", "") + ";IFEXISTS=TRUE";
    }

    @Override
    public boolean inMemory(String engineUrl) throws SQLException {
        return url(engineUrl).inMemory();
    }

    @Override
    public EngineUrl url(String engineUrl) throws SQLException {
        return EngineUrl.parse(engineUrl, "h2", KINDS);
    }

    @Override
    public String replicaUrl(String engineUrl, int index) throws SQLException {
        EngineUrl url = url(engineUrl);
        return url.replicaUrl(index, url.inMemory() ? url.settings() : withoutFileSettings(url.settings()));
    }

    private static String withoutFileSettings(String settings) {
        StringBuilder kept = new StringBuilder();
        for (String setting : settings.split(";")) {
            String key = setting.contains("=") ? setting.substring(0, setting.indexOf('=')) : setting;
            if (!setting.isBlank() && !FILE_ONLY.contains(key.trim().toUpperCase(Locale.ROOT))) {
                kept.append(';').append(setting);
            }
        }
        return kept.toString();
    }

    /** H2's linked tables ({@code CREATE LINKED TABLE}), which read and write a table of another JDBC database. */
    @Override
    public Set<String> externalTables(Connection connection) throws SQLException {
        return new HashSet<>(SqlQueries.strings(connection, "SELECT TABLE_SCHEMA || '.' || TABLE_NAME"
                + " FROM INFORMATION_SCHEMA.TABLES WHERE STORAGE_TYPE = 'TABLE LINK'"));
    }

    /** MacroDB's catalog queries leave the writer's session's command cache ({@link H2CommandCache}). */
    @Override
    public void afterCatalogRead(Connection writer) {
        H2CommandCache.forgetCatalogQueries(writer);
    }

    /**
     * {@code INFORMATION_SCHEMA}, and {@code PG_CATALOG}, whose tables H2 creates in {@code MODE=PostgreSQL} (every
     * replica has its own; they reject inserts). Either is lower case with {@code DATABASE_TO_LOWER=TRUE}.
     */
    @Override
    public boolean isSystemSchema(String schema) {
        return isOwnSchema(schema);
    }

    static boolean isOwnSchema(String schema) {
        return "INFORMATION_SCHEMA".equalsIgnoreCase(schema) || "PG_CATALOG".equalsIgnoreCase(schema);
    }

    /** Rows are read from each transaction's undo log ({@link H2RowLog}). */
    @Override
    public io.macrodb.runtime.capture.RowLog rowLog(Connection master) throws SQLException {
        return new H2RowLog(session(master));
    }

    /**
     * The row log hands over H2's own {@code Value} objects ({@link H2RowLog}), which slaves bind and store as
     * they are. Three kinds of column need more. A LOB value belongs to the database that made it: its
     * bytes or text are captured instead. A {@code VARCHAR_IGNORECASE} value equals another of other letter case,
     * which would hide an update of the case from the changed-column test: captured as its text, which compares
     * exactly. And a table without a key is matched on its old values with literals ({@link CapturedTable}): its
     * values are captured as the plain Java values H2's JDBC layer gives.
     */
    @Override
    public ValueConverter converterFor(CapturedTable.Column column, boolean keyed) {
        if (column.jdbcType() == Types.OTHER && column.typeName() != null && column.typeName().startsWith("ROW")) {
            return value -> {
                if (value == org.h2.value.ValueNull.INSTANCE) {
                    return keyed ? value : null;
                }
                throw new SQLException("MacroDB does not replicate writes to ROW column " + column.name()
                        + " on H2. Use one column per field.", MacroSqlState.NOT_REPLICABLE);
            };
        }
        if ("DECFLOAT".equals(column.typeName())) {
            return value -> {
                if (value instanceof org.h2.value.ValueDecfloat decfloat && !decfloat.isFinite()) {
                    // A new slave's copy reads values through JDBC, whose BigDecimal holds no NaN or infinity.
                    throw new SQLException("MacroDB cannot replicate " + decfloat.getString() + " in DECFLOAT column "
                            + column.name() + " on H2: store NULL or a finite number.", MacroSqlState.NOT_REPLICABLE);
                }
                return keyed ? value : plainValue(value);
            };
        }
        boolean ignoringCase = column.typeName() != null && column.typeName().contains("IGNORECASE");
        boolean lob = switch (column.jdbcType()) {
            case Types.BLOB, Types.CLOB, Types.NCLOB -> true;
            default -> false;
        };
        return keyed && !ignoringCase && !lob ? null : H2Engine::plainValue;
    }

    /** A captured {@code Value} as the plain Java value H2's JDBC layer gives for it (a LOB's bytes or text). */
    private static Object plainValue(Object value) {
        if (value instanceof org.h2.value.ValueBlob blob) {
            return blob.getBytes();
        }
        if (value instanceof org.h2.value.ValueClob clob) {
            return clob.getString();
        }
        return value instanceof org.h2.value.Value v
                ? org.h2.value.ValueToObjectConverter.valueToDefaultObject(v, null, false) : value;
    }

    @Override
    public io.macrodb.runtime.engine.DirectRowWriter directWriter(Connection slave) throws SQLException {
        return new H2DirectWriter(session(slave));
    }

    /**
     * H2 keeps every stored value in an immutable {@code Value} object, and a {@code Value} given to
     * {@code setObject} is stored as it is. Converting once, with the slave session's own conversion, saves each
     * further slave one such object per column of every row (measured: roughly half a slave's heap under TPC-C).
     * A row captured as the master stores it (a {@code Value[]}: its table needs no capture conversion) is returned
     * as it is, the master's own array, which {@link H2DirectWriter} then stores on every slave: the master's column
     * already converted each value when it stored it, and every slave's column is defined as the master's was at
     * that version. (Converting it again only to find nothing changed took a tenth of an H2 applier's CPU under
     * TPC-C.) Otherwise the result is a {@code Value[]} wherever every value became one (no LOB), which that writer
     * can store too.
     */
    @Override
    public Object[] storedValues(Connection slave, CapturedTable.Name table, Object[] row, long columns)
            throws SQLException {
        return H2StoredValues.of(session(slave), table, row, columns);
    }

    /**
     * H2 commits before every {@code SET} of the database, {@code ANALYZE} and {@code SCRIPT} (measured with H2
     * 2.5.252: a row written before them survived a rollback); the settings of the session below it does not.
     */
    @Override
    public boolean commitsOpenTransaction(String sql) {
        String word = SqlText.firstWord(sql);
        return word.equals("ANALYZE") || word.equals("SCRIPT")
                || word.equals("SET") && !SESSION_SETTING.matcher(SqlText.withoutComments(sql))
                .lookingAt();
    }

    private static final Pattern SESSION_SETTING = Pattern.compile("^\\W*SET\\s+(@|(SCHEMA|SCHEMA_SEARCH_PATH|CATALOG"
            + "|LOCK_TIMEOUT|QUERY_TIMEOUT|TIME\\s+ZONE|NON_KEYWORDS|LAZY_QUERY_EXECUTION|TRACE_LEVEL_SYSTEM_OUT"
            + "|TRACE_LEVEL_FILE|THROTTLE|VARIABLE_BINARY|TRUNCATE_LARGE_LENGTH|RETENTION_TIME|WRITE_DELAY|CLUSTER"
            + "|BINARY_COLLATION|UUID_COLLATION)\\b)", Pattern.CASE_INSENSITIVE);

    /**
     * Read from H2's sequence objects, as {@code INFORMATION_SCHEMA.SEQUENCES.BASE_VALUE} gives it (identity columns'
     * own sequences left out, as there): the commit path asks for it, and H2 builds an {@code INFORMATION_SCHEMA}
     * table's rows afresh for every query once data has changed.
     */
    @Override
    public Map<String, Long> sequenceState(Connection connection) throws SQLException {
        org.h2.engine.SessionLocal session = session(connection);
        Map<String, Long> sequences = new LinkedHashMap<>();
        for (org.h2.schema.Schema schema : session.getDatabase().getAllSchemasNoMeta()) {
            for (org.h2.schema.Sequence sequence : schema.getAllSequences()) {
                if (!sequence.getBelongsToTable()) {
                    sequences.put(CapturedTable.quote(schema.getName()) + "." + CapturedTable.quote(sequence.getName()),
                            sequence.getBaseValue());
                }
            }
        }
        return sequences;
    }

    @Override
    public String restartSequence(String quotedSequence, long next) {
        return "ALTER SEQUENCE " + quotedSequence + " RESTART WITH " + next;
    }

    /**
     * Read from H2's identity sequences, as {@code INFORMATION_SCHEMA.COLUMNS.IDENTITY_BASE} gives it: that table
     * builds a row for every column of every table at each query once data has changed, which cost the commit of every
     * insert into an identity table about 1 ms with 30 tables (measured on this 2-core machine, 2026-11-22).
     */
    @Override
    public Map<String, Long> identityState(Connection connection) throws SQLException {
        org.h2.engine.SessionLocal session = session(connection);
        Map<String, Long> identities = new LinkedHashMap<>();
        for (org.h2.schema.Schema schema : session.getDatabase().getAllSchemasNoMeta()) {
            for (org.h2.table.Table table : schema.getAllTablesAndViews(session)) {
                putIdentityBase(identities, schema.getName() + "." + table.getName(), table);
            }
        }
        return identities;
    }

    /**
     * The variable's {@code Value}, which carries its SQL type (immutable, so it may be shared with another session);
     * null, so that the statement is replayed as written, for a LOB (it belongs to the master's database) or a name
     * not found once (H2 keeps unquoted names upper case, or as the database's identifier case says).
     */
    @Override
    public Object sessionVariable(Connection connection, String name) throws SQLException {
        org.h2.engine.SessionLocal session = session(connection);
        String found = null;
        for (String key : session.getVariableNames()) {
            if (key.equalsIgnoreCase(name)) {
                if (found != null) {
                    return null; // two that differ only in case: quoted names, replayed as written
                }
                found = key;
            }
        }
        org.h2.value.Value value = found == null ? null : session.getVariable(found);
        return value == null || value instanceof org.h2.value.ValueLob ? null : new SessionVariable(found, value);
    }

    @Override
    public void setSessionVariable(Connection connection, Object variable) throws SQLException {
        SessionVariable set = (SessionVariable) variable;
        session(connection).setVariable(set.name(), set.value());
    }

    /** A session variable's name, as H2 keeps it, and value. */
    private record SessionVariable(String name, org.h2.value.Value value) {
    }

    /**
     * Compiles every view again, once its tables exist (found by a review, 2026-11-23: a slave seeded from a file, or
     * rebuilt, after {@code ALTER TABLE} had a view that failed every read, and that {@code DROP TABLE ... CASCADE}
     * then left behind on the slaves only). A view on a view may need its turn after the other's: passes go on while
     * one gets valid.
     */
    @Override
    public void afterSchemaCopied(Connection copy) throws SQLException {
        for (int pass = 0; ; pass++) {
            List<String> invalid = new java.util.ArrayList<>();
            int views = 0;
            try (var statement = copy.createStatement();
                 ResultSet rows = statement.executeQuery(
                         "SELECT TABLE_SCHEMA, TABLE_NAME, STATUS FROM INFORMATION_SCHEMA.VIEWS")) {
                while (rows.next()) {
                    if (!isSystemSchema(rows.getString(1))) {
                        views++;
                        if (!"VALID".equals(rows.getString(3))) {
                            invalid.add(CapturedTable.quote(rows.getString(1)) + "."
                                    + CapturedTable.quote(rows.getString(2)));
                        }
                    }
                }
            }
            if (invalid.isEmpty() || pass > views) {
                break;
            }
            for (String view : invalid) {
                SqlQueries.execute(copy, "ALTER VIEW " + view + " RECOMPILE");
            }
        }
        copy.commit();
    }

    @Override
    public boolean isSessionTable(Connection connection, String schema, String table) throws SQLException {
        // As H2 resolves a name: the schema's own table first, then the session's local temporary one of that name
        // (Schema.findTableOrView), whatever schema the temporary table was made in.
        org.h2.engine.SessionLocal session = session(connection);
        org.h2.table.Table found = findTable(session, schema == null ? session.getCurrentSchemaName() : schema,
                table);
        return found != null && found.isTemporary() && !found.isGlobalTemporary();
    }

    @Override
    public String tableDefinition(Connection connection, String schema, String table) throws SQLException {
        org.h2.engine.SessionLocal session = session(connection);
        org.h2.table.Table t = findTable(session, schema, table);
        if (t == null) {
            return null;
        }
        // H2 writes a table's keys and constraints as statements of their own (a CREATE TABLE ... AS SELECT may
        // declare them: Flyway's history table its primary key); both engines run several statements in one call.
        var definition = new StringBuilder(t.getCreateSQL());
        for (org.h2.constraint.Constraint constraint : t.getConstraints()) {
            definition.append(";\n").append(constraint.getCreateSQL());
        }
        return definition.toString();
    }

    /** Looks up each table by name: no walk over every table of the database. */
    @Override
    public Map<String, Long> identityState(Connection connection, java.util.Collection<CapturedTable.Name> tables)
            throws SQLException {
        org.h2.engine.SessionLocal session = session(connection);
        Map<String, Long> identities = new LinkedHashMap<>();
        for (CapturedTable.Name name : tables) {
            org.h2.table.Table table = findTable(session, name.schema(), name.table());
            if (table != null) {
                putIdentityBase(identities, name.key(), table);
            }
        }
        return identities;
    }

    /** Puts the next value of {@code table}'s identity column, if it has one, under {@code key}. */
    private static void putIdentityBase(Map<String, Long> identities, String key, org.h2.table.Table table) {
        for (org.h2.table.Column column : table.getColumns()) {
            if (column.isIdentity()) {
                identities.put(key, column.getSequence().getBaseValue());
            }
        }
    }

    /** The table or view {@code schema.table} as {@code session} resolves the name, or null where there is none. */
    static org.h2.table.Table findTable(org.h2.engine.SessionLocal session, String schema, String table) {
        org.h2.schema.Schema found = session.getDatabase().findSchema(schema);
        return found == null ? null : found.findTableOrView(session, table);
    }

    /** The engine session behind {@code connection}: always a local one, MacroDB runs embedded databases only. */
    static org.h2.engine.SessionLocal session(Connection connection) throws SQLException {
        return (org.h2.engine.SessionLocal) connection.unwrap(org.h2.jdbc.JdbcConnection.class).getSession();
    }

    /**
     * Only where the schema change's statement waits for a table lock {@code rollingBack}'s session holds (H2 takes
     * a DDL statement's locks before it changes anything). H2's {@code DROP INDEX} takes no lock, and a rollback that
     * ran beside it found the index's map half removed: H2 failed the rollback halfway ({@code SessionLocal.onRollback},
     * a NullPointerException), and the transaction ended with the rows it had not undone yet committed, on the master
     * only, and its undo log left behind, which failed every later transaction given its id ("An old transaction with
     * the same id is still open"). Seen 2026-11-30 through MacroDB, whose rollback of a statement that ran beside a
     * schema change's start comes while that change runs: 13 such rollbacks in 1,180 rounds of a writer beside {@code
     * CREATE INDEX} and {@code DROP INDEX}, one of them leaving the master a row the slave lacked; H2 alone, whose
     * auto-commit inserts roll back only a statement that failed, in none of 26,044 rounds
     * ({@code docs/results/h2-rollback-beside-ddl-2026-11-30}).
     */
    @Override
    public boolean mayRollBackBeside(Connection schemaChange, Connection rollingBack) throws SQLException {
        org.h2.table.Table awaited = session(schemaChange).getWaitForLock();
        return awaited != null && session(rollingBack).getLocks().contains(awaited);
    }

    @Override
    public boolean copyStoredRows(Connection source, Connection slave, CapturedTable table, int commitEvery)
            throws SQLException {
        return H2StoredRowsCopy.copy(source, slave, table.name(), commitEvery);
    }

    @Override
    public String restartIdentity(CapturedTable table, long next) {
        return "ALTER TABLE " + table.name().quoted() + " ALTER COLUMN "
                + CapturedTable.quote(table.columns().get(table.identityColumn()).name()) + " RESTART WITH " + next;
    }

    @Override
    public KeylessMatch keylessMatch() {
        return new KeylessMatch("FETCH FIRST 1 ROW ONLY", "IS NOT DISTINCT FROM");
    }

    /**
     * {@code RUNSCRIPT FROM '<file>' [CHARSET '<charset>']}: H2 would run the statements itself, out of MacroDB's sight
     * (on the master only). The file is read as H2 reads it ({@code classpath:} and {@code file:} names, UTF-8 unless a
     * charset is given) and split with H2's own script reader. Other options (COMPRESSION, CIPHER, FROM_1X,
     * QUIRKS_MODE, VARIABLE_BINARY) are refused.
     */
    @Override
    public List<String> scriptStatements(String runscript) throws SQLException {
        Matcher from = RUNSCRIPT.matcher(SqlText.withoutComments(runscript));
        if (!from.matches()) {
            throw new SQLException("MacroDB runs RUNSCRIPT FROM '<file>' [CHARSET '<charset>'] itself, statement by "
                    + "statement, so that each is replicated; it does not support the other options of: " + runscript,
                    MacroSqlState.NOT_REPLICABLE);
        }
        String file = from.group(1).replace("''", "'");
        Charset charset = from.group(2) == null ? StandardCharsets.UTF_8 : Charset.forName(from.group(2));
        try (Reader script = new InputStreamReader(org.h2.store.fs.FileUtils.newInputStream(file), charset)) {
            return statementsOf(script);
        } catch (IOException e) {
            throw new SQLException("MacroDB could not read the script " + file + ": " + e.getMessage(),
                    IO_ERROR, e);
        }
    }

    @Override
    public List<String> statementsOf(String text) throws SQLException {
        try {
            return statementsOf(new StringReader(text));
        } catch (IOException e) {
            throw new SQLException(e.getMessage(), IO_ERROR, e); // a string reader does not fail
        }
    }

    private static List<String> statementsOf(Reader text) throws IOException {
        List<String> statements = new ArrayList<>();
        try (org.h2.util.ScriptReader reader = new org.h2.util.ScriptReader(text)) {
            for (String statement = reader.readStatement(); statement != null; statement = reader.readStatement()) {
                if (!statement.isBlank()) {
                    statements.add(statement.strip());
                }
            }
        } catch (RuntimeException e) {
            if (e.getCause() instanceof IOException io) { // H2 wraps the reader's failures
                throw io;
            }
            throw e;
        }
        return statements;
    }

    /**
     * H2's script of the schema, then the database settings that change how later statements are read (a slave's
     * DDL replayed in MySQL mode, say), which H2's script leaves out: MODE, set at run time, is the database's; so are
     * the NULL ordering and IGNORECASE (which makes the VARCHAR columns of later tables case-insensitive). After the
     * script, not before: IGNORECASE would turn the script's own VARCHAR columns case-insensitive (verify() saw it).
     */
    @Override
    public List<String> snapshot(Connection source) throws SQLException {
        List<String> script = new ArrayList<>(SqlQueries.strings(source, "SCRIPT NODATA NOPASSWORDS NOSETTINGS"));
        try (var statement = source.createStatement();
             var settings = statement.executeQuery("SELECT SETTING_NAME, SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS"
                     + " WHERE SETTING_NAME IN ('MODE', 'DEFAULT_NULL_ORDERING', 'IGNORECASE')")) {
            while (settings.next()) {
                String name = settings.getString(1);
                String value = settings.getString(2);
                if ("IGNORECASE".equals(name)) { // listed as 1 or 0
                    value = "1".equals(value) || "TRUE".equalsIgnoreCase(value) ? "TRUE" : "FALSE";
                }
                script.add("SET " + name + " " + value);
            }
        }
        return script;
    }

    @Override
    public String referentialIntegrity(boolean enabled) {
        return "SET REFERENTIAL_INTEGRITY " + enabled;
    }

    /** {@code LINK_SCHEMA(...)}: a linked table for each table of another database's schema. */
    private static final Pattern LINK_SCHEMA = Pattern.compile("\\bLINK_SCHEMA\\b", Pattern.CASE_INSENSITIVE);

    @Override
    public Pattern schemaChangingFunctions() {
        return LINK_SCHEMA;
    }

    /**
     * Runs one command on the new session. H2's SHUTDOWN closes a session that is between commands at once, but one
     * that has never run a command is waited for, up to twice the lock timeout (4 s by default), and never ends by
     * itself: every MacroDB connection opens its master session at once, and one left idle, or used only for
     * read-only transactions (which run on slaves), would make a file master's SHUTDOWN take those 4 s.
     */
    @Override
    public void prepareSession(Connection connection) throws SQLException {
        SqlQueries.execute(connection, "SET AUTOCOMMIT FALSE");
    }

    @Override
    public void shutdown(Connection connection) throws SQLException {
        SqlQueries.execute(connection, "SHUTDOWN");
    }

    /**
     * Both SHUTDOWN forms first wait for the database's busy sessions (and any that never ran a command) to close, up
     * to twice its default lock timeout (4 s unless set). With the timeout at 0 they are closed at once. (Not for a
     * file database: the setting would be persisted.)
     */
    @Override
    public void discard(Connection connection) throws SQLException {
        SqlQueries.execute(connection, "SET DEFAULT_LOCK_TIMEOUT 0");
        SqlQueries.execute(connection, "SHUTDOWN IMMEDIATELY");
    }
}
