package io.macrodb.runtime.engine;

import io.macrodb.runtime.capture.CapturedTable;
import io.macrodb.runtime.capture.KeylessMatch;
import io.macrodb.runtime.capture.RowLog;
import io.macrodb.runtime.capture.ValueConverter;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Everything MacroDB needs to know about one embedded engine, and nothing more. One class per engine, found by
 * {@link java.util.ServiceLoader} ({@code META-INF/services/io.macrodb.runtime.engine.Engine}), so adding a third
 * engine touches no core class. Implementations must not load the engine's own classes until a method needs them:
 * the engines are optional dependencies. That includes the JVM's verification of the class itself, which loads two
 * of the engine's classes to check that one may be passed or returned as the other: keep such code in a class of its
 * own ({@code H2StoredValues}; {@code EngineOnTheClassPathAloneTest}).
 */
public interface Engine {

    /** Short name, as in the URL: {@code h2}, {@code hsqldb}. */
    String name();

    /** Whether this engine serves {@code engineUrl} (the URL after {@code jdbc:macrodb:}). */
    boolean accepts(String engineUrl);

    /**
     * The JDBC URL of replica {@code index}'s own database. Replica 0 (the first master) uses the URL as given, so a
     * file database stays where the user put it; every other replica is an in-memory database whose name is the
     * given name plus {@code _macrodb_r<index>}.
     */
    String replicaUrl(String engineUrl, int index) throws SQLException;

    /**
     * The URL that opens the existing database of {@code replicaUrl} and fails when there is none. Every connection
     * after the one that creates a replica's database opens it this way: an in-memory database lost under its name
     * (shut down behind MacroDB's back) would otherwise come back empty, and serve reads.
     */
    String existingDatabaseUrl(String replicaUrl);

    /** Whether {@code engineUrl} names an in-memory database (else a file database, which is durable). */
    boolean inMemory(String engineUrl) throws SQLException;

    /** {@code engineUrl} split into its parts ({@link EngineUrl}). */
    EngineUrl url(String engineUrl) throws SQLException;

    /**
     * Whether {@code error} says the database itself is gone (closed, shut down under the connection): a replica
     * failure, not the statement's own fault; this includes a database that {@link #existingDatabaseUrl} found
     * missing. The default: a connection-exception SQLState (class 08).
     */
    default boolean isDatabaseLost(SQLException error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof SQLException e && e.getSQLState() != null && e.getSQLState().startsWith("08")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the database behind {@code connection} (one of MacroDB's own, opened with the replica's database) is
     * known to be open still, after a statement on it met an error {@link #isDatabaseLost} recognises: an engine may
     * report a statement's own trouble that way. The default: not known.
     */
    default boolean isKnownOpen(Connection connection) {
        return false;
    }

    /**
     * Whether {@code error} says a prepared statement was dropped by the engine (it could not compile it again after a
     * schema change): preparing it anew is the remedy, not failing the replica. The default (H2): never.
     */
    default boolean isStatementDropped(SQLException error) {
        return false;
    }

    /**
     * Puts right what running {@link #snapshot}'s statements in order left undone on a copy: the default, nothing.
     * H2's script lists a view before a table that an {@code ALTER TABLE} re-created after it, so the copy's view was
     * created (with {@code FORCE}) before its table and stayed invalid.
     */
    default void afterSchemaCopied(Connection copy) throws SQLException {
    }

    /**
     * Called after MacroDB read the catalog through {@code writer}, the session of an application's connection that
     * made a schema change: the engine may forget what those reads left in the session (H2's cached commands). The
     * default: nothing.
     */
    default void afterCatalogRead(Connection writer) {
    }

    /** Whether {@code schema} holds the engine's own tables, never captured nor copied. */
    boolean isSystemSchema(String schema);

    /**
     * The tables of {@code connection}'s database whose rows live outside it (H2's linked tables), keyed as
     * {@link CapturedTable.Name#key()}: the master's engine writes them through to their source, once; every replica
     * has the same link (their DDL is replayed, their definition copied) and reads that source itself. So they are
     * never captured, copied nor compared (capturing them made every slave write each row to the source again). The
     * default: none.
     */
    default Set<String> externalTables(Connection connection) throws SQLException {
        return Set.of();
    }

    /**
     * How the rows an update transaction writes on {@code master} (an engine connection to the master) are read from
     * the engine's own record of the transaction. Fails where the engine does not let MacroDB read it.
     */
    RowLog rowLog(Connection master) throws SQLException;

    /**
     * The converter that turns this engine's captured value for {@code column} into one a slave can bind, or null
     * where the captured value is that already.
     *
     * @param keyed whether the column's table has a primary key: a table without one is matched on its old values,
     *              which must then be plain JDBC values ({@link CapturedTable})
     */
    ValueConverter converterFor(CapturedTable.Column column, boolean keyed);

    /**
     * Whether the engine commits the session's open transaction when it runs {@code sql} (a setting of the database,
     * {@code SET}, {@code ANALYZE}, {@code SCRIPT} or {@code CHECKPOINT}; asked of no other statement): MacroDB then
     * commits it first, in its own commit order.
     */
    boolean commitsOpenTransaction(String sql);

    /**
     * The session variable {@code name} ({@code @name}, as written, unquoted) of {@code connection}'s session, as a
     * token {@link #setSessionVariable} gives to another session with its value and SQL type intact. The default,
     * for an engine without such variables, says to replay the statement as written (null).
     */
    default Object sessionVariable(Connection connection, String name) throws SQLException {
        return null;
    }

    /**
     * Whether {@code sql} declares or assigns session variables of a kind other than H2's {@code SET @name}
     * (HSQLDB's {@code DECLARE v INT;} and {@code SET v = ...}): MacroDB then gives the session's variables, as
     * {@link #sessionVariables} reads them once it ran, to the connection's other sessions, rather than replaying the
     * text (each would evaluate the values again); and such a {@code SET} is no setting of the database, whatever the
     * variable's name ({@code SET mode = 1}). The default: none.
     */
    default boolean setsSessionVariables(String sql) {
        return false;
    }

    /**
     * The names of the engine's built-in functions that change the schema when a statement calls them (H2's
     * {@code LINK_SCHEMA}, which links every table of another database's schema), as one pattern; null for none.
     * MacroDB runs a query calling one as the DDL it is, and refuses one anywhere else.
     */
    default Pattern schemaChangingFunctions() {
        return null;
    }

    /**
     * All the variables of {@code connection}'s session, declared and valued, as a token {@link #setSessionVariable}
     * gives to another session (declaring those it lacks); null to replay the statement as written.
     */
    default Object sessionVariables(Connection connection) throws SQLException {
        return null;
    }

    /**
     * Gives {@code variable}, a token from {@link #sessionVariable} or {@link #sessionVariables}, to
     * {@code connection}'s session.
     */
    default void setSessionVariable(Connection connection, Object variable) throws SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("This engine has no session variables.");
    }

    /**
     * Whether {@code waiting}'s session is now waiting for a lock {@code holder}'s session holds, directly or through
     * sessions that wait for it in turn. MacroDB asks when a
     * commit has waited for the commit lock while a statement runs on the master with commits held (a schema change,
     * {@code verify()}'s read): if that statement waits for the committer's locks, neither can go on. A statement that
     * waits must not have begun to change anything (so that a schema change's DDL waiting may let the commit go first):
     * the engine takes the locks a statement needs before it runs. The default (H2): never. H2 gives up on a lock after
     * its lock timeout, and letting a commit go ahead of its waiting DDL is not safe there: an {@code ALTER TABLE}
     * that copies the table reads it as of when the statement began, before the wait, and so drops the rows that commit
     * wrote (H2 alone loses them too; measured 2026-11-23, when MacroDB briefly let such commits through and the slaves
     * held rows the master had lost).
     */
    default boolean waitsFor(Connection waiting, Connection holder) throws SQLException {
        return false;
    }

    /**
     * Whether {@code rollingBack}'s transaction may be rolled back while a schema change's statement runs on {@code
     * schemaChange} (both the master's engine connections). The default: always, the engine's rollback and its DDL
     * taking each other's locks. H2 says no, unless that statement waits for a table lock {@code rollingBack} holds
     * (and so has not begun): its {@code DROP INDEX} takes no lock, and removes the index's map while a transaction
     * that wrote into the index rolls back ({@link io.macrodb.runtime.cluster.CommitSequencer#rollback}).
     */
    default boolean mayRollBackBeside(Connection schemaChange, Connection rollingBack) throws SQLException {
        return true;
    }

    /**
     * Whether the engine, running a statement on {@code connection}, takes the name {@code schema.table} (as the engine
     * stores names; {@code schema} null for an unqualified name) for a temporary table of that session only, as it
     * resolves names: a table of the session's own may be found before or after a shared one of the same name.
     */
    boolean isSessionTable(Connection connection, String schema, String table) throws SQLException;

    /**
     * The engine's own {@code CREATE TABLE} statement for {@code schema.table} (names as the engine stores them), as
     * its script writes it, followed by those of its keys and constraints that the engine writes apart: what a slave
     * replays to get the same table without reading what the master's statement read. Null if there is no such table.
     */
    String tableDefinition(Connection connection, String schema, String table) throws SQLException;

    /** Current value of every user sequence: qualified name to the value the next {@code NEXT VALUE} returns. */
    Map<String, Long> sequenceState(Connection connection) throws SQLException;

    /** Makes {@code sequence} (quoted, qualified) return {@code next} at its next use. */
    String restartSequence(String quotedSequence, long next);

    /** The next value of each identity column the engine will generate, keyed by table key; empty if unknown. */
    Map<String, Long> identityState(Connection connection) throws SQLException;

    /**
     * {@link #identityState(Connection)} for {@code tables} only (those an update transaction inserted into): asked at
     * every such commit, under the commit lock.
     */
    default Map<String, Long> identityState(Connection connection, java.util.Collection<CapturedTable.Name> tables)
            throws SQLException {
        Map<String, Long> all = identityState(connection);
        Map<String, Long> those = new java.util.HashMap<>();
        for (CapturedTable.Name table : tables) {
            Long next = all.get(table.key());
            if (next != null) {
                those.put(table.key(), next);
            }
        }
        return those;
    }

    /** Makes the identity column of {@code table} generate {@code next} next. */
    String restartIdentity(CapturedTable table, long next);

    /** How this engine's SQL deletes or updates exactly one row of a table without a primary key. */
    KeylessMatch keylessMatch();

    /**
     * The statements of the script an engine's {@code RUNSCRIPT} statement names, in order, for MacroDB to run one by
     * one (each replicated as the application's own would be). The default: the engine has no such statement.
     */
    default List<String> scriptStatements(String runscript) throws SQLException {
        throw new SQLException("This engine has no RUNSCRIPT: run the script's statements one by one.",
                io.macrodb.api.MacroSqlState.NOT_REPLICABLE);
    }

    /** {@code text} (H2's {@code INIT} setting, say) split into its statements, in the engine's script syntax. */
    default List<String> statementsOf(String text) throws SQLException {
        return List.of(text);
    }

    /** Statements that recreate a live database's schema (no rows), in order, for seeding a new slave. */
    List<String> snapshot(Connection source) throws SQLException;

    /**
     * Whether {@link #snapshot} and {@code CREATE TRIGGER} wait until every other session of the database has ended
     * its transaction: then recovery ends the read-only transactions left open on the replica it copies or promotes
     * ({@code io.macrodb.runtime.cluster.OpenRead}). The default (H2): no.
     */
    default boolean schemaReadWaitsForTransactions() {
        return false;
    }

    /** The statement that turns foreign key checks off or on, so a seed can copy tables in any order. */
    String referentialIntegrity(boolean enabled);

    /**
     * A writer that puts captured rows straight into {@code slave}'s tables, or null where this engine's slaves
     * apply every row with SQL (the default).
     */
    default DirectRowWriter directWriter(Connection slave) throws SQLException {
        return null;
    }

    /**
     * The values of {@code row}, a row of {@code table}, as this engine stores them in that table's columns: converted
     * as {@code slave}'s own binding and then its column would convert them, in objects the engine keeps as they are
     * when bound. One conversion then serves every slave, which all store the same immutable objects. Only the columns
     * in {@code columns} (bit i = column i; -1: all) are converted, the others are left as they are: the slave binds
     * no other. The default is the row itself: right for an engine that stores the plain Java values it is given
     * (HSQLDB).
     */
    default Object[] storedValues(Connection slave, CapturedTable.Name table, Object[] row, long columns)
            throws SQLException {
        return row;
    }

    /**
     * Copies every row of {@code table} from {@code source}, a replica that stands still, to {@code slave}, a new one,
     * as the source stores them, committing the slave every {@code commitEvery} rows: the new slave then shares the
     * source's stored values, as slaves that applied them do. False, having copied nothing, where this engine cannot
     * (the default, and H2's tables with a LOB column): the copy then reads and binds each row ({@link #copiedRow}).
     */
    default boolean copyStoredRows(Connection source, Connection slave, CapturedTable table, int commitEvery)
            throws SQLException {
        return false;
    }

    /**
     * The current row of {@code rows}, a {@code SELECT *} of {@code table} on a replica of this engine, as values
     * that store exactly the same row when bound on another: how a new slave's copy reads its source. The default
     * reads each value in a form exact for its type ({@link ExactValues}).
     */
    default Object[] copiedRow(ResultSet rows, CapturedTable table) throws SQLException {
        int columns = table.columns().size();
        int[] types = ExactValues.types(rows.getMetaData(), columns);
        Object[] row = new Object[columns];
        for (int i = 1; i <= columns; i++) {
            row[i - 1] = ExactValues.read(rows, i, types[i]);
        }
        return row;
    }

    /**
     * A query that touches no table and fails only when the database itself is unusable: run now and then on every
     * replica to find one lost while nothing else uses it.
     */
    default String aliveQuery() {
        return "VALUES 1";
    }

    /**
     * Ends the waits for a lock that nobody holds any more which the engine leaves behind (HSQLDB's MVCC mode loses a
     * wake-up: {@code HsqldbStaleLockWaits}), on the database behind {@code connection}; run with the probe on every
     * replica. The default: there are none.
     *
     * @return how many waits were ended
     */
    default int releaseStaleLockWaits(Connection connection) throws SQLException {
        return 0;
    }

    /**
     * The tables of {@code master}'s database that no in-memory slave can hold, each named with the reason, for a
     * database opened with data in it (a file master): the statements that create them are refused (0AM01), but a
     * database made by the engine alone may already have some. The default: none.
     */
    default List<String> tablesSlavesCannotHold(Connection master) throws SQLException {
        return List.of();
    }

    /**
     * Whether some column takes its values from a named sequence by a generation clause that no column default shows
     * (HSQLDB's {@code GENERATED BY DEFAULT AS SEQUENCE s}): an insert then moves that sequence. The default: none.
     */
    default boolean hasColumnsGeneratedBySequence(Connection connection) throws SQLException {
        return false;
    }

    /**
     * Whether {@code checkClause}, a CHECK constraint's text as {@code INFORMATION_SCHEMA.CHECK_CONSTRAINTS} gives it,
     * only says that a column is NOT NULL: the engine's form of a column's nullability, which {@code verify()} compares
     * with the columns instead. The default: never.
     */
    default boolean isNullabilityCheck(String checkClause) {
        return false;
    }

    /**
     * A routine's definition as {@code INFORMATION_SCHEMA.ROUTINES} gives it, without what differs between two copies
     * of the same routine (a name the engine generated), for {@code verify()} to compare. The default: as it is.
     */
    default String comparableRoutine(String definition, String specificName) {
        return definition;
    }

    /**
     * Readies a new engine session, just opened in manual-commit mode, for MacroDB's use. The default does nothing.
     */
    default void prepareSession(Connection connection) throws SQLException {
    }

    /** Closes the database behind {@code connection} for good (in-memory contents are freed). */
    void shutdown(Connection connection) throws SQLException;

    /**
     * Drops the in-memory database behind {@code connection} at once, whatever its other sessions are doing: a failed
     * replica's, which nothing will read again; statements running are ended. ({@link #shutdown} may wait for busy
     * sessions: H2 waits up to twice its lock timeout, 4 s by default. HSQLDB's discard may still wait for a session
     * waiting for a table lock in LOCKS mode: see its implementation.)
     */
    void discard(Connection connection) throws SQLException;
}
