package io.macrodb.jdbc;

import io.macrodb.api.MacroSqlState;

import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLType;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A callable statement: parameters by index are recorded and bound like a prepared statement's, OUT parameter
 * registrations are recorded and replayed on the engine statement that runs, and OUT values are read back from it.
 * Parameters by name are not supported (both engines number them); using one fails with a message that says so.
 */
public final class MacroCallableStatement extends MacroPreparedStatement implements CallableStatementOutputs {

    /**
     * The OUT registrations by parameter index, in the order first made: registering an index again replaces its
     * registration, as on the engine (a list grew by one per call, and every execution replayed them all).
     */
    private final Map<Integer, Binding> outRegistrations = new LinkedHashMap<>();

    MacroCallableStatement(MacroConnection connection, StatementShape shape, String sql, StatementKind kind) {
        super(connection, shape, sql, kind);
    }

    @Override
    Statement makePhysical(Connection engine) throws SQLException {
        return shape.prepareCall(engine, sql);
    }

    @Override
    java.sql.PreparedStatement bound(PhysicalSession session) throws SQLException {
        java.sql.PreparedStatement statement = super.bound(session);
        for (Binding registration : outRegistrations.values()) {
            registration.bind(statement, 0);
        }
        return statement;
    }

    @Override
    public CallableStatement outputs() throws SQLException {
        return (CallableStatement) last();
    }

    private void register(int parameterIndex, OutRegistration registration) throws SQLException {
        checkOpen();
        outRegistrations.put(parameterIndex,
                (s, ignored) -> registration.register((CallableStatement) s, parameterIndex));
    }

    @FunctionalInterface
    private interface OutRegistration {
        void register(CallableStatement statement, int index) throws SQLException;
    }

    @Override
    public void registerOutParameter(int parameterIndex, int sqlType) throws SQLException {
        register(parameterIndex, (s, i) -> s.registerOutParameter(i, sqlType));
    }

    @Override
    public void registerOutParameter(int parameterIndex, int sqlType, int scale) throws SQLException {
        register(parameterIndex, (s, i) -> s.registerOutParameter(i, sqlType, scale));
    }

    @Override
    public void registerOutParameter(int parameterIndex, int sqlType, String typeName) throws SQLException {
        register(parameterIndex, (s, i) -> s.registerOutParameter(i, sqlType, typeName));
    }

    @Override
    public void registerOutParameter(int parameterIndex, SQLType sqlType) throws SQLException {
        register(parameterIndex, (s, i) -> s.registerOutParameter(i, sqlType));
    }

    @Override
    public void registerOutParameter(int parameterIndex, SQLType sqlType, int scale) throws SQLException {
        register(parameterIndex, (s, i) -> s.registerOutParameter(i, sqlType, scale));
    }

    @Override
    public void registerOutParameter(int parameterIndex, SQLType sqlType, String typeName) throws SQLException {
        register(parameterIndex, (s, i) -> s.registerOutParameter(i, sqlType, typeName));
    }

    @Override
    public void registerOutParameter(String parameterName, int sqlType) throws SQLException {
        throw byName();
    }

    @Override
    public void registerOutParameter(String parameterName, int sqlType, int scale) throws SQLException {
        throw byName();
    }

    @Override
    public void registerOutParameter(String parameterName, int sqlType, String typeName) throws SQLException {
        throw byName();
    }

    @Override
    public void registerOutParameter(String parameterName, SQLType sqlType) throws SQLException {
        throw byName();
    }

    @Override
    public void registerOutParameter(String parameterName, SQLType sqlType, int scale) throws SQLException {
        throw byName();
    }

    @Override
    public void registerOutParameter(String parameterName, SQLType sqlType, String typeName) throws SQLException {
        throw byName();
    }

    private static SQLFeatureNotSupportedException byName() {
        return new SQLFeatureNotSupportedException("MacroDB binds CallableStatement parameters by index only; use "
                + "the setXxx(int, ...) and registerOutParameter(int, ...) forms.",
                MacroSqlState.FEATURE_NOT_SUPPORTED);
    }

    // ---- parameters by name: refused ----

    @Override
    public void setURL(String parameterName, java.net.URL p0) throws SQLException {
        throw byName();
    }

    @Override
    public void setNull(String parameterName, int p0) throws SQLException {
        throw byName();
    }

    @Override
    public void setBoolean(String parameterName, boolean p0) throws SQLException {
        throw byName();
    }

    @Override
    public void setByte(String parameterName, byte p0) throws SQLException {
        throw byName();
    }

    @Override
    public void setShort(String parameterName, short p0) throws SQLException {
        throw byName();
    }

    @Override
    public void setInt(String parameterName, int p0) throws SQLException {
        throw byName();
    }

    @Override
    public void setLong(String parameterName, long p0) throws SQLException {
        throw byName();
    }

    @Override
    public void setFloat(String parameterName, float p0) throws SQLException {
        throw byName();
    }

    @Override
    public void setDouble(String parameterName, double p0) throws SQLException {
        throw byName();
    }

    @Override
    public void setBigDecimal(String parameterName, java.math.BigDecimal p0) throws SQLException {
        throw byName();
    }

    @Override
    public void setString(String parameterName, java.lang.String p0) throws SQLException {
        throw byName();
    }

    @Override
    public void setBytes(String parameterName, byte[] p0) throws SQLException {
        throw byName();
    }

    @Override
    public void setDate(String parameterName, java.sql.Date p0) throws SQLException {
        throw byName();
    }

    @Override
    public void setTime(String parameterName, java.sql.Time p0) throws SQLException {
        throw byName();
    }

    @Override
    public void setTimestamp(String parameterName, java.sql.Timestamp p0) throws SQLException {
        throw byName();
    }

    @Override
    public void setAsciiStream(String parameterName, java.io.InputStream p0, int p1) throws SQLException {
        throw byName();
    }

    @Override
    public void setBinaryStream(String parameterName, java.io.InputStream p0, int p1) throws SQLException {
        throw byName();
    }

    @Override
    public void setObject(String parameterName, java.lang.Object p0, int p1, int p2) throws SQLException {
        throw byName();
    }

    @Override
    public void setObject(String parameterName, java.lang.Object p0, int p1) throws SQLException {
        throw byName();
    }

    @Override
    public void setObject(String parameterName, java.lang.Object p0) throws SQLException {
        throw byName();
    }

    @Override
    public void setCharacterStream(String parameterName, java.io.Reader p0, int p1) throws SQLException {
        throw byName();
    }

    @Override
    public void setDate(String parameterName, java.sql.Date p0, java.util.Calendar p1) throws SQLException {
        throw byName();
    }

    @Override
    public void setTime(String parameterName, java.sql.Time p0, java.util.Calendar p1) throws SQLException {
        throw byName();
    }

    @Override
    public void setTimestamp(String parameterName, java.sql.Timestamp p0, java.util.Calendar p1) throws SQLException {
        throw byName();
    }

    @Override
    public void setNull(String parameterName, int p0, java.lang.String p1) throws SQLException {
        throw byName();
    }

    @Override
    public void setRowId(String parameterName, java.sql.RowId p0) throws SQLException {
        throw byName();
    }

    @Override
    public void setNString(String parameterName, java.lang.String p0) throws SQLException {
        throw byName();
    }

    @Override
    public void setNCharacterStream(String parameterName, java.io.Reader p0, long p1) throws SQLException {
        throw byName();
    }

    @Override
    public void setNClob(String parameterName, java.sql.NClob p0) throws SQLException {
        throw byName();
    }

    @Override
    public void setClob(String parameterName, java.io.Reader p0, long p1) throws SQLException {
        throw byName();
    }

    @Override
    public void setBlob(String parameterName, java.io.InputStream p0, long p1) throws SQLException {
        throw byName();
    }

    @Override
    public void setNClob(String parameterName, java.io.Reader p0, long p1) throws SQLException {
        throw byName();
    }

    @Override
    public void setSQLXML(String parameterName, java.sql.SQLXML p0) throws SQLException {
        throw byName();
    }

    @Override
    public void setBlob(String parameterName, java.sql.Blob p0) throws SQLException {
        throw byName();
    }

    @Override
    public void setClob(String parameterName, java.sql.Clob p0) throws SQLException {
        throw byName();
    }

    @Override
    public void setAsciiStream(String parameterName, java.io.InputStream p0, long p1) throws SQLException {
        throw byName();
    }

    @Override
    public void setBinaryStream(String parameterName, java.io.InputStream p0, long p1) throws SQLException {
        throw byName();
    }

    @Override
    public void setCharacterStream(String parameterName, java.io.Reader p0, long p1) throws SQLException {
        throw byName();
    }

    @Override
    public void setAsciiStream(String parameterName, java.io.InputStream p0) throws SQLException {
        throw byName();
    }

    @Override
    public void setBinaryStream(String parameterName, java.io.InputStream p0) throws SQLException {
        throw byName();
    }

    @Override
    public void setCharacterStream(String parameterName, java.io.Reader p0) throws SQLException {
        throw byName();
    }

    @Override
    public void setNCharacterStream(String parameterName, java.io.Reader p0) throws SQLException {
        throw byName();
    }

    @Override
    public void setClob(String parameterName, java.io.Reader p0) throws SQLException {
        throw byName();
    }

    @Override
    public void setBlob(String parameterName, java.io.InputStream p0) throws SQLException {
        throw byName();
    }

    @Override
    public void setNClob(String parameterName, java.io.Reader p0) throws SQLException {
        throw byName();
    }
}
