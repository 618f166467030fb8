package io.macrodb.jdbc;

import io.macrodb.api.MacroSqlState;
import io.macrodb.runtime.sql.SqlText;

import java.sql.Connection;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A prepared statement whose parameters are recorded ({@link RecordedParameters}) and bound, at each execution, to the
 * engine statement prepared on the connection the transaction runs on. Its SQL is classified once, here.
 */
public class MacroPreparedStatement extends MacroStatement implements PreparedStatement {

    final String sql;
    final StatementKind kind;
    /** How many parameters the statement's markers ask for: a setter or a batch row that does not fit is refused. */
    private final int parameters;
    private RecordedParameters recorded;
    private List<RecordedParameters> batch;
    /** Bumped by clearParameters: an engine statement bound before it must drop its old values too. */
    private int clearings;
    private int[] clearingsBound;
    // Made once: a lambda that captures this statement would otherwise be allocated on every execution.
    private final Transaction.StatementCall<ResultSet> query = s -> bound(s).executeQuery();
    private final Transaction.StatementCall<Integer> update = s -> bound(s).executeUpdate();
    private final Transaction.StatementCall<Long> largeUpdate = s -> bound(s).executeLargeUpdate();
    private final Transaction.StatementCall<Boolean> any = s -> bound(s).execute();

    MacroPreparedStatement(MacroConnection connection, StatementShape shape, String sql, StatementKind kind) {
        super(connection, shape);
        this.sql = sql;
        this.kind = kind;
        this.parameters = SqlText.parameterCount(sql);
        this.recorded = new RecordedParameters(parameters);
    }

    @Override
    Statement makePhysical(Connection engine) throws SQLException {
        return shape.prepare(engine, sql);
    }

    /**
     * This statement prepared on {@code session}'s connection, with the recorded parameters bound. Every recorded
     * parameter is bound on each execution; the engine statement's old values need clearing only when the
     * application cleared parameters since this engine statement was last bound.
     */
    PreparedStatement bound(PhysicalSession session) throws SQLException {
        PreparedStatement statement = (PreparedStatement) physicalOn(session);
        int index = session.replica().index();
        if (clearingsBound == null) {
            clearingsBound = new int[connection.cluster().config().replicas()];
        }
        if (clearingsBound[index] != clearings) {
            statement.clearParameters();
            clearingsBound[index] = clearings;
        }
        recorded.bindTo(statement);
        return statement;
    }

    /** The recorded parameters, once the statement is known open and {@code index} one of its parameters. */
    private RecordedParameters recordedAt(int index) throws SQLException {
        checkOpen();
        if (index < 1 || index > parameters) {
            // At the setter, as the engines refuse it: recorded, it failed every later execution instead.
            throw new SQLException("Parameter index " + index + " is out of range: this statement has " + parameters
                    + " parameter" + (parameters == 1 ? "" : "s") + ", counted from 1.", "07009");
        }
        return recorded;
    }

    final void bind(int index, Binding binding) throws SQLException {
        recordedAt(index).set(index, binding);
    }

    // ---- execution ----

    @Override
    public ResultSet executeQuery() throws SQLException {
        if (kind.type() == StatementKind.Type.IN_STEPS) {
            throw new SQLException("executeQuery runs a query, and this is DDL (" + sql + "): use execute or "
                    + "executeUpdate.", "07000");
        }
        return wrap(run(kind, sql, query));
    }

    @Override
    public int executeUpdate() throws SQLException {
        return kind.type() == StatementKind.Type.IN_STEPS ? runInSteps(0) : count(run(kind, sql, update));
    }

    @Override
    public long executeLargeUpdate() throws SQLException {
        return kind.type() == StatementKind.Type.IN_STEPS ? runInSteps(0L) : largeCount(run(kind, sql, largeUpdate));
    }

    @Override
    public boolean execute() throws SQLException {
        return kind.type() == StatementKind.Type.IN_STEPS ? runInSteps(false) : bool(run(kind, sql, any));
    }

    /**
     * Runs DDL that MacroDB runs in steps ({@link SchemaChangeInSteps}; a prepared one has no parameters, see
     * {@link StatementKind#ofPrepared}) as a plain statement would, each step on an engine statement of its own.
     *
     * @return {@code ddlResult}: what the engine returns for DDL
     */
    private <T> T runInSteps(T ddlResult) throws SQLException {
        SchemaChangeInSteps change = SchemaChangeInSteps.parse(sql);
        startRun();
        connection.runInSteps(change, session -> MacroConnection.runOwnStatement(session, change.firstStep()));
        return ddlResult;
    }

    @Override
    public void addBatch() throws SQLException {
        checkOpen();
        for (int i = 1; i <= parameters; i++) {
            if (!recorded.isSet(i)) { // refused here, as the engines do: not the whole batch
                throw new SQLException("Parameter " + i + " is not set: set every parameter before addBatch.",
                        "07001");
            }
        }
        if (batch == null) {
            batch = new ArrayList<>();
        }
        batch.add(recorded.copy());
    }

    @Override
    public void clearBatch() throws SQLException {
        checkOpen();
        batch = null;
    }

    @Override
    public long[] executeLargeBatch() throws SQLException {
        checkOpen();
        List<RecordedParameters> rows = batch == null ? List.of() : batch;
        batch = null;
        if (rows.isEmpty()) {
            return new long[0];
        }
        if (!kind.runsInEngineBatch()) {
            // Each row its own execution, on the path the statement takes alone: an engine batch of DDL, a setting
            // or COMMIT ran on the master only, out of MacroDB's sight (found by a review, 2026-11-23).
            RecordedParameters kept = recorded;
            try {
                return oneByOne(rows.size(), i -> {
                    recorded = rows.get(i);
                    return executeLargeUpdate();
                });
            } finally {
                recorded = kept;
            }
        }
        startRun();
        return connection.executeBatch(kind, new BatchRun.Elements() {
            @Override
            public int size() {
                return rows.size();
            }

            @Override
            public long[] runWhole(PhysicalSession s) throws SQLException {
                PreparedStatement statement = (PreparedStatement) physicalOn(s);
                for (RecordedParameters row : rows) {
                    statement.clearParameters(); // rows of a batch may set different parameters
                    row.bindTo(statement);
                    statement.addBatch();
                }
                holdsOtherValues(s);
                return statement.executeLargeBatch();
            }

            @Override
            public long runOne(PhysicalSession s, int index) throws SQLException {
                PreparedStatement statement = (PreparedStatement) physicalOn(s);
                statement.clearParameters();
                rows.get(index).bindTo(statement);
                holdsOtherValues(s);
                return statement.executeLargeUpdate();
            }

            @Override
            public void clearEngineBatch(PhysicalSession s) throws SQLException {
                physicalOn(s).clearBatch();
            }
        }, sql);
    }

    /** The engine statement on {@code s} holds a batch row's values, not the recorded ones: clear them next time. */
    private void holdsOtherValues(PhysicalSession s) {
        if (clearingsBound != null) {
            clearingsBound[s.replica().index()] = clearings - 1;
        }
    }

    @Override
    public void clearParameters() throws SQLException {
        checkOpen();
        recorded.clear();
        clearings++;
    }

    /** Metadata comes from the statement prepared at the master, which every statement can run on. */
    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        checkOpen();
        return ((PreparedStatement) engineStatementOn(connection.masterSession())).getMetaData();
    }

    @Override
    public ParameterMetaData getParameterMetaData() throws SQLException {
        checkOpen();
        return ((PreparedStatement) engineStatementOn(connection.masterSession())).getParameterMetaData();
    }

    // ---- the SQL-taking methods of Statement do not apply to a prepared statement (JDBC) ----

    @Override
    public ResultSet executeQuery(String sql) throws SQLException {
        throw sqlNotAllowed();
    }

    @Override
    public int executeUpdate(String sql) throws SQLException {
        throw sqlNotAllowed();
    }

    @Override
    public boolean execute(String sql) throws SQLException {
        throw sqlNotAllowed();
    }

    @Override
    public void addBatch(String sql) throws SQLException {
        throw sqlNotAllowed();
    }

    private static SQLException sqlNotAllowed() {
        return new SQLException("A PreparedStatement runs the SQL it was prepared with; use the methods without "
                + "a SQL argument, or a plain Statement.", "HY000");
    }

    // ---- parameters ----

    @Override
    public void setNull(int parameterIndex, int sqlType) throws SQLException {
        recordedAt(parameterIndex).setNull(parameterIndex, sqlType);
    }

    @Override
    public void setBoolean(int parameterIndex, boolean x) throws SQLException {
        recordedAt(parameterIndex).setBoolean(parameterIndex, x);
    }

    @Override
    public void setByte(int parameterIndex, byte x) throws SQLException {
        recordedAt(parameterIndex).setByte(parameterIndex, x);
    }

    @Override
    public void setShort(int parameterIndex, short x) throws SQLException {
        recordedAt(parameterIndex).setShort(parameterIndex, x);
    }

    @Override
    public void setInt(int parameterIndex, int x) throws SQLException {
        recordedAt(parameterIndex).setInt(parameterIndex, x);
    }

    @Override
    public void setLong(int parameterIndex, long x) throws SQLException {
        recordedAt(parameterIndex).setLong(parameterIndex, x);
    }

    @Override
    public void setFloat(int parameterIndex, float x) throws SQLException {
        recordedAt(parameterIndex).setFloat(parameterIndex, x);
    }

    @Override
    public void setDouble(int parameterIndex, double x) throws SQLException {
        recordedAt(parameterIndex).setDouble(parameterIndex, x);
    }

    @Override
    public void setBigDecimal(int parameterIndex, java.math.BigDecimal x) throws SQLException {
        recordedAt(parameterIndex).setBigDecimal(parameterIndex, x);
    }

    @Override
    public void setString(int parameterIndex, String x) throws SQLException {
        recordedAt(parameterIndex).setString(parameterIndex, x);
    }

    @Override
    public void setBytes(int parameterIndex, byte[] x) throws SQLException {
        byte[] copy = ParameterValues.copy(x);
        bind(parameterIndex, (s, i) -> s.setBytes(i, copy));
    }

    @Override
    public void setDate(int parameterIndex, java.sql.Date x) throws SQLException {
        java.sql.Date copy = ParameterValues.copy(x);
        bind(parameterIndex, (s, i) -> s.setDate(i, copy));
    }

    @Override
    public void setTime(int parameterIndex, java.sql.Time x) throws SQLException {
        java.sql.Time copy = ParameterValues.copy(x);
        bind(parameterIndex, (s, i) -> s.setTime(i, copy));
    }

    @Override
    public void setTimestamp(int parameterIndex, java.sql.Timestamp x) throws SQLException {
        recordedAt(parameterIndex).setTimestamp(parameterIndex, ParameterValues.copy(x));
    }

    @Override
    public void setAsciiStream(int parameterIndex, java.io.InputStream x, int length) throws SQLException {
        ParameterValues.ReadBytes read = ParameterValues.read(x, length);
        bind(parameterIndex,
                (s, i) -> s.setAsciiStream(i, ParameterValues.streamOf(read), ParameterValues.lengthOf(read, length)));
    }

    @Override
    public void setBinaryStream(int parameterIndex, java.io.InputStream x, int length) throws SQLException {
        ParameterValues.ReadBytes read = ParameterValues.read(x, length);
        bind(parameterIndex,
                (s, i) -> s.setBinaryStream(i, ParameterValues.streamOf(read), ParameterValues.lengthOf(read, length)));
    }

    @Override
    public void setObject(int parameterIndex, Object x, int targetSqlType) throws SQLException {
        Object copy = ParameterValues.copyObject(x);
        bind(parameterIndex, (s, i) -> s.setObject(i, ParameterValues.fresh(copy), targetSqlType));
    }

    @Override
    public void setObject(int parameterIndex, Object x) throws SQLException {
        recordedAt(parameterIndex).setObject(parameterIndex, ParameterValues.copyObject(x));
    }

    @Override
    public void setCharacterStream(int parameterIndex, java.io.Reader reader, int length) throws SQLException {
        ParameterValues.ReadChars read = ParameterValues.read(reader, length);
        bind(parameterIndex, (s, i) -> s.setCharacterStream(i, ParameterValues.readerOf(read),
                ParameterValues.lengthOf(read, length)));
    }

    @Override
    public void setRef(int parameterIndex, java.sql.Ref x) throws SQLException {
        bind(parameterIndex, (s, i) -> s.setRef(i, x));
    }

    @Override
    public void setBlob(int parameterIndex, java.sql.Blob x) throws SQLException {
        if (x == null) {
            bind(parameterIndex, (s, i) -> s.setBlob(i, (java.sql.Blob) null));
            return;
        }
        ParameterValues.ReadBytes read = ParameterValues.read(x);
        bind(parameterIndex, (s, i) -> s.setBlob(i, read.stream(), read.length()));
    }

    @Override
    public void setClob(int parameterIndex, java.sql.Clob x) throws SQLException {
        if (x == null) {
            bind(parameterIndex, (s, i) -> s.setClob(i, (java.sql.Clob) null));
            return;
        }
        ParameterValues.ReadChars read = ParameterValues.read(x);
        bind(parameterIndex, (s, i) -> s.setClob(i, read.reader(), read.length()));
    }

    @Override
    public void setArray(int parameterIndex, java.sql.Array x) throws SQLException {
        bind(parameterIndex, (s, i) -> s.setArray(i, x));
    }

    @Override
    public void setDate(int parameterIndex, java.sql.Date x, java.util.Calendar cal) throws SQLException {
        java.sql.Date copy = ParameterValues.copy(x);
        java.util.Calendar calendar = ParameterValues.copy(cal);
        bind(parameterIndex, (s, i) -> s.setDate(i, copy, calendar));
    }

    @Override
    public void setTime(int parameterIndex, java.sql.Time x, java.util.Calendar cal) throws SQLException {
        java.sql.Time copy = ParameterValues.copy(x);
        java.util.Calendar calendar = ParameterValues.copy(cal);
        bind(parameterIndex, (s, i) -> s.setTime(i, copy, calendar));
    }

    @Override
    public void setTimestamp(int parameterIndex, java.sql.Timestamp x, java.util.Calendar cal) throws SQLException {
        java.sql.Timestamp copy = ParameterValues.copy(x);
        java.util.Calendar calendar = ParameterValues.copy(cal);
        bind(parameterIndex, (s, i) -> s.setTimestamp(i, copy, calendar));
    }

    @Override
    public void setNull(int parameterIndex, int sqlType, String typeName) throws SQLException {
        bind(parameterIndex, (s, i) -> s.setNull(i, sqlType, typeName));
    }

    @Override
    public void setURL(int parameterIndex, java.net.URL x) throws SQLException {
        bind(parameterIndex, (s, i) -> s.setURL(i, x));
    }

    @Override
    public void setRowId(int parameterIndex, java.sql.RowId x) throws SQLException {
        bind(parameterIndex, (s, i) -> s.setRowId(i, x));
    }

    @Override
    public void setNString(int parameterIndex, String value) throws SQLException {
        bind(parameterIndex, (s, i) -> s.setNString(i, value));
    }

    @Override
    public void setNCharacterStream(int parameterIndex, java.io.Reader value, long length) throws SQLException {
        ParameterValues.ReadChars read = ParameterValues.read(value, length);
        bind(parameterIndex, (s, i) -> s.setNCharacterStream(i, ParameterValues.readerOf(read),
                ParameterValues.lengthOf(read, length)));
    }

    @Override
    public void setNClob(int parameterIndex, java.sql.NClob value) throws SQLException {
        if (value == null) {
            bind(parameterIndex, (s, i) -> s.setNClob(i, (java.sql.NClob) null));
            return;
        }
        ParameterValues.ReadChars read = ParameterValues.read(value);
        bind(parameterIndex, (s, i) -> s.setNClob(i, read.reader(), read.length()));
    }

    @Override
    public void setClob(int parameterIndex, java.io.Reader reader, long length) throws SQLException {
        ParameterValues.ReadChars read = ParameterValues.read(reader, length);
        bind(parameterIndex,
                (s, i) -> s.setClob(i, ParameterValues.readerOf(read), ParameterValues.lengthOf(read, length)));
    }

    @Override
    public void setBlob(int parameterIndex, java.io.InputStream inputStream, long length) throws SQLException {
        ParameterValues.ReadBytes read = ParameterValues.read(inputStream, length);
        bind(parameterIndex,
                (s, i) -> s.setBlob(i, ParameterValues.streamOf(read), ParameterValues.lengthOf(read, length)));
    }

    @Override
    public void setNClob(int parameterIndex, java.io.Reader reader, long length) throws SQLException {
        ParameterValues.ReadChars read = ParameterValues.read(reader, length);
        bind(parameterIndex,
                (s, i) -> s.setNClob(i, ParameterValues.readerOf(read), ParameterValues.lengthOf(read, length)));
    }

    @Override
    public void setSQLXML(int parameterIndex, java.sql.SQLXML xmlObject) throws SQLException {
        bind(parameterIndex, (s, i) -> s.setSQLXML(i, xmlObject));
    }

    @Override
    public void setObject(int parameterIndex, Object x, int targetSqlType, int scaleOrLength) throws SQLException {
        Object copy = ParameterValues.copyObject(x);
        bind(parameterIndex,
                (s, i) -> s.setObject(i, ParameterValues.fresh(copy), targetSqlType, scaleOrLength));
    }

    @Override
    public void setAsciiStream(int parameterIndex, java.io.InputStream x, long length) throws SQLException {
        ParameterValues.ReadBytes read = ParameterValues.read(x, length);
        bind(parameterIndex,
                (s, i) -> s.setAsciiStream(i, ParameterValues.streamOf(read), ParameterValues.lengthOf(read, length)));
    }

    @Override
    public void setBinaryStream(int parameterIndex, java.io.InputStream x, long length) throws SQLException {
        ParameterValues.ReadBytes read = ParameterValues.read(x, length);
        bind(parameterIndex,
                (s, i) -> s.setBinaryStream(i, ParameterValues.streamOf(read), ParameterValues.lengthOf(read, length)));
    }

    @Override
    public void setCharacterStream(int parameterIndex, java.io.Reader reader, long length) throws SQLException {
        ParameterValues.ReadChars read = ParameterValues.read(reader, length);
        bind(parameterIndex, (s, i) -> s.setCharacterStream(i, ParameterValues.readerOf(read),
                ParameterValues.lengthOf(read, length)));
    }

    @Override
    public void setAsciiStream(int parameterIndex, java.io.InputStream x) throws SQLException {
        ParameterValues.ReadBytes read = ParameterValues.read(x, -1);
        bind(parameterIndex, (s, i) -> s.setAsciiStream(i, ParameterValues.streamOf(read)));
    }

    @Override
    public void setBinaryStream(int parameterIndex, java.io.InputStream x) throws SQLException {
        ParameterValues.ReadBytes read = ParameterValues.read(x, -1);
        bind(parameterIndex, (s, i) -> s.setBinaryStream(i, ParameterValues.streamOf(read)));
    }

    @Override
    public void setCharacterStream(int parameterIndex, java.io.Reader reader) throws SQLException {
        ParameterValues.ReadChars read = ParameterValues.read(reader, -1);
        bind(parameterIndex, (s, i) -> s.setCharacterStream(i, ParameterValues.readerOf(read)));
    }

    @Override
    public void setNCharacterStream(int parameterIndex, java.io.Reader value) throws SQLException {
        ParameterValues.ReadChars read = ParameterValues.read(value, -1);
        bind(parameterIndex, (s, i) -> s.setNCharacterStream(i, ParameterValues.readerOf(read)));
    }

    @Override
    public void setClob(int parameterIndex, java.io.Reader reader) throws SQLException {
        ParameterValues.ReadChars read = ParameterValues.read(reader, -1);
        bind(parameterIndex, (s, i) -> s.setClob(i, ParameterValues.readerOf(read)));
    }

    @Override
    public void setBlob(int parameterIndex, java.io.InputStream inputStream) throws SQLException {
        ParameterValues.ReadBytes read = ParameterValues.read(inputStream, -1);
        bind(parameterIndex, (s, i) -> s.setBlob(i, ParameterValues.streamOf(read)));
    }

    @Override
    public void setNClob(int parameterIndex, java.io.Reader reader) throws SQLException {
        ParameterValues.ReadChars read = ParameterValues.read(reader, -1);
        bind(parameterIndex, (s, i) -> s.setNClob(i, ParameterValues.readerOf(read)));
    }

    @Override
    public void setObject(int parameterIndex, Object x, java.sql.SQLType targetSqlType, int scaleOrLength) throws SQLException {
        Object copy = ParameterValues.copyObject(x);
        bind(parameterIndex,
                (s, i) -> s.setObject(i, ParameterValues.fresh(copy), targetSqlType, scaleOrLength));
    }

    @Override
    public void setObject(int parameterIndex, Object x, java.sql.SQLType targetSqlType) throws SQLException {
        Object copy = ParameterValues.copyObject(x);
        bind(parameterIndex, (s, i) -> s.setObject(i, ParameterValues.fresh(copy), targetSqlType));
    }

    @Override
    @Deprecated
    public void setUnicodeStream(int parameterIndex, java.io.InputStream x, int length) throws SQLException {
        throw new SQLFeatureNotSupportedException("setUnicodeStream is deprecated and not supported; use "
                + "setCharacterStream.", MacroSqlState.FEATURE_NOT_SUPPORTED);
    }
}
