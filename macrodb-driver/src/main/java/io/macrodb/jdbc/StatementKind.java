package io.macrodb.jdbc;

import io.macrodb.api.MacroSqlState;
import io.macrodb.runtime.capture.SequenceDraws;
import io.macrodb.runtime.sql.SqlText;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a SQL statement does, as far as routing and replication care, read from its first keyword (after comments
 * and opening parentheses). Classified once per prepared statement, on every call for a plain statement; the scan
 * stops at the first word, so it costs little either way.
 *
 * @param type         where the statement may run and how it is replicated
 * @param usesSequence    whether it draws from a sequence ({@code NEXT VALUE FOR}, {@code NEXTVAL}): sequences are
 *                        not transactional, so even a query that does so is a write, and its state must reach the
 *                        slaves
 * @param mayDrawIdentity whether it may draw identity values: an {@code INSERT}, {@code MERGE}, {@code REPLACE} or
 *                        {@code UPSERT} does so even when it inserts no row (it fails on a duplicate key, or updates
 *                        the existing row instead), and identity counters do not roll back either
 * @param undoneOnlyBySavepoint whether the engine leaves what the statement wrote in place when it fails, so that it
 *                        must run under a savepoint of its own to fail as a whole (H2's data-change delta tables)
 */
record StatementKind(Type type, boolean usesSequence, boolean mayDrawIdentity, boolean undoneOnlyBySavepoint) {

    StatementKind(Type type, boolean usesSequence) {
        this(type, usesSequence, false, false);
    }

    StatementKind(Type type, boolean usesSequence, boolean mayDrawIdentity) {
        this(type, usesSequence, mayDrawIdentity, false);
    }

    enum Type {
        /** Reads only: runs wherever the transaction runs. */
        QUERY,
        /** Writes rows: master only, captured by the row triggers. */
        WRITE,
        /**
         * DDL, TRUNCATE, or a setting of the whole database ({@code SET MODE}...): commits the open transaction, then
         * runs at the master as a version of its own, replayed by every slave.
         */
        SCHEMA_CHANGE,
        /**
         * DDL computing row values that differ per evaluation ({@code CREATE TABLE ... AS SELECT}, {@code ALTER TABLE
         * ... ADD} with such a default): replaying it would get them wrong, so a plain statement runs it in steps
         * that replicate exactly (see {@link SchemaChangeInSteps}); a prepared one is refused.
         */
        IN_STEPS,
        /** {@code SET ...}: session state, run on this connection's current engine and replayed on the others. */
        SESSION,
        /**
         * Referential integrity switched on or off: a setting of the master's database only. Every slave runs with it
         * off, for good (the master already checked each foreign key and ran each cascade; a slave that cascaded
         * again would apply those rows twice), so it is never replayed on a slave.
         */
        MASTER_SETTING,
        COMMIT,
        ROLLBACK,
        /** {@code SHUTDOWN}: shuts the whole cluster down, draining the slaves' queues first. */
        SHUTDOWN,
        /**
         * H2's {@code RUNSCRIPT}: the engine would run the script's statements out of MacroDB's sight, so MacroDB
         * reads the script and runs each statement itself, as the application's own.
         */
        SCRIPT
    }

    /** Functions whose value differs per call or per replica: replaying DDL that evaluates them would diverge. */
    private static final Pattern NONDETERMINISTIC = Pattern.compile(
            "\\b(RAND|RANDOM|RANDOM_UUID|UUID|NEWID|NOW|CURRENT_TIMESTAMP|LOCALTIMESTAMP|CURRENT_TIME|LOCALTIME"
                    + "|CURRENT_DATE|SYSDATE|SYSTIMESTAMP|CURDATE|CURTIME|SECURE_RAND|NEXT\\s+VALUE)\\b",
            Pattern.CASE_INSENSITIVE);
    /** DDL that computes row values as it runs: CREATE TABLE ... AS SELECT (with CREATE_TABLE), ALTER TABLE ... ADD. */
    private static final Pattern AS_QUERY = Pattern.compile("\\bAS\\s*\\(?\\s*SELECT\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern ADD_TO_TABLE =
            Pattern.compile("^\\W*ALTER\\s+TABLE\\b.*\\bADD\\b", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    /**
     * Settings of the database, not of the session, that change how later statements are read or what they do: H2's
     * {@code SET MODE}, its NULL ordering and case-insensitivity for new tables; HSQLDB's {@code SET DATABASE SQL ...}
     * (syntax compatibility and rules), {@code COLLATION} and {@code DEFAULT}s. A slave that lacked one failed at the
     * next DDL written for it (the slaves run with referential integrity off, for good: that setting is not one).
     */
    private static final Pattern DATABASE_SETTING = Pattern.compile(
            "^\\W*SET\\s+(MODE|DEFAULT_NULL_ORDERING|IGNORECASE|DATABASE\\s+(SQL|COLLATION|DEFAULT))\\b",
            Pattern.CASE_INSENSITIVE);
    /** HSQLDB's switch turns triggers off with the foreign keys: MacroDB's capture with them. */
    private static final Pattern HSQLDB_INTEGRITY_OFF = Pattern.compile(
            "^\\W*SET\\s+DATABASE\\s+REFERENTIAL\\s+INTEGRITY\\s+FALSE\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern REFERENTIAL_INTEGRITY = Pattern.compile(
            "^\\W*SET\\s+(REFERENTIAL_INTEGRITY|DATABASE\\s+REFERENTIAL\\s+INTEGRITY)\\b", Pattern.CASE_INSENSITIVE);
    /** Routines and triggers whose body is a compound statement ({@code BEGIN ATOMIC ...; ...; END}). */
    private static final Pattern COMPOUND_BODY = Pattern.compile(
            "^\\W*CREATE\\s+(OR\\s+REPLACE\\s+)?(TRIGGER|PROCEDURE|FUNCTION)\\b", Pattern.CASE_INSENSITIVE);
    /** A computed column's expression, {@code GENERATED ALWAYS AS (expr)} or H2's {@code AS (expr)}, begins after. */
    private static final Pattern COMPUTED_AS = Pattern.compile("\\bAS\\s*\\(", Pattern.CASE_INSENSITIVE);
    private static final Pattern QUERY_START =
            Pattern.compile("^\\s*\\(*\\s*(SELECT|WITH|VALUES|TABLE)\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern ALTER_TABLE = Pattern.compile("^\\W*ALTER\\s+TABLE\\b", Pattern.CASE_INSENSITIVE);

    private static final Pattern CREATE_TABLE = Pattern.compile(
            "^\\W*CREATE\\s+((CACHED|MEMORY|LOCAL|GLOBAL|TEMPORARY|TEMP|TEXT)\\s+)*TABLE\\b", Pattern.CASE_INSENSITIVE);

    /**
     * H2's data-change delta tables, {@code SELECT ... FROM FINAL TABLE (INSERT ...)} (also NEW and OLD, around any
     * INSERT, UPDATE, DELETE or MERGE): a query that writes.
     */
    private static final Pattern DATA_CHANGE_DELTA =
            Pattern.compile("\\b(FINAL|NEW|OLD)\\s+TABLE\\s*\\(", Pattern.CASE_INSENSITIVE);

    boolean writes() {
        return type == Type.WRITE || type == Type.SCHEMA_CHANGE || type == Type.IN_STEPS || type == Type.MASTER_SETTING
                || usesSequence;
    }

    static StatementKind of(String sql) throws SQLException {
        String word = SqlText.firstWord(sql);
        if (SqlText.hasSecondStatement(sql) && !COMPOUND_BODY.matcher(sql).find()) {
            // Classified by its first statement, the text would run as that one kind: a write followed by DDL kept
            // the DDL from the slaves, and DDL followed by a write replayed the write's text on them.
            throw new SQLException("MacroDB runs one SQL statement per call, and this text holds several. Run each "
                    + "with its own execute call (or add each to a batch with addBatch).",
                    MacroSqlState.NOT_REPLICABLE);
        }
        boolean sequence = SequenceDraws.in(sql);
        Type type = switch (word) {
            case "SELECT", "VALUES", "TABLE", "WITH", "SHOW", "EXPLAIN", "HELP", "CALL", "SCRIPT", "CHECKPOINT",
                 "ANALYZE", "BACKUP" -> Type.QUERY;
            case "INSERT", "UPDATE", "DELETE", "MERGE", "UPSERT", "REPLACE" -> Type.WRITE;
            case "CREATE", "ALTER", "DROP", "TRUNCATE", "COMMENT", "GRANT", "REVOKE", "RENAME" -> Type.SCHEMA_CHANGE;
            case "SET" -> DATABASE_SETTING.matcher(sql).find() ? Type.SCHEMA_CHANGE
                    : REFERENTIAL_INTEGRITY.matcher(sql).find() ? Type.MASTER_SETTING : Type.SESSION;
            case "COMMIT" -> Type.COMMIT;
            case "ROLLBACK" -> sql.toUpperCase(Locale.ROOT).contains(" TO ") ? refuseControl(sql) : Type.ROLLBACK;
            case "SHUTDOWN" -> Type.SHUTDOWN;
            case "START", "BEGIN", "SAVEPOINT", "RELEASE" -> refuseControl(sql);
            case "RUNSCRIPT" -> Type.SCRIPT;
            default -> Type.WRITE; // unknown: assume the worst, so it runs at the master and never on a slave
        };
        if (type == Type.SCHEMA_CHANGE) {
            refuseNondeterministicComputedColumn(sql);
        }
        if (type == Type.MASTER_SETTING && HSQLDB_INTEGRITY_OFF.matcher(sql).find()) {
            throw new SQLException("MacroDB cannot run HSQLDB's SET DATABASE REFERENTIAL INTEGRITY FALSE: on HSQLDB it "
                    + "stops triggers too, and with them MacroDB's capture, so the writes that followed would reach no "
                    + "slave. Delete or load the rows in an order the foreign keys accept, or drop and re-create the "
                    + "constraints around the work.", MacroSqlState.NOT_REPLICABLE);
        }
        if (type == Type.SCHEMA_CHANGE && computesRowValues(sql) && NONDETERMINISTIC.matcher(sql).find()) {
            return new StatementKind(Type.IN_STEPS, false); // its later steps, classified themselves, may draw
        }
        if (type == Type.QUERY && DATA_CHANGE_DELTA.matcher(sql).find()) {
            // A write, though it begins with SELECT: as a query, it ran on a slave in a read-only transaction, or on the
            // master with nothing captured, where the capture trigger's refusal left its row behind (a failed query
            // is not undone by H2, unlike a failed INSERT); its identity and sequence draws were not shipped. It runs
            // under a savepoint of its own so that, failing, it leaves nothing, as the rows captured say.
            return new StatementKind(Type.WRITE, sequence, true, true);
        }
        boolean inserts = switch (word) {
            case "INSERT", "MERGE", "UPSERT", "REPLACE" -> true;
            default -> false;
        };
        return new StatementKind(type, sequence, inserts);
    }

    /**
     * Every replica computes a computed column ({@code GENERATED ALWAYS AS (expr)}) itself, from the row's other
     * values, and none accepts a value for it: an expression that differs per evaluation ({@code RAND()}, the clock)
     * would give each replica values of its own. Such a column is refused where it is defined.
     */
    private static void refuseNondeterministicComputedColumn(String sql) throws SQLException {
        if (!CREATE_TABLE.matcher(sql).find() && !ALTER_TABLE.matcher(sql).find()) {
            return;
        }
        Matcher as = COMPUTED_AS.matcher(sql);
        while (as.find()) {
            int open = as.end() - 1;
            String expression = sql.substring(open + 1, Math.max(open + 1, SqlText.closingParenthesis(sql, open)));
            if (!QUERY_START.matcher(expression).find() && NONDETERMINISTIC.matcher(expression).find()) {
                throw new SQLException("MacroDB cannot replicate a column computed as (" + expression.strip()
                        + "): every replica computes it itself and would get a value of its own. Use a column "
                        + "default instead (MacroDB copies the value the master drew), or compute the value in the "
                        + "application.", MacroSqlState.NOT_REPLICABLE);
            }
        }
    }

    /** A view's query computes nothing when it is created: only a table created from a query, or added to, does. */
    private static boolean computesRowValues(String sql) {
        return CREATE_TABLE.matcher(sql).find() && AS_QUERY.matcher(sql).find() || ADD_TO_TABLE.matcher(sql).find();
    }

    /**
     * As {@link #of}, for a statement prepared once and run as written: it cannot run DDL in steps (its parameters
     * would have to be split between them), so that is refused when it is prepared.
     */
    static StatementKind ofPrepared(String sql) throws SQLException {
        StatementKind kind = of(sql);
        if (kind.type() == Type.IN_STEPS) {
            throw new SQLException("MacroDB runs DDL that computes values differing per evaluation (" + sql + ") "
                    + "through a plain Statement only: it runs it in steps (the table or column first, then its "
                    + "values, which every slave receives as the master computed them). Run it with "
                    + "Statement.execute.", MacroSqlState.NOT_REPLICABLE);
        }
        return kind;
    }

    private static Type refuseControl(String sql) throws SQLException {
        throw new SQLFeatureNotSupportedException("MacroDB manages transactions through JDBC: use setAutoCommit, "
                + "commit, rollback and setSavepoint instead of '" + sql.trim() + "'.",
                MacroSqlState.FEATURE_NOT_SUPPORTED);
    }
}
