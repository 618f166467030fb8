package io.macrodb.jdbc;

import io.macrodb.api.MacroSqlState;
import io.macrodb.runtime.capture.SequenceDraws;
import io.macrodb.runtime.sql.SqlText;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.function.Predicate;
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
 * @param engineMayCommit whether the engine may commit the open transaction before it runs the statement (a setting
 *                        of the database, {@code ANALYZE}, {@code SCRIPT}, {@code CHECKPOINT}): the engine decides
 *                        ({@link io.macrodb.runtime.engine.Engine#commitsOpenTransaction})
 * @param locksRows       whether it is a locking read ({@code SELECT ... FOR UPDATE}): its locks are meant to keep
 *                        writers out, and writers run on the master
 */
record StatementKind(Type type, boolean usesSequence, boolean mayDrawIdentity, boolean undoneOnlyBySavepoint,
                     boolean engineMayCommit, boolean locksRows) {

    StatementKind(Type type, boolean usesSequence) {
        this(type, usesSequence, false, false, false, false);
    }

    StatementKind(Type type, boolean usesSequence, boolean mayDrawIdentity) {
        this(type, usesSequence, mayDrawIdentity, false, false, false);
    }

    StatementKind(Type type, boolean usesSequence, boolean mayDrawIdentity, boolean undoneOnlyBySavepoint) {
        this(type, usesSequence, mayDrawIdentity, undoneOnlyBySavepoint, false, false);
    }

    /**
     * Whether the statement may run as an element of an engine batch: a row statement or a query the engine runs
     * without committing first. Any other takes its own path at each execution ({@link MacroStatement#oneByOne}).
     */
    boolean runsInEngineBatch() {
        return (type == Type.WRITE || type == Type.QUERY) && !engineMayCommit;
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

    /**
     * Values that differ per call, per replica or per session: replaying DDL that evaluates them would diverge. The
     * clock and random values (compatibility modes' names too: {@code GETDATE()}, {@code SYS_GUID()}, DB2's
     * {@code CURRENT TIMESTAMP}); the database's own name, path, memory and object ids (each replica is a database of
     * its own); the session's id, transaction, last drawn sequence or identity value, schema, user, settings and time
     * zone (each replica runs DDL on a session of its own, and a slave applies some rows with SQL on its applier's
     * session, which computes a computed column again: found by a review, 2026-11-28, for {@code CURRENT_CATALOG},
     * {@code CURRENT_SCHEMA} and {@code LOCK_TIMEOUT()}). {@code BuiltinFunctionsTest} holds every built-in function of
     * both engines to this list: one an engine version adds fails it until someone has decided which it is.
     */
    private static final Pattern NONDETERMINISTIC = Pattern.compile(
            "\\b(NOW|CURRENT_TIMESTAMP|LOCALTIMESTAMP|CURRENT_TIME|LOCALTIME|CURRENT_DATE|SYSDATE|SYSTIMESTAMP"
                    + "|CURRENT\\s+(TIMESTAMP|TIME|DATE)"
                    + "|NEXT\\s+VALUE|CURRENT\\s+VALUE|NEXTVAL|CURRVAL|CURRENT_CATALOG|CURRENT_SCHEMA|CURRENT_PATH"
                    + "|CURRENT_USER|CURRENT_ROLE|SESSION_USER|SYSTEM_USER)\\b"
                    // The last identity drawn (not MSSQL's IDENTITY(1, 1) column), the order rows are read in.
                    + "|\\bIDENTITY\\s*\\(\\s*\\)|\\bROW_NUMBER\\s*\\(\\s*\\)\\s*OVER\\s*\\(\\s*\\)"
                    // HSQLDB's Oracle and DB2 syntax: ROWNUM bare, after DEFAULT or in an expression (not a column
                    // named so, as in ADD rownum INT)
                    + "|\\bDEFAULT\\s+ROWNUM\\b|(?<=[(,+\\-*/|=<>]\\s{0,20})ROWNUM\\b"
                    // Words an application's column, type or table may be named (UUID, TIMEZONE): functions only
                    // when called (a table's name before '(' is taken out first, see OBJECT_NAME).
                    + "|(?<!\\.)\\b(RAND|RANDOM|RANDOM_UUID|UUID|NEWID|NEWSEQUENTIALID|SYS_GUID|GEN_RANDOM_UUID|GETDATE"
                    + "|CURDATE|CURTIME|TODAY|SECURE_RAND|UNIX_MILLIS|UNIX_TIMESTAMP"
                    + "|DATABASE|DATABASE_NAME|DATABASE_PATH|SESSION_ID|TRANSACTION_ID|TRANSACTION_SIZE|LASTVAL"
                    + "|SCOPE_IDENTITY|LAST_INSERT_ID|IDENTITY_VAL_LOCAL|ROWNUM|CURRENT_DATABASE"
                    + "|PG_POSTMASTER_START_TIME|CANCEL_SESSION|ABORT_SESSION|CRYPT_KEY|TRANSACTION_UTC"
                    + "|MEMORY_FREE|MEMORY_USED|DISK_SPACE_USED|DB_OBJECT_ID|SCHEMA|USER"
                    // Storage sizes (a file master's are not its in-memory slaves'), object ids, a spatial index's
                    // pages, LOB numbers, the session's last row count (found by BuiltinFunctionsTest, 2026-11-29).
                    + "|DB_OBJECT_SIZE|DB_OBJECT_TOTAL_SIZE|DB_OBJECT_APPROXIMATE_SIZE|DB_OBJECT_APPROXIMATE_TOTAL_SIZE"
                    + "|PG_RELATION_SIZE|PG_TOTAL_RELATION_SIZE|PG_GET_INDEXDEF|PG_GET_USERBYID|ESTIMATED_ENVELOPE"
                    + "|LOB_ID|DIAGNOSTICS"
                    // A file each replica reads when it evaluates; an object's SQL (a file master's tables are CACHED,
                    // its in-memory slaves' MEMORY): found by a review, 2026-11-29.
                    + "|FILE_READ|LOAD_FILE|CSVREAD|DB_OBJECT_SQL"
                    + "|LOCK_TIMEOUT|LOCK_MODE|AUTOCOMMIT|READONLY|ISOLATION_LEVEL|SESSION_ISOLATION_LEVEL"
                    + "|DATABASE_ISOLATION_LEVEL|TRANSACTION_CONTROL|ACTION_ID|SESSION_TIMEZONE|DATABASE_TIMEZONE"
                    + "|TIMEZONE|IS_AUTOCOMMIT|IS_READONLY_SESSION|IS_READONLY_DATABASE|IS_READONLY_DATABASE_FILES"
                    + "|DBTIMEZONE|SESSIONTIMEZONE|CURRENT_TIMEZONE)\\s*\\(",
            Pattern.CASE_INSENSITIVE);

    /**
     * A name after {@code REFERENCES}, {@code TABLE}, {@code INDEX}, {@code KEY} or {@code CONSTRAINT}: a table's,
     * an index's or a constraint's, which may be followed by {@code (} as a call is ({@code REFERENCES timezone (id)},
     * MySQL's {@code ADD INDEX schema (c)}: taken for calls, they were refused, found by a review, 2026-11-29).
     */
    private static final Pattern OBJECT_NAME = Pattern.compile("\\b(REFERENCES|TABLE|INDEX|KEY|CONSTRAINT)\\s+"
            + "(?:\"[^\"]*\"|`[^`]*`|[\\w$]+)(?:\\s*\\.\\s*(?:\"[^\"]*\"|`[^`]*`|[\\w$]+))*", Pattern.CASE_INSENSITIVE);

    /**
     * Whether {@code sql} evaluates a {@link #NONDETERMINISTIC} value (outside strings and quoted names), or calls one
     * of the application's routines that {@code context} says are not declared deterministic: each replica
     * would call it again (found by a review, 2026-11-28: a counter function gave every replica its own values).
     */
    private static boolean nondeterministic(String sql, Context context) {
        String calls = OBJECT_NAME.matcher(sql).replaceAll("$1 ");
        return NONDETERMINISTIC.matcher(SqlText.withoutQuotedText(builtInCallsUnquoted(calls))).find()
                || context.volatileRoutines().test(calls);
    }

    /**
     * Whether {@code sql} calls one of the engine's functions that change the schema ({@link Context}), quoted or not:
     * looked for in the text as written first, which is cheap, and only then past strings and quoted names.
     */
    private static boolean callsSchemaChangingFunction(String sql, Context context) {
        Pattern names = context.schemaChangingFunctions();
        if (names == null || !names.matcher(sql).find()) {
            return false;
        }
        String code = SqlText.withoutQuotedText(builtInCallsUnquoted(sql));
        Matcher name = names.matcher(code);
        while (name.find()) {
            if (CALL_OPENS.matcher(code).region(name.end(), code.length()).lookingAt()) {
                return true;
            }
        }
        return false;
    }

    /**
     * A query inside an expression ({@code (SELECT LISTAGG(x) FROM w)}): each replica reads its own rows, which a slave
     * stores in commit order and the master in the order they were written, so an aggregate over their order
     * ({@code LISTAGG}, {@code ANY_VALUE}, a {@code DOUBLE} sum) or a first row without {@code ORDER BY} differs (found
     * by a review, 2026-11-29).
     */
    private static final Pattern QUERY = Pattern.compile("\\bSELECT\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern DEFAULT = Pattern.compile("\\bDEFAULT\\b", Pattern.CASE_INSENSITIVE);

    /** Whether {@code expression} holds a {@link #QUERY} (past strings and quoted names). */
    private static boolean readsRows(String expression) {
        return QUERY.matcher(SqlText.withoutQuotedText(expression)).find();
    }

    /** Whether the default {@code sql}, an {@code ALTER TABLE ... ADD}, gives a column holds a {@link #QUERY}. */
    private static boolean defaultReadsRows(String sql) {
        String code = SqlText.withoutQuotedText(sql);
        Matcher defaultValue = DEFAULT.matcher(code);
        return defaultValue.find() && QUERY.matcher(code).find(defaultValue.end());
    }

    /** How many parentheses are open at {@code position} of {@code sql} (past strings and quoted names). */
    private static int depthAt(String sql, int position) {
        String code = SqlText.withoutQuotedText(sql);
        int depth = 0;
        for (int i = 0; i < position; i++) {
            depth += code.charAt(i) == '(' ? 1 : code.charAt(i) == ')' ? -1 : 0;
        }
        return depth;
    }

    /** A quoted name before {@code (}: H2 calls its built-in function of that name ({@code "RAND"()}). */
    private static final Pattern QUOTED_CALL = Pattern.compile("\"([^\"]*)\"(?=\\s*\\()|`([^`]*)`(?=\\s*\\()"
            + "|\\[([^\\]]*)](?=\\s*\\()");

    /**
     * {@code sql} (its strings blanked) with the quotes of called names taken off, so that {@link #NONDETERMINISTIC}
     * sees {@code "RAND"()}, {@code U&"RAND"()}, MySQL's {@code `RAND`()} and SQL Server's {@code [RAND]()} (found by
     * a sweep of every built-in function, 2026-11-29: quoted, each diverged the replicas).
     */
    private static String builtInCallsUnquoted(String sql) {
        return QUOTED_CALL.matcher(SqlText.withoutStrings(SqlText.withUnicodeNamesDecoded(sql))).replaceAll(call ->
                Matcher.quoteReplacement(call.group(1) != null ? call.group(1)
                        : call.group(2) != null ? call.group(2) : call.group(3)));
    }

    /** DDL that computes row values as it runs: CREATE TABLE ... AS SELECT (with CREATE_TABLE), ALTER TABLE ... ADD. */
    private static final Pattern AS_QUERY = Pattern.compile("\\bAS\\s*\\(?\\s*SELECT\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern ADD_TO_TABLE =
            Pattern.compile("^\\W*ALTER\\s+TABLE\\b.*\\bADD\\b", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    /**
     * Settings of the database, not of the session, that change how later statements are read or what they do: H2's
     * {@code SET MODE}, its NULL ordering, case-insensitivity and collations (how strings compare); HSQLDB's
     * {@code SET DATABASE SQL ...}
     * (syntax compatibility and rules), {@code COLLATION} and {@code DEFAULT}s. A slave that lacked one failed at the
     * next DDL written for it (the slaves run with referential integrity off, for good: that setting is not one).
     */
    private static final Pattern DATABASE_SETTING = Pattern.compile(
            "^\\W*SET\\s+(MODE|DEFAULT_NULL_ORDERING|IGNORECASE|COLLATION|DATABASE\\s+(SQL|COLLATION|DEFAULT))\\b",
            Pattern.CASE_INSENSITIVE);
    /** Auto-commit switched by SQL: the engine would commit on its own, out of MacroDB's commit order. */
    private static final Pattern AUTOCOMMIT = Pattern.compile("^\\W*SET\\s+AUTOCOMMIT\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern REFERENTIAL_INTEGRITY = Pattern.compile(
            "^\\W*SET\\s+(REFERENTIAL_INTEGRITY|DATABASE\\s+REFERENTIAL\\s+INTEGRITY)\\b", Pattern.CASE_INSENSITIVE);
    /** Routines and triggers whose body is a compound statement ({@code BEGIN ATOMIC ...; ...; END}). */
    private static final Pattern COMPOUND_BODY = Pattern.compile(
            "^\\W*CREATE\\s+(OR\\s+REPLACE\\s+)?(TRIGGER|PROCEDURE|FUNCTION)\\b", Pattern.CASE_INSENSITIVE);
    /** HSQLDB's TEXT table, whose rows live in a file of the master's ({@code CREATE TEXT TABLE}). */
    private static final Pattern TEXT_TABLE = Pattern.compile(
            "^\\W*CREATE\\s+((CACHED|MEMORY|LOCAL|GLOBAL|TEMPORARY|TEMP)\\s+)*TEXT\\s+TABLE\\b",
            Pattern.CASE_INSENSITIVE);
    /**
     * HSQLDB's system-versioned tables ({@code WITH SYSTEM VERSIONING}, {@code ADD SYSTEM VERSIONING}) and their
     * period columns ({@code GENERATED ALWAYS AS ROW START}), which no INSERT can be given a value for.
     */
    private static final Pattern SYSTEM_VERSIONING = Pattern.compile(
            "\\bSYSTEM\\s+VERSIONING\\b|\\bAS\\s+ROW\\s+(START|END)\\b", Pattern.CASE_INSENSITIVE);
    /** What follows a function's name where it is called. */
    private static final Pattern CALL_OPENS = Pattern.compile("\\s*\\(");
    /** HSQLDB's {@code ALTER SESSION <id> CLOSE | RELEASE | END STATEMENT}: acts on another session. */
    private static final Pattern OTHER_SESSION = Pattern.compile("^\\W*ALTER\\s+SESSION\\s+(?!RESET\\b)\\w",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern RESTART_IDENTITY = Pattern.compile("\\bRESTART\\s+IDENTITY\\b",
            Pattern.CASE_INSENSITIVE);
    /** A computed column's expression, {@code GENERATED ALWAYS AS (expr)} or H2's {@code AS (expr)}, begins after. */
    private static final Pattern COMPUTED_AS = Pattern.compile("\\bAS\\s*\\(", Pattern.CASE_INSENSITIVE);
    private static final Pattern QUERY_START =
            Pattern.compile("^\\s*\\(*\\s*(SELECT|WITH|VALUES|TABLE)\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern ALTER_TABLE = Pattern.compile("^\\W*ALTER\\s+TABLE\\b", Pattern.CASE_INSENSITIVE);

    private static final Pattern CREATE_VIEW = Pattern.compile(
            "^\\W*CREATE\\s+(?:OR\\s+REPLACE\\s+)?(?:FORCE\\s+)?(MATERIALIZED\\s+)?VIEW\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern TEMPORARY = Pattern.compile("\\b(LOCAL|GLOBAL|TEMPORARY|TEMP)\\b",
            Pattern.CASE_INSENSITIVE);
    /**
     * A whole-transaction ROLLBACK ({@code WORK} and {@code AND [NO] CHAIN} allowed); anything more, such as
     * {@code ROLLBACK TO SAVEPOINT}, is refused: MacroDB must know where the captured rows are cut.
     */
    private static final Pattern WHOLE_ROLLBACK = Pattern.compile(
            "^\\W*ROLLBACK(\\s+WORK)?(\\s+AND\\s+(NO\\s+)?CHAIN)?[\\s;]*$", Pattern.CASE_INSENSITIVE);
    /** H2's {@code EXPLAIN ANALYZE}, which runs the statement it explains. */
    private static final Pattern EXPLAIN_ANALYZE =
            Pattern.compile("^\\W*EXPLAIN\\s+ANALYZE\\s+", Pattern.CASE_INSENSITIVE);


    private static final Pattern EXECUTE_IMMEDIATE = Pattern.compile("^\\W*EXECUTE\\s+IMMEDIATE\\b",
            Pattern.CASE_INSENSITIVE);
    /**
     * {@code EXECUTE IMMEDIATE 'text'} or H2's {@code $$text$$}, and nothing else: the text is group 1 (its quotes
     * still doubled) or group 2.
     */
    private static final Pattern EXECUTE_IMMEDIATE_LITERAL = Pattern.compile(
            "^\\W*EXECUTE\\s+IMMEDIATE\\s+(?:'((?:[^']|'')*)'|\\$\\$(.*?)\\$\\$)[\\s;]*$",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    /**
     * What reading a statement needs to know of the cluster it runs on.
     *
     * @param volatileRoutines whether a text calls one of the application's routines that is not declared
     *                         deterministic (the cluster's catalog knows them)
     * @param setsVariables    whether a {@code DECLARE} or {@code SET} declares or assigns the engine's session
     *                         variables ({@link io.macrodb.runtime.engine.Engine#setsSessionVariables}), so a
     *                         {@code SET} is no setting: HSQLDB's
     *                         {@code SET v = ...} (no setting of its takes {@code =}), though {@code v} be named
     *                         {@code mode}, which H2's {@code SET MODE = ...} sets
     * @param schemaChangingFunctions the engine's functions that change the schema when called
     *                         ({@link io.macrodb.runtime.engine.Engine#schemaChangingFunctions}); null for none
     */
    record Context(Predicate<String> volatileRoutines, Predicate<String> setsVariables,
                   Pattern schemaChangingFunctions) {

        /**
         * A database with no routine of the application's, on an engine without HSQLDB's session variables or
         * functions that change the schema.
         */
        static final Context NONE = new Context(sql -> false, sql -> false, null);
    }

    private static final Pattern CREATE_TABLE = Pattern.compile(
            "^\\W*CREATE\\s+((CACHED|MEMORY|LOCAL|GLOBAL|TEMPORARY|TEMP|TEXT)\\s+)*TABLE\\b", Pattern.CASE_INSENSITIVE);

    /** A locking read, {@code SELECT ... FOR UPDATE} (also {@code NOWAIT}, {@code SKIP LOCKED}, {@code OF ...}). */
    private static final Pattern FOR_UPDATE = Pattern.compile("\\bFOR\\s+UPDATE\\b", Pattern.CASE_INSENSITIVE);
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

    /** As {@link #of(String, Context)} with {@link Context#NONE}. */
    static StatementKind of(String sql) throws SQLException {
        return of(sql, Context.NONE);
    }

    /** What {@code sql} does, on the cluster {@code context} describes. */
    static StatementKind of(String sql, Context context) throws SQLException {
        if (SqlText.hasNestedComment(sql)) {
            throw new SQLException("MacroDB cannot tell which statement this is: a block comment holds another '/*', "
                    + "which H2 reads as a nested comment and HSQLDB does not (" + sql.strip() + "). Remove the inner "
                    + "'/*'.", MacroSqlState.NOT_REPLICABLE);
        }
        String word = SqlText.firstWord(sql);
        // Every pattern below reads the text past its comments: a leading one with words in it (a migration tool's
        // header, a pool's tag) hid an ALTER TABLE ... ADD computing its values, which every slave then computed for
        // itself, and SET AUTOCOMMIT, which the engine then ran behind MacroDB's back; one inside (FINAL/**/TABLE)
        // made a write look like a query.
        String text = SqlText.withoutComments(sql);
        if (SqlText.hasSecondStatement(sql) && !COMPOUND_BODY.matcher(text).find()) {
            // Classified by its first statement, the text would run as that one kind: a write followed by DDL kept
            // the DDL from the slaves, and DDL followed by a write replayed the write's text on them.
            throw new SQLException("MacroDB runs one SQL statement per call, and this text holds several. Run each "
                    + "with its own execute call (or add each to a batch with addBatch).",
                    MacroSqlState.NOT_REPLICABLE);
        }
        boolean sequence = SequenceDraws.in(text);
        Matcher analyze = word.equals("EXPLAIN") ? EXPLAIN_ANALYZE.matcher(text) : null;
        if (analyze != null && analyze.lookingAt()) {
            // H2 runs the statement it explains: a write, though as a query it got no savepoint of its own and ran
            // in read-only transactions (on a slave, where the capture trigger's refusal left its row behind).
            StatementKind explained = of(text.substring(analyze.end()), context);
            return explained.type() == Type.WRITE
                    ? new StatementKind(Type.WRITE, explained.usesSequence(), explained.mayDrawIdentity(), true)
                    : explained;
        }
        if (word.equals("EXECUTE") && EXECUTE_IMMEDIATE.matcher(text).lookingAt()) {
            return executedImmediately(text, context);
        }
        Type type = switch (word) {
            case "SELECT", "VALUES", "TABLE", "WITH", "SHOW", "EXPLAIN", "HELP", "CALL", "SCRIPT", "CHECKPOINT",
                 "ANALYZE", "BACKUP" -> Type.QUERY;
            case "REFRESH" -> Type.SCHEMA_CHANGE; // H2's materialized view: refused at creation, H2 names the error
            case "INSERT", "UPDATE", "DELETE", "MERGE", "UPSERT", "REPLACE" -> Type.WRITE;
            case "USE" -> Type.SESSION; // H2's USE s: SET SCHEMA s
            // HSQLDB's session variables (DECLARE v INT;), not its temporary tables (DECLARE LOCAL TEMPORARY TABLE)
            case "DECLARE" -> context.setsVariables().test(text) ? Type.SESSION : Type.WRITE;
            case "CREATE", "ALTER", "DROP", "TRUNCATE", "COMMENT", "GRANT", "REVOKE", "RENAME" -> Type.SCHEMA_CHANGE;
            case "SET" -> context.setsVariables().test(text) ? Type.SESSION
                    : AUTOCOMMIT.matcher(text).find() ? refuseControl(sql)
                    : DATABASE_SETTING.matcher(text).find() ? Type.SCHEMA_CHANGE
                    : REFERENTIAL_INTEGRITY.matcher(text).find() ? Type.MASTER_SETTING : Type.SESSION;
            case "COMMIT" -> Type.COMMIT;
            case "ROLLBACK" -> WHOLE_ROLLBACK.matcher(text).matches() ? Type.ROLLBACK : refuseControl(sql);
            case "SHUTDOWN" -> Type.SHUTDOWN;
            case "START", "BEGIN", "SAVEPOINT", "RELEASE" -> refuseControl(sql);
            case "RUNSCRIPT" -> Type.SCRIPT;
            default -> Type.WRITE; // unknown: assume the worst, so it runs at the master and never on a slave
        };
        if (!word.equals("EXPLAIN") && callsSchemaChangingFunction(text, context)) { // plain EXPLAIN runs nothing
            // H2's LINK_SCHEMA links every table of another database's schema. Run as a query, it linked on the
            // master alone (on one slave in a read-only transaction); in a write, a view or a table's query it would
            // link wherever that runs (found by reviews, 2026-11-29).
            if (type != Type.QUERY) {
                throw new SQLException("MacroDB cannot replicate this statement (" + sql.strip() + "): the function "
                        + "it calls creates tables, which every replica must create, and here it would run on one "
                        + "replica alone. Call it in a query of its own (SELECT * FROM LINK_SCHEMA(...)), which "
                        + "MacroDB runs on every replica as DDL.", MacroSqlState.NOT_REPLICABLE);
            }
            type = Type.SCHEMA_CHANGE;
        }
        if (type == Type.SCHEMA_CHANGE) {
            refuseWhatSlavesCannotFollow(text);
            refuseNondeterministicComputedColumn(text, context);
            refuseDrawingView(text, sequence);
            if (SqlText.hasSessionVariable(sql)) {
                throw new SQLException("MacroDB cannot replicate DDL that reads a session variable (" + sql.strip()
                        + "): every slave runs DDL on a session of its own, where the variable is not set. Write its "
                        + "value into the statement, or create the table first and fill it with INSERT ... SELECT.",
                        MacroSqlState.NOT_REPLICABLE);
            }
        }
        if (type == Type.SESSION && sequence) {
            throw new SQLException("MacroDB cannot draw from a sequence in a SET statement (" + sql.strip() + "): it "
                    + "replays session settings on every engine the connection uses, each of which would draw again. "
                    + "Draw the value with a query (SELECT NEXT VALUE FOR ...) and set the variable from its result.",
                    MacroSqlState.NOT_REPLICABLE);
        }
        if (type == Type.SCHEMA_CHANGE && (createsTableFromQuery(text) || ADD_TO_TABLE.matcher(text).find()
                && (nondeterministic(text, context) || defaultReadsRows(text)))) {
            return new StatementKind(Type.IN_STEPS, false); // its later steps, classified themselves, may draw
        }
        if (type == Type.QUERY && DATA_CHANGE_DELTA.matcher(text).find()) {
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
        boolean engineMayCommit = switch (word) {
            case "SET", "ANALYZE", "SCRIPT", "CHECKPOINT" -> true;
            default -> false;
        };
        boolean locksRows = type == Type.QUERY && FOR_UPDATE.matcher(text).find() // then past strings and names
                && FOR_UPDATE.matcher(SqlText.withoutQuotedText(text)).find();
        return new StatementKind(type, sequence, inserts, false, engineMayCommit, locksRows);
    }

    /**
     * HSQLDB's constructs whose effect an in-memory slave cannot have (found by a review, 2026-11-28; each failed every
     * slave, or left the slaves' counters behind the master's): a TEXT table (its rows are a file the master reads); a
     * system-versioned table (a slave cannot be given the row periods the master stamped); {@code ALTER SESSION} on
     * another session (replayed, it names no session of a slave; on the master it rolls back a transaction whose rows
     * MacroDB has captured); a routine or trigger that runs {@code TRUNCATE ... RESTART IDENTITY} (the slaves get the
     * rows it deletes, not the counter it restarts). Read past strings: a routine may hold those words in one.
     */
    private static void refuseWhatSlavesCannotFollow(String sql) throws SQLException {
        String code = SqlText.withoutQuotedText(sql);
        String why = TEXT_TABLE.matcher(code).find()
                ? "a TEXT table's rows live in a file of the master's, which a slave cannot read. Use a CACHED or "
                + "MEMORY table and load the file's rows into it"
                : (CREATE_TABLE.matcher(code).find() || ALTER_TABLE.matcher(code).find())
                        && SYSTEM_VERSIONING.matcher(code).find()
                ? "a system-versioned table's row periods are stamped by each engine as it writes, and a slave cannot "
                + "be given the master's. Keep the history in a table of its own, written by the application"
                : OTHER_SESSION.matcher(code).find()
                ? "it acts on another session of the master alone, behind the MacroDB connection that owns it. Roll "
                + "back or close that connection itself"
                : COMPOUND_BODY.matcher(code).find() && RESTART_IDENTITY.matcher(code).find()
                ? "the slaves would receive the rows its TRUNCATE deletes but not the identity counter it restarts. "
                + "Run TRUNCATE ... RESTART IDENTITY as a statement of its own, which every replica runs"
                : null;
        if (why != null) {
            throw new SQLException("MacroDB cannot replicate this statement (" + sql.strip() + "): " + why + ".",
                    MacroSqlState.NOT_REPLICABLE);
        }
    }

    /**
     * Every replica computes a computed column ({@code GENERATED ALWAYS AS (expr)}) itself, from the row's other
     * values, and none accepts a value for it: an expression that differs per evaluation ({@code RAND()}, the clock)
     * would give each replica values of its own. Such a column is refused where it is defined.
     */
    private static void refuseNondeterministicComputedColumn(String sql, Context context)
            throws SQLException {
        if (!CREATE_TABLE.matcher(sql).find() && !ALTER_TABLE.matcher(sql).find()) {
            return;
        }
        Matcher as = COMPUTED_AS.matcher(sql);
        while (as.find()) {
            int open = as.end() - 1;
            String expression = sql.substring(open + 1, Math.max(open + 1, SqlText.closingParenthesis(sql, open)));
            if (QUERY_START.matcher(expression).find() && CREATE_TABLE.matcher(sql).find() && depthAt(sql, open) == 0) {
                continue; // CREATE TABLE t AS (SELECT ...): the table's query, no column's, and run in steps
            }
            boolean query = readsRows(expression);
            if (query || nondeterministic(expression, context)) {
                throw new SQLException("MacroDB cannot replicate a column computed as (" + expression.strip()
                        + "): every replica computes it itself and would get a value of its own"
                        + (query ? " (its query reads the rows in the order the replica stores them)" : "")
                        + ". Use a column default instead (MacroDB copies the value the master drew), compute the "
                        + "value in the application, or, if it calls a function of yours that gives the same result "
                        + "for the same arguments, declare that function DETERMINISTIC.", MacroSqlState.NOT_REPLICABLE);
            }
        }
    }

    /**
     * A table created from a query runs in steps whatever the query computes: replayed as text, the query would be
     * run again by each slave, on its own session and its own rows, which gives other rows not only for functions
     * that differ per call ({@code RAND()}) but for the database's and session's own values, the application's
     * functions, and anything that depends on the order rows are stored in ({@code FETCH FIRST} with no {@code ORDER
     * BY}, {@code ROW_NUMBER() OVER ()}): a slave stores rows in commit order, the master in the order they were
     * written. Its rows, captured, reach every slave as the master computed them. (Its first step is still replayed
     * as text: one reading the writer's temporary table fails on the slaves, see README Limits.)
     */
    private static boolean createsTableFromQuery(String sql) {
        Matcher create = CREATE_TABLE.matcher(sql);
        if (!create.find() || !AS_QUERY.matcher(sql).find()) {
            return false;
        }
        // A temporary table's rows are the session's, on the master only, computed there alone: no step is needed.
        // (In steps, an H2 local temporary table came out empty: its metadata lists no such table, so the rows'
        // step never ran; found by a review, 2026-11-29.)
        return !TEMPORARY.matcher(create.group()).find();
    }

    /**
     * A view is evaluated wherever it is read: one that draws from a sequence would move the master's sequence unseen
     * when an update transaction reads it, and a slave's when a read-only one does. H2's materialized views are refused
     * (found by a review, 2026-11-28): H2 2.5 cannot run the script it writes of one ({@code CREATE FORCE MATERIALIZED
     * VIEW}: "not yet implemented"), so once a database had one no slave could be copied again, and every replica
     * computed its rows itself, which differ when the query depends on the order rows are stored in or calls a
     * function of the application's (replayed until then).
     */
    private static void refuseDrawingView(String sql, boolean drawsSequence) throws SQLException {
        Matcher view = CREATE_VIEW.matcher(sql);
        if (!view.find()) {
            return;
        }
        boolean materialized = view.group(1) != null;
        if (drawsSequence || materialized) {
            throw new SQLException("MacroDB cannot replicate this view (" + sql.strip() + "): "
                    + (materialized ? "every replica would compute a materialized view itself, and H2 cannot copy "
                    + "one to a new slave. Create a table and fill it with INSERT ... SELECT instead (to refresh it, "
                    + "DELETE its rows and INSERT ... SELECT again in one transaction)."
                    : "reading it draws from a sequence, which would move the counter of whichever replica serves "
                    + "the read. Draw sequence values in the statements that write rows."),
                    MacroSqlState.NOT_REPLICABLE);
        }
    }

    /**
     * H2's {@code EXECUTE IMMEDIATE 'text'} runs {@code text} as a statement. Taken for a write, DDL in it ran on the
     * master alone, and a table it created had no capture trigger, so its rows reached no slave (found by a review,
     * 2026-11-28); and the sequence or identity values a write in it drew did not reach the slaves, whose counters
     * then differed. A literal text that writes rows is that write, its draws and all (a query is left to H2, which
     * refuses one there); anything else, or a text computed as it runs, is refused: MacroDB must see DDL and settings
     * to replay them.
     */
    private static StatementKind executedImmediately(String sql, Context context)
            throws SQLException {
        Matcher immediate = EXECUTE_IMMEDIATE_LITERAL.matcher(sql);
        if (immediate.matches()) {
            String executed = immediate.group(1) != null ? immediate.group(1).replace("''", "'") : immediate.group(2);
            StatementKind inner = of(executed, context);
            if (inner.type() == Type.WRITE || inner.type() == Type.QUERY) {
                return inner; // H2 refuses a query there itself (42001), wherever it runs
            }
        }
        throw new SQLException("MacroDB cannot replicate EXECUTE IMMEDIATE of anything but a write given as a string "
                + "literal (" + sql.strip() + "): it must see a schema change or a setting to replay it on every "
                + "replica. Run the statement itself.", MacroSqlState.NOT_REPLICABLE);
    }

    /**
     * As {@link #of}, for a prepared statement. One with parameters is refused where they cannot reach every engine:
     * DDL and session settings are replayed as their text (a variable's assignment is replayed with its value, see
     * {@link SessionStatement}), and DDL run in steps would have to split them between the steps.
     */
    static StatementKind ofPrepared(String sql, Context context) throws SQLException {
        StatementKind kind = of(sql, context);
        if (!SqlText.hasParameterMarker(sql)) {
            return kind;
        }
        if (kind.type() == Type.SCHEMA_CHANGE || kind.type() == Type.IN_STEPS) {
            throw new SQLException("MacroDB replays DDL on every slave as its text, which carries no parameter values "
                    + "(" + sql + "): the slaves would fail where the master succeeded. Write the values into the "
                    + "statement.", MacroSqlState.NOT_REPLICABLE);
        }
        if (kind.type() == Type.SESSION && !SessionStatement.assignsVariable(sql)
                && !context.setsVariables().test(sql)) {
            throw new SQLException("MacroDB replays session settings on every engine the connection uses as their "
                    + "text, which carries no parameter values (" + sql + "). Write the values into the statement.",
                    MacroSqlState.NOT_REPLICABLE);
        }
        return kind;
    }

    private static Type refuseControl(String sql) throws SQLException {
        throw new SQLFeatureNotSupportedException("MacroDB manages transactions through JDBC: use setAutoCommit, "
                + "commit, rollback and setSavepoint instead of '" + sql.trim() + "'.",
                MacroSqlState.FEATURE_NOT_SUPPORTED);
    }
}
