package io.macrodb.jdbc;

import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.CallableStatement;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;
import java.util.Map;

/**
 * The OUT-parameter half of a MacroDB {@link CallableStatement}.
 *
 * <p>MacroDB does not own a single physical statement per logical one: the
 * parameters are bound on whichever physical callable statement the
 * transaction's route chose at execution time. OUT parameters must therefore be
 * registered on, and their values read back from, the physical statement that
 * actually ran. {@link #outputs()} names that statement and every method that
 * registers or reads an OUT parameter forwards to it here, once; the
 * implementing class handles the IN side (including the named
 * {@code setXxx(String, ...)} setters) itself.
 */
public interface CallableStatementOutputs extends CallableStatement {

    /**
     * The physical callable statement that last executed (the one holding the
     * OUT values).
     */
    CallableStatement outputs() throws SQLException;

    // ---- Registering OUT parameters ----

    @Override
    default void registerOutParameter(int parameterIndex, int sqlType) throws SQLException {
        outputs().registerOutParameter(parameterIndex, sqlType);
    }

    @Override
    default void registerOutParameter(int parameterIndex, int sqlType, int scale)
            throws SQLException {
        outputs().registerOutParameter(parameterIndex, sqlType, scale);
    }

    @Override
    default void registerOutParameter(int parameterIndex, int sqlType, String typeName)
            throws SQLException {
        outputs().registerOutParameter(parameterIndex, sqlType, typeName);
    }

    @Override
    default void registerOutParameter(String parameterName, int sqlType) throws SQLException {
        outputs().registerOutParameter(parameterName, sqlType);
    }

    @Override
    default void registerOutParameter(String parameterName, int sqlType, int scale)
            throws SQLException {
        outputs().registerOutParameter(parameterName, sqlType, scale);
    }

    @Override
    default void registerOutParameter(String parameterName, int sqlType, String typeName)
            throws SQLException {
        outputs().registerOutParameter(parameterName, sqlType, typeName);
    }

    @Override
    default void registerOutParameter(int parameterIndex, SQLType sqlType) throws SQLException {
        outputs().registerOutParameter(parameterIndex, sqlType);
    }

    @Override
    default void registerOutParameter(int parameterIndex, SQLType sqlType, int scale)
            throws SQLException {
        outputs().registerOutParameter(parameterIndex, sqlType, scale);
    }

    @Override
    default void registerOutParameter(int parameterIndex, SQLType sqlType, String typeName)
            throws SQLException {
        outputs().registerOutParameter(parameterIndex, sqlType, typeName);
    }

    @Override
    default void registerOutParameter(String parameterName, SQLType sqlType) throws SQLException {
        outputs().registerOutParameter(parameterName, sqlType);
    }

    @Override
    default void registerOutParameter(String parameterName, SQLType sqlType, int scale)
            throws SQLException {
        outputs().registerOutParameter(parameterName, sqlType, scale);
    }

    @Override
    default void registerOutParameter(String parameterName, SQLType sqlType, String typeName)
            throws SQLException {
        outputs().registerOutParameter(parameterName, sqlType, typeName);
    }

    // ---- Null check for the last OUT value read ----

    @Override
    default boolean wasNull() throws SQLException {
        return outputs().wasNull();
    }

    // ---- OUT values by parameter index ----

    @Override
    default String getString(int parameterIndex) throws SQLException {
        return outputs().getString(parameterIndex);
    }

    @Override
    default boolean getBoolean(int parameterIndex) throws SQLException {
        return outputs().getBoolean(parameterIndex);
    }

    @Override
    default byte getByte(int parameterIndex) throws SQLException {
        return outputs().getByte(parameterIndex);
    }

    @Override
    default short getShort(int parameterIndex) throws SQLException {
        return outputs().getShort(parameterIndex);
    }

    @Override
    default int getInt(int parameterIndex) throws SQLException {
        return outputs().getInt(parameterIndex);
    }

    @Override
    default long getLong(int parameterIndex) throws SQLException {
        return outputs().getLong(parameterIndex);
    }

    @Override
    default float getFloat(int parameterIndex) throws SQLException {
        return outputs().getFloat(parameterIndex);
    }

    @Override
    default double getDouble(int parameterIndex) throws SQLException {
        return outputs().getDouble(parameterIndex);
    }

    @Override
    @Deprecated
    default BigDecimal getBigDecimal(int parameterIndex, int scale) throws SQLException {
        return outputs().getBigDecimal(parameterIndex, scale);
    }

    @Override
    default byte[] getBytes(int parameterIndex) throws SQLException {
        return outputs().getBytes(parameterIndex);
    }

    @Override
    default Date getDate(int parameterIndex) throws SQLException {
        return outputs().getDate(parameterIndex);
    }

    @Override
    default Time getTime(int parameterIndex) throws SQLException {
        return outputs().getTime(parameterIndex);
    }

    @Override
    default Timestamp getTimestamp(int parameterIndex) throws SQLException {
        return outputs().getTimestamp(parameterIndex);
    }

    @Override
    default Object getObject(int parameterIndex) throws SQLException {
        return outputs().getObject(parameterIndex);
    }

    @Override
    default BigDecimal getBigDecimal(int parameterIndex) throws SQLException {
        return outputs().getBigDecimal(parameterIndex);
    }

    @Override
    default Object getObject(int parameterIndex, Map<String, Class<?>> map) throws SQLException {
        return outputs().getObject(parameterIndex, map);
    }

    @Override
    default Ref getRef(int parameterIndex) throws SQLException {
        return outputs().getRef(parameterIndex);
    }

    @Override
    default Blob getBlob(int parameterIndex) throws SQLException {
        return outputs().getBlob(parameterIndex);
    }

    @Override
    default Clob getClob(int parameterIndex) throws SQLException {
        return outputs().getClob(parameterIndex);
    }

    @Override
    default Array getArray(int parameterIndex) throws SQLException {
        return outputs().getArray(parameterIndex);
    }

    @Override
    default Date getDate(int parameterIndex, Calendar cal) throws SQLException {
        return outputs().getDate(parameterIndex, cal);
    }

    @Override
    default Time getTime(int parameterIndex, Calendar cal) throws SQLException {
        return outputs().getTime(parameterIndex, cal);
    }

    @Override
    default Timestamp getTimestamp(int parameterIndex, Calendar cal) throws SQLException {
        return outputs().getTimestamp(parameterIndex, cal);
    }

    @Override
    default URL getURL(int parameterIndex) throws SQLException {
        return outputs().getURL(parameterIndex);
    }

    @Override
    default RowId getRowId(int parameterIndex) throws SQLException {
        return outputs().getRowId(parameterIndex);
    }

    @Override
    default NClob getNClob(int parameterIndex) throws SQLException {
        return outputs().getNClob(parameterIndex);
    }

    @Override
    default SQLXML getSQLXML(int parameterIndex) throws SQLException {
        return outputs().getSQLXML(parameterIndex);
    }

    @Override
    default String getNString(int parameterIndex) throws SQLException {
        return outputs().getNString(parameterIndex);
    }

    @Override
    default Reader getNCharacterStream(int parameterIndex) throws SQLException {
        return outputs().getNCharacterStream(parameterIndex);
    }

    @Override
    default Reader getCharacterStream(int parameterIndex) throws SQLException {
        return outputs().getCharacterStream(parameterIndex);
    }

    @Override
    default <T> T getObject(int parameterIndex, Class<T> type) throws SQLException {
        return outputs().getObject(parameterIndex, type);
    }

    // ---- OUT values by parameter name ----

    @Override
    default String getString(String parameterName) throws SQLException {
        return outputs().getString(parameterName);
    }

    @Override
    default boolean getBoolean(String parameterName) throws SQLException {
        return outputs().getBoolean(parameterName);
    }

    @Override
    default byte getByte(String parameterName) throws SQLException {
        return outputs().getByte(parameterName);
    }

    @Override
    default short getShort(String parameterName) throws SQLException {
        return outputs().getShort(parameterName);
    }

    @Override
    default int getInt(String parameterName) throws SQLException {
        return outputs().getInt(parameterName);
    }

    @Override
    default long getLong(String parameterName) throws SQLException {
        return outputs().getLong(parameterName);
    }

    @Override
    default float getFloat(String parameterName) throws SQLException {
        return outputs().getFloat(parameterName);
    }

    @Override
    default double getDouble(String parameterName) throws SQLException {
        return outputs().getDouble(parameterName);
    }

    @Override
    default byte[] getBytes(String parameterName) throws SQLException {
        return outputs().getBytes(parameterName);
    }

    @Override
    default Date getDate(String parameterName) throws SQLException {
        return outputs().getDate(parameterName);
    }

    @Override
    default Time getTime(String parameterName) throws SQLException {
        return outputs().getTime(parameterName);
    }

    @Override
    default Timestamp getTimestamp(String parameterName) throws SQLException {
        return outputs().getTimestamp(parameterName);
    }

    @Override
    default Object getObject(String parameterName) throws SQLException {
        return outputs().getObject(parameterName);
    }

    @Override
    default BigDecimal getBigDecimal(String parameterName) throws SQLException {
        return outputs().getBigDecimal(parameterName);
    }

    @Override
    default Object getObject(String parameterName, Map<String, Class<?>> map) throws SQLException {
        return outputs().getObject(parameterName, map);
    }

    @Override
    default Ref getRef(String parameterName) throws SQLException {
        return outputs().getRef(parameterName);
    }

    @Override
    default Blob getBlob(String parameterName) throws SQLException {
        return outputs().getBlob(parameterName);
    }

    @Override
    default Clob getClob(String parameterName) throws SQLException {
        return outputs().getClob(parameterName);
    }

    @Override
    default Array getArray(String parameterName) throws SQLException {
        return outputs().getArray(parameterName);
    }

    @Override
    default Date getDate(String parameterName, Calendar cal) throws SQLException {
        return outputs().getDate(parameterName, cal);
    }

    @Override
    default Time getTime(String parameterName, Calendar cal) throws SQLException {
        return outputs().getTime(parameterName, cal);
    }

    @Override
    default Timestamp getTimestamp(String parameterName, Calendar cal) throws SQLException {
        return outputs().getTimestamp(parameterName, cal);
    }

    @Override
    default URL getURL(String parameterName) throws SQLException {
        return outputs().getURL(parameterName);
    }

    @Override
    default RowId getRowId(String parameterName) throws SQLException {
        return outputs().getRowId(parameterName);
    }

    @Override
    default NClob getNClob(String parameterName) throws SQLException {
        return outputs().getNClob(parameterName);
    }

    @Override
    default SQLXML getSQLXML(String parameterName) throws SQLException {
        return outputs().getSQLXML(parameterName);
    }

    @Override
    default String getNString(String parameterName) throws SQLException {
        return outputs().getNString(parameterName);
    }

    @Override
    default Reader getNCharacterStream(String parameterName) throws SQLException {
        return outputs().getNCharacterStream(parameterName);
    }

    @Override
    default Reader getCharacterStream(String parameterName) throws SQLException {
        return outputs().getCharacterStream(parameterName);
    }

    @Override
    default <T> T getObject(String parameterName, Class<T> type) throws SQLException {
        return outputs().getObject(parameterName, type);
    }
}
