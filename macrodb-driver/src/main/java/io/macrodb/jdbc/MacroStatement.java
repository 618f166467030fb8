package io.macrodb.jdbc;

import io.macrodb.api.MacroSqlState;
import io.macrodb.runtime.cluster.Replica;
import io.macrodb.runtime.sql.SqlText;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A statement whose engine statement is made on whichever engine connection the transaction runs on: a read-only
 * transaction may land on any slave, so one engine statement per replica is kept and reused. Settings
 * (max rows, fetch size, timeouts...) are recorded here and applied to each engine statement when it is made.
 *
 * <p>The statement tracks its open result set and closes it on re-execution or close, and its connection tracks it.
 */
public class MacroStatement implements Statement {

    final MacroConnection connection;
    final StatementShape shape;
    private final Statement[] physical;
    private final PhysicalSession[] physicalOwners;
    private Statement last;
    /** The replica {@link #last} runs on, so that its results can tell when that replica has failed. */
    private Replica lastReplica;
    private MacroResultSet result;
    private List<String> batch;
    private boolean closed;
    private boolean closeOnCompletion;
    /** The one row limit, set through either setMaxRows or setLargeMaxRows (JDBC: the same limit); 0 for none. */
    private long maxRows;
    private int fetchSize;
    private int fetchDirection = ResultSet.FETCH_FORWARD;
    private int queryTimeout;
    private int maxFieldSize;
    private boolean escapeProcessing = true;
    private boolean poolable;
    private String cursorName;

    MacroStatement(MacroConnection connection, StatementShape shape) {
        this.connection = connection;
        this.shape = shape;
        int replicas = connection.cluster().config().replicas();
        this.physical = new Statement[replicas];
        this.physicalOwners = new PhysicalSession[replicas];
        connection.track(this);
    }

    // ---- running on the transaction's engine ----

    /** Makes this statement's engine statement on a connection (a prepared statement overrides this). */
    Statement makePhysical(Connection engine) throws SQLException {
        return shape.create(engine);
    }

    /** This statement's engine statement on {@code session}'s connection, made on first use there. */
    final Statement physicalOn(PhysicalSession session) throws SQLException {
        Statement statement = engineStatementOn(session);
        last = statement;
        lastReplica = session.replica();
        return statement;
    }

    /**
     * The engine statement on {@code session}, made if need be, without making it the one whose results and counts
     * later calls read ({@link #physicalOn} does): metadata asked of the master's statement after a query ran on a
     * slave made {@code getUpdateCount} read the master's, which had run nothing (found by a review).
     */
    final Statement engineStatementOn(PhysicalSession session) throws SQLException {
        int index = session.replica().index();
        Statement statement = physical[index];
        if (statement == null || physicalOwners[index] != session) {
            statement = makePhysical(session.connection());
            applySettings(statement);
            physical[index] = statement;
            physicalOwners[index] = session;
        }
        return statement;
    }

    /**
     * Lets go of the engine statement made on {@code session}, whose replica has left the cluster: an engine
     * statement keeps its database reachable, and a shut-down slave's memory must be freed.
     */
    final void forget(PhysicalSession session) {
        int index = session.replica().index();
        if (physicalOwners[index] == session) {
            if (last == physical[index]) {
                last = null;
            }
            physical[index] = null;
            physicalOwners[index] = null;
        }
    }

    private void applySettings(Statement statement) throws SQLException {
        if (maxRows != 0) {
            statement.setLargeMaxRows(maxRows);
        }
        if (fetchSize != 0) {
            statement.setFetchSize(fetchSize);
        }
        if (fetchDirection != ResultSet.FETCH_FORWARD) {
            statement.setFetchDirection(fetchDirection);
        }
        if (queryTimeout != 0) {
            statement.setQueryTimeout(queryTimeout);
        }
        if (maxFieldSize != 0) {
            statement.setMaxFieldSize(maxFieldSize);
        }
        if (!escapeProcessing) {
            statement.setEscapeProcessing(false);
        }
        if (cursorName != null) {
            statement.setCursorName(cursorName);
        }
    }

    /** Applies a setting to every engine statement made so far; later ones get it from {@link #applySettings}. */
    private void forEachPhysical(PhysicalSetting setting) throws SQLException {
        for (Statement statement : physical) {
            if (statement != null) {
                setting.apply(statement);
            }
        }
    }

    @FunctionalInterface
    private interface PhysicalSetting {
        void apply(Statement statement) throws SQLException;
    }

    /** Closes the previous result, then runs {@code call} as one statement of the connection's transaction. */
    final <T> T run(StatementKind kind, String sql, Transaction.StatementCall<T> call) throws SQLException {
        startRun();
        return connection.execute(kind, sql, opensUpdatableResultInAutoCommit(kind)
                ? session -> withEngineAutoCommit(session, call) : call);
    }

    /**
     * A query for an updatable result, in auto-commit mode. MacroDB commits every transaction itself, so its engine
     * connections never are in auto-commit mode; and HSQLDB makes an updatable result of a connection that is not one
     * that closes at the next commit: the commit right after the query closed it (the engine alone, in auto-commit
     * mode, keeps it open while each row change commits). On a slave too (a read-only connection), where the result
     * could then not even be read (found by a review, 2026-11-23). Not where the database has routines or triggers of
     * the application's: the query might call a routine that writes, or fire an H2 {@code BEFORE SELECT} trigger that
     * does, and the engine would commit that by itself, outside MacroDB's commit order.
     */
    private boolean opensUpdatableResultInAutoCommit(StatementKind kind) throws SQLException {
        var catalog = connection.cluster().catalog();
        return shape.concurrency() == ResultSet.CONCUR_UPDATABLE && kind.type() == StatementKind.Type.QUERY
                && !kind.writes() && connection.getAutoCommit()
                && !catalog.hasUserRoutines() && catalog.userTriggers().isEmpty();
    }

    /**
     * Runs a query that writes nothing with the engine connection in auto-commit mode, as the engine alone would run
     * it, so that the engine makes the result it would make then. The engine commits nothing (there is nothing to).
     */
    private static <T> T withEngineAutoCommit(PhysicalSession session, Transaction.StatementCall<T> call)
            throws SQLException {
        Connection engine = session.connection();
        engine.setAutoCommit(true);
        SQLException failed = null;
        try {
            return call.run(session);
        } catch (SQLException e) {
            failed = e;
            throw e;
        } finally {
            try {
                engine.setAutoCommit(false);
            } catch (SQLException e) { // a lost replica: the query's own error, if any, says more
                if (failed == null) {
                    throw e;
                }
                failed.addSuppressed(e);
            }
        }
    }

    final void startRun() throws SQLException {
        checkOpen();
        closeResult();
        last = null;
    }

    /**
     * Runs plain SQL text as one statement of the connection's transaction. DDL computing values that differ per
     * evaluation runs in steps ({@link SchemaChangeInSteps}); this statement's engine statement runs the first, the
     * DDL, so its results are those of a DDL statement.
     */
    private <T> T runSql(String sql, SqlTextCall<T> call) throws SQLException {
        StatementKind kind = connection.kindOf(sql);
        if (kind.type() != StatementKind.Type.IN_STEPS) {
            return run(kind, sql, s -> call.run(physicalOn(s), sql));
        }
        SchemaChangeInSteps change = SchemaChangeInSteps.parse(sql);
        startRun();
        return connection.runInSteps(change, s -> call.run(physicalOn(s), change.firstStep()));
    }

    /** One of the execute methods, called on an engine statement with the SQL text to run. */
    @FunctionalInterface
    private interface SqlTextCall<T> {
        T run(Statement engine, String sql) throws SQLException;
    }

    final ResultSet wrap(ResultSet engineResult) {
        if (engineResult == null) {
            return null;
        }
        MacroResultSet wrapped = new MacroResultSet(engineResult, this, lastReplica);
        result = wrapped;
        return wrapped; // not the field: a close from another thread may clear it meanwhile
    }

    void resultClosed(MacroResultSet closedResult) throws SQLException {
        if (result == closedResult) {
            result = null;
            if (closeOnCompletion) {
                close();
            }
        }
    }

    private void closeResult() throws SQLException {
        MacroResultSet open = result;
        result = null;
        if (open != null) {
            open.delegate.close();
        }
    }

    final void checkOpen() throws SQLException {
        if (closed) {
            throw new SQLException("This statement is closed.", MacroSqlState.OBJECT_CLOSED);
        }
        connection.checkOpen();
    }

    /** The engine statement that ran last; for results, counts and keys of the last execution. */
    final Statement last() throws SQLException {
        checkOpen();
        if (last == null) {
            throw new SQLException("This statement has not run yet.", MacroSqlState.OBJECT_CLOSED);
        }
        return last;
    }

    // ---- execution ----

    @Override
    public ResultSet executeQuery(String sql) throws SQLException {
        return wrap(runSql(sql, (engine, text) -> engine.executeQuery(text)));
    }

    @Override
    public int executeUpdate(String sql) throws SQLException {
        return count(runSql(sql, (engine, text) -> engine.executeUpdate(text)));
    }

    @Override
    public int executeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        return count(runSql(sql, (engine, text) -> engine.executeUpdate(text, autoGeneratedKeys)));
    }

    @Override
    public int executeUpdate(String sql, int[] columnIndexes) throws SQLException {
        return count(runSql(sql, (engine, text) -> engine.executeUpdate(text, columnIndexes)));
    }

    @Override
    public int executeUpdate(String sql, String[] columnNames) throws SQLException {
        return count(runSql(sql, (engine, text) -> engine.executeUpdate(text, columnNames)));
    }

    @Override
    public long executeLargeUpdate(String sql) throws SQLException {
        return largeCount(runSql(sql, (engine, text) -> engine.executeLargeUpdate(text)));
    }

    @Override
    public long executeLargeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        return largeCount(runSql(sql, (engine, text) -> engine.executeLargeUpdate(text, autoGeneratedKeys)));
    }

    @Override
    public long executeLargeUpdate(String sql, int[] columnIndexes) throws SQLException {
        return largeCount(runSql(sql, (engine, text) -> engine.executeLargeUpdate(text, columnIndexes)));
    }

    @Override
    public long executeLargeUpdate(String sql, String[] columnNames) throws SQLException {
        return largeCount(runSql(sql, (engine, text) -> engine.executeLargeUpdate(text, columnNames)));
    }

    @Override
    public boolean execute(String sql) throws SQLException {
        return bool(runSql(sql, (engine, text) -> engine.execute(text)));
    }

    @Override
    public boolean execute(String sql, int autoGeneratedKeys) throws SQLException {
        return bool(runSql(sql, (engine, text) -> engine.execute(text, autoGeneratedKeys)));
    }

    @Override
    public boolean execute(String sql, int[] columnIndexes) throws SQLException {
        return bool(runSql(sql, (engine, text) -> engine.execute(text, columnIndexes)));
    }

    @Override
    public boolean execute(String sql, String[] columnNames) throws SQLException {
        return bool(runSql(sql, (engine, text) -> engine.execute(text, columnNames)));
    }

    /** COMMIT, ROLLBACK and SHUTDOWN sent as SQL return no result: count 0, no result set. */
    static int count(Integer count) {
        return count == null ? 0 : count;
    }

    static long largeCount(Long count) {
        return count == null ? 0 : count;
    }

    static boolean bool(Boolean hasResult) {
        return hasResult != null && hasResult;
    }

    @Override
    public void addBatch(String sql) throws SQLException {
        checkOpen();
        connection.kindOf(sql); // refuse what cannot run now, not at executeBatch
        if (batch == null) {
            batch = new ArrayList<>();
        }
        batch.add(sql);
    }

    @Override
    public void clearBatch() throws SQLException {
        checkOpen();
        batch = null;
    }

    @Override
    public int[] executeBatch() throws SQLException {
        long[] counts = executeLargeBatch();
        int[] narrow = new int[counts.length];
        for (int i = 0; i < counts.length; i++) {
            narrow[i] = (int) counts[i];
        }
        return narrow;
    }

    /**
     * Runs a batch's {@code size} elements one at a time, each as its own execution ({@code element}): a batch holding
     * DDL, session statements, transaction control or statements the engine may commit before, each of which takes its
     * own path (DDL commits and is a version of its own; a setting is recorded for every engine the connection uses).
     * It stops at the first element that fails, with a {@link BatchUpdateException} holding the counts of those before
     * it, as HSQLDB does (H2 alone would run the rest).
     */
    static long[] oneByOne(int size, BatchElement element) throws SQLException {
        long[] counts = new long[size];
        for (int i = 0; i < size; i++) {
            try {
                counts[i] = element.run(i);
            } catch (SQLException failed) {
                BatchUpdateException stopped = new BatchUpdateException(failed.getMessage(), failed.getSQLState(),
                        failed.getErrorCode(), Arrays.copyOf(counts, i), failed);
                stopped.setNextException(failed);
                throw stopped;
            }
        }
        return counts;
    }

    @FunctionalInterface
    interface BatchElement {
        long run(int index) throws SQLException;
    }

    /**
     * A batch of plain row statements runs as one engine batch; any other runs one statement at a time
     * ({@link #oneByOne}).
     */
    @Override
    public long[] executeLargeBatch() throws SQLException {
        checkOpen();
        List<String> sqls = batch == null ? List.of() : batch;
        batch = null;
        boolean simple = true;
        boolean writes = false;
        boolean usesSequence = false;
        boolean mayDrawIdentity = false;
        String call = null; // a CALL among them, which may set the session's variables
        for (String sql : sqls) {
            StatementKind kind = connection.kindOf(sql);
            if (call == null && SqlText.firstWord(sql).equals("CALL")) {
                call = sql;
            }
            // A statement the engine may commit before (ANALYZE, CHECKPOINT) runs on its own path too, which commits
            // first through MacroDB: inside an engine batch the engine committed the rows before it behind its back.
            simple &= kind.runsInEngineBatch();
            writes |= kind.writes();
            usesSequence |= kind.usesSequence();
            mayDrawIdentity |= kind.mayDrawIdentity();
        }
        if (!simple) {
            return oneByOne(sqls.size(), i -> executeLargeUpdate(sqls.get(i)));
        }
        StatementKind kind = new StatementKind(writes ? StatementKind.Type.WRITE : StatementKind.Type.QUERY,
                usesSequence, mayDrawIdentity);
        startRun();
        return connection.executeBatch(kind, new BatchRun.Elements() {
            @Override
            public int size() {
                return sqls.size();
            }

            @Override
            public long[] runWhole(PhysicalSession s) throws SQLException {
                Statement statement = physicalOn(s);
                for (String sql : sqls) {
                    statement.addBatch(sql);
                }
                return statement.executeLargeBatch();
            }

            @Override
            public long runOne(PhysicalSession s, int index) throws SQLException {
                return physicalOn(s).executeLargeUpdate(sqls.get(index));
            }

            @Override
            public void clearEngineBatch(PhysicalSession s) throws SQLException {
                physicalOn(s).clearBatch();
            }
        }, call);
    }

    @Override
    public ResultSet getResultSet() throws SQLException {
        if (result != null) {
            return result;
        }
        return last == null ? null : wrap(last().getResultSet());
    }

    @Override
    public int getUpdateCount() throws SQLException {
        checkOpen();
        return last == null ? -1 : last.getUpdateCount();
    }

    @Override
    public long getLargeUpdateCount() throws SQLException {
        checkOpen();
        return last == null ? -1 : last.getLargeUpdateCount();
    }

    @Override
    public boolean getMoreResults() throws SQLException {
        return getMoreResults(Statement.CLOSE_CURRENT_RESULT);
    }

    @Override
    public boolean getMoreResults(int current) throws SQLException {
        checkOpen();
        if (current != Statement.KEEP_CURRENT_RESULT) {
            closeResult();
        }
        return last != null && last.getMoreResults(current);
    }

    @Override
    public ResultSet getGeneratedKeys() throws SQLException {
        ResultSet keys = last().getGeneratedKeys();
        return keys == null ? null : new MacroResultSet(keys, this, lastReplica);
    }

    // ---- settings ----

    @Override
    public int getMaxFieldSize() throws SQLException {
        checkOpen();
        return maxFieldSize;
    }

    @Override
    public void setMaxFieldSize(int max) throws SQLException {
        checkOpen();
        if (max < 0) { // refused here: recorded, it failed every later execution on HSQLDB (a review, 2026-11-23)
            throw new SQLException("maxFieldSize must be >= 0, was " + max, MacroSqlState.INVALID_OPTION);
        }
        forEachPhysical(s -> s.setMaxFieldSize(max));
        maxFieldSize = max;
    }

    @Override
    public int getMaxRows() throws SQLException {
        checkOpen();
        return (int) Math.min(maxRows, Integer.MAX_VALUE);
    }

    @Override
    public void setMaxRows(int max) throws SQLException {
        setLargeMaxRows(max);
    }

    @Override
    public long getLargeMaxRows() throws SQLException {
        checkOpen();
        return maxRows;
    }

    @Override
    public void setLargeMaxRows(long max) throws SQLException {
        checkOpen();
        if (max < 0) {
            throw new SQLException("maxRows must be >= 0, was " + max, MacroSqlState.INVALID_OPTION);
        }
        forEachPhysical(s -> s.setLargeMaxRows(max));
        maxRows = max;
    }

    @Override
    public void setEscapeProcessing(boolean enable) throws SQLException {
        checkOpen();
        forEachPhysical(s -> s.setEscapeProcessing(enable));
        escapeProcessing = enable;
    }

    @Override
    public int getQueryTimeout() throws SQLException {
        checkOpen();
        return queryTimeout;
    }

    @Override
    public void setQueryTimeout(int seconds) throws SQLException {
        checkOpen();
        if (seconds < 0) {
            throw new SQLException("queryTimeout must be >= 0, was " + seconds, MacroSqlState.INVALID_OPTION);
        }
        forEachPhysical(s -> s.setQueryTimeout(seconds));
        queryTimeout = seconds;
    }

    @Override
    public void cancel() throws SQLException {
        checkOpen();
        Statement running = last;
        if (running != null) {
            running.cancel();
        }
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return last == null ? null : last.getWarnings();
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
        forEachPhysical(Statement::clearWarnings);
    }

    @Override
    public void setCursorName(String name) throws SQLException {
        checkOpen();
        forEachPhysical(s -> s.setCursorName(name));
        cursorName = name;
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        checkOpen();
        if (direction != ResultSet.FETCH_FORWARD && direction != ResultSet.FETCH_REVERSE
                && direction != ResultSet.FETCH_UNKNOWN) { // as setMaxFieldSize's check
            throw new SQLException("fetchDirection must be ResultSet.FETCH_FORWARD, FETCH_REVERSE or FETCH_UNKNOWN, "
                    + "was " + direction, MacroSqlState.INVALID_OPTION);
        }
        forEachPhysical(s -> s.setFetchDirection(direction));
        fetchDirection = direction;
    }

    @Override
    public int getFetchDirection() throws SQLException {
        checkOpen();
        return fetchDirection;
    }

    @Override
    public void setFetchSize(int rows) throws SQLException {
        checkOpen();
        if (rows < 0) {
            throw new SQLException("fetchSize must be >= 0, was " + rows, MacroSqlState.INVALID_OPTION);
        }
        forEachPhysical(s -> s.setFetchSize(rows));
        fetchSize = rows;
    }

    @Override
    public int getFetchSize() throws SQLException {
        checkOpen();
        return fetchSize;
    }

    @Override
    public int getResultSetConcurrency() throws SQLException {
        checkOpen();
        return shape.concurrency();
    }

    @Override
    public int getResultSetType() throws SQLException {
        checkOpen();
        return shape.type();
    }

    @Override
    public int getResultSetHoldability() throws SQLException {
        checkOpen();
        return shape.holdability();
    }

    @Override
    public Connection getConnection() throws SQLException {
        checkOpen();
        return connection;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public void setPoolable(boolean poolable) throws SQLException {
        checkOpen();
        this.poolable = poolable;
    }

    @Override
    public boolean isPoolable() throws SQLException {
        checkOpen();
        return poolable;
    }

    @Override
    public void closeOnCompletion() throws SQLException {
        checkOpen();
        closeOnCompletion = true;
    }

    @Override
    public boolean isCloseOnCompletion() throws SQLException {
        checkOpen();
        return closeOnCompletion;
    }

    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        connection.untrack(this);
        SQLException failure = null;
        try {
            closeResult();
        } catch (SQLException e) {
            failure = e;
        }
        for (int i = 0; i < physical.length; i++) {
            if (physical[i] != null) {
                try {
                    physical[i].close();
                } catch (SQLException e) {
                    if (!physicalOwners[i].replica().isLost()) { // a failed replica's database may be gone
                        failure = failure == null ? e : failure;
                    }
                }
            }
        }
        if (failure != null && !connection.cluster().isShutdown()) {
            throw failure;
        }
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("A MacroDB statement unwraps only to itself, not to " + iface.getName() + ".",
                MacroSqlState.FEATURE_NOT_SUPPORTED);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
