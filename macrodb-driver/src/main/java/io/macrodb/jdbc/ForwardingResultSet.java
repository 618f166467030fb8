package io.macrodb.jdbc;

import io.macrodb.api.MacroSqlState;

import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;
import java.util.Map;

/**
 * A {@link ResultSet} that passes every call straight through to the engine's
 * result set.
 *
 * <p>The pass-through lives once, here, so the MacroDB result set classes only
 * override what MacroDB actually has behaviour for: the statement back-link
 * ({@link #getStatement()} must return the wrapper that produced the result set,
 * never the engine's physical statement) and close tracking ({@link #close()}
 * must let the owning wrapper know the result set is gone). Both are left
 * abstract so a subclass cannot forget them. Every engine error passes through
 * {@link #translated} on its way out.
 *
 * <p>{@code unwrap}/{@code isWrapperFor} answer for this wrapper only, as a MacroDB
 * connection and statement do: the engine's object would lead to the master's
 * engine connection (its {@code getStatement().getConnection()}), whose commit,
 * rollback or close bypass MacroDB's commit order.
 */
public abstract class ForwardingResultSet implements ResultSet {

    protected final ResultSet delegate;

    protected ForwardingResultSet(ResultSet delegate) {
        this.delegate = delegate;
    }

    /**
     * What to throw for an error the engine's result set raised: the error itself here. A subclass may say more (a
     * result read on a replica that has since failed: every call on it fails, H2 checks its session on each).
     */
    protected SQLException translated(SQLException engineError) {
        return engineError;
    }

    // ---- Cursor basics ----

    @Override
    public boolean next() throws SQLException {
        try {
            return delegate.next();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    // Not forwarded: the subclass tracks closing.
    @Override
    public abstract void close() throws SQLException;

    @Override
    public boolean wasNull() throws SQLException {
        try {
            return delegate.wasNull();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    // ---- Getters by column index ----

    @Override
    public String getString(int columnIndex) throws SQLException {
        try {
            return delegate.getString(columnIndex);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public boolean getBoolean(int columnIndex) throws SQLException {
        try {
            return delegate.getBoolean(columnIndex);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public byte getByte(int columnIndex) throws SQLException {
        try {
            return delegate.getByte(columnIndex);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public short getShort(int columnIndex) throws SQLException {
        try {
            return delegate.getShort(columnIndex);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public int getInt(int columnIndex) throws SQLException {
        try {
            return delegate.getInt(columnIndex);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public long getLong(int columnIndex) throws SQLException {
        try {
            return delegate.getLong(columnIndex);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public float getFloat(int columnIndex) throws SQLException {
        try {
            return delegate.getFloat(columnIndex);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public double getDouble(int columnIndex) throws SQLException {
        try {
            return delegate.getDouble(columnIndex);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    @Deprecated
    public BigDecimal getBigDecimal(int columnIndex, int scale) throws SQLException {
        try {
            return delegate.getBigDecimal(columnIndex, scale);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public byte[] getBytes(int columnIndex) throws SQLException {
        try {
            return delegate.getBytes(columnIndex);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public Date getDate(int columnIndex) throws SQLException {
        try {
            return delegate.getDate(columnIndex);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public Time getTime(int columnIndex) throws SQLException {
        try {
            return delegate.getTime(columnIndex);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public Timestamp getTimestamp(int columnIndex) throws SQLException {
        try {
            return delegate.getTimestamp(columnIndex);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public InputStream getAsciiStream(int columnIndex) throws SQLException {
        try {
            return delegate.getAsciiStream(columnIndex);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    @Deprecated
    public InputStream getUnicodeStream(int columnIndex) throws SQLException {
        try {
            return delegate.getUnicodeStream(columnIndex);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public InputStream getBinaryStream(int columnIndex) throws SQLException {
        try {
            return delegate.getBinaryStream(columnIndex);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    // ---- Getters by column label ----

    @Override
    public String getString(String columnLabel) throws SQLException {
        try {
            return delegate.getString(columnLabel);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public boolean getBoolean(String columnLabel) throws SQLException {
        try {
            return delegate.getBoolean(columnLabel);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public byte getByte(String columnLabel) throws SQLException {
        try {
            return delegate.getByte(columnLabel);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public short getShort(String columnLabel) throws SQLException {
        try {
            return delegate.getShort(columnLabel);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public int getInt(String columnLabel) throws SQLException {
        try {
            return delegate.getInt(columnLabel);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public long getLong(String columnLabel) throws SQLException {
        try {
            return delegate.getLong(columnLabel);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public float getFloat(String columnLabel) throws SQLException {
        try {
            return delegate.getFloat(columnLabel);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public double getDouble(String columnLabel) throws SQLException {
        try {
            return delegate.getDouble(columnLabel);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    @Deprecated
    public BigDecimal getBigDecimal(String columnLabel, int scale) throws SQLException {
        try {
            return delegate.getBigDecimal(columnLabel, scale);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public byte[] getBytes(String columnLabel) throws SQLException {
        try {
            return delegate.getBytes(columnLabel);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public Date getDate(String columnLabel) throws SQLException {
        try {
            return delegate.getDate(columnLabel);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public Time getTime(String columnLabel) throws SQLException {
        try {
            return delegate.getTime(columnLabel);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public Timestamp getTimestamp(String columnLabel) throws SQLException {
        try {
            return delegate.getTimestamp(columnLabel);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public InputStream getAsciiStream(String columnLabel) throws SQLException {
        try {
            return delegate.getAsciiStream(columnLabel);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    @Deprecated
    public InputStream getUnicodeStream(String columnLabel) throws SQLException {
        try {
            return delegate.getUnicodeStream(columnLabel);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public InputStream getBinaryStream(String columnLabel) throws SQLException {
        try {
            return delegate.getBinaryStream(columnLabel);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    // ---- Warnings, cursor name and metadata ----

    @Override
    public SQLWarning getWarnings() throws SQLException {
        try {
            return delegate.getWarnings();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void clearWarnings() throws SQLException {
        try {
            delegate.clearWarnings();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public String getCursorName() throws SQLException {
        try {
            return delegate.getCursorName();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        try {
            return delegate.getMetaData();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    // ---- Object getters, column lookup, character streams, BigDecimal ----

    @Override
    public Object getObject(int columnIndex) throws SQLException {
        try {
            return delegate.getObject(columnIndex);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public Object getObject(String columnLabel) throws SQLException {
        try {
            return delegate.getObject(columnLabel);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public int findColumn(String columnLabel) throws SQLException {
        try {
            return delegate.findColumn(columnLabel);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public Reader getCharacterStream(int columnIndex) throws SQLException {
        try {
            return delegate.getCharacterStream(columnIndex);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public Reader getCharacterStream(String columnLabel) throws SQLException {
        try {
            return delegate.getCharacterStream(columnLabel);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public BigDecimal getBigDecimal(int columnIndex) throws SQLException {
        try {
            return delegate.getBigDecimal(columnIndex);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public BigDecimal getBigDecimal(String columnLabel) throws SQLException {
        try {
            return delegate.getBigDecimal(columnLabel);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    // ---- Navigation ----

    @Override
    public boolean isBeforeFirst() throws SQLException {
        try {
            return delegate.isBeforeFirst();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public boolean isAfterLast() throws SQLException {
        try {
            return delegate.isAfterLast();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public boolean isFirst() throws SQLException {
        try {
            return delegate.isFirst();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public boolean isLast() throws SQLException {
        try {
            return delegate.isLast();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void beforeFirst() throws SQLException {
        try {
            delegate.beforeFirst();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void afterLast() throws SQLException {
        try {
            delegate.afterLast();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public boolean first() throws SQLException {
        try {
            return delegate.first();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public boolean last() throws SQLException {
        try {
            return delegate.last();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public int getRow() throws SQLException {
        try {
            return delegate.getRow();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public boolean absolute(int row) throws SQLException {
        try {
            return delegate.absolute(row);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public boolean relative(int rows) throws SQLException {
        try {
            return delegate.relative(rows);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public boolean previous() throws SQLException {
        try {
            return delegate.previous();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    // ---- Fetch hints and result set properties ----

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        try {
            delegate.setFetchDirection(direction);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public int getFetchDirection() throws SQLException {
        try {
            return delegate.getFetchDirection();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void setFetchSize(int rows) throws SQLException {
        try {
            delegate.setFetchSize(rows);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public int getFetchSize() throws SQLException {
        try {
            return delegate.getFetchSize();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public int getType() throws SQLException {
        try {
            return delegate.getType();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public int getConcurrency() throws SQLException {
        try {
            return delegate.getConcurrency();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    // ---- Row change detection ----

    @Override
    public boolean rowUpdated() throws SQLException {
        try {
            return delegate.rowUpdated();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public boolean rowInserted() throws SQLException {
        try {
            return delegate.rowInserted();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public boolean rowDeleted() throws SQLException {
        try {
            return delegate.rowDeleted();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    // ---- Updaters by column index ----

    @Override
    public void updateNull(int columnIndex) throws SQLException {
        try {
            delegate.updateNull(columnIndex);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateBoolean(int columnIndex, boolean x) throws SQLException {
        try {
            delegate.updateBoolean(columnIndex, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateByte(int columnIndex, byte x) throws SQLException {
        try {
            delegate.updateByte(columnIndex, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateShort(int columnIndex, short x) throws SQLException {
        try {
            delegate.updateShort(columnIndex, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateInt(int columnIndex, int x) throws SQLException {
        try {
            delegate.updateInt(columnIndex, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateLong(int columnIndex, long x) throws SQLException {
        try {
            delegate.updateLong(columnIndex, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateFloat(int columnIndex, float x) throws SQLException {
        try {
            delegate.updateFloat(columnIndex, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateDouble(int columnIndex, double x) throws SQLException {
        try {
            delegate.updateDouble(columnIndex, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateBigDecimal(int columnIndex, BigDecimal x) throws SQLException {
        try {
            delegate.updateBigDecimal(columnIndex, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateString(int columnIndex, String x) throws SQLException {
        try {
            delegate.updateString(columnIndex, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateBytes(int columnIndex, byte[] x) throws SQLException {
        try {
            delegate.updateBytes(columnIndex, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateDate(int columnIndex, Date x) throws SQLException {
        try {
            delegate.updateDate(columnIndex, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateTime(int columnIndex, Time x) throws SQLException {
        try {
            delegate.updateTime(columnIndex, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateTimestamp(int columnIndex, Timestamp x) throws SQLException {
        try {
            delegate.updateTimestamp(columnIndex, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateAsciiStream(int columnIndex, InputStream x, int length) throws SQLException {
        try {
            delegate.updateAsciiStream(columnIndex, x, length);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateBinaryStream(int columnIndex, InputStream x, int length) throws SQLException {
        try {
            delegate.updateBinaryStream(columnIndex, x, length);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateCharacterStream(int columnIndex, Reader x, int length) throws SQLException {
        try {
            delegate.updateCharacterStream(columnIndex, x, length);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateObject(int columnIndex, Object x, int scaleOrLength) throws SQLException {
        try {
            delegate.updateObject(columnIndex, x, scaleOrLength);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateObject(int columnIndex, Object x) throws SQLException {
        try {
            delegate.updateObject(columnIndex, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    // ---- Updaters by column label ----

    @Override
    public void updateNull(String columnLabel) throws SQLException {
        try {
            delegate.updateNull(columnLabel);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateBoolean(String columnLabel, boolean x) throws SQLException {
        try {
            delegate.updateBoolean(columnLabel, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateByte(String columnLabel, byte x) throws SQLException {
        try {
            delegate.updateByte(columnLabel, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateShort(String columnLabel, short x) throws SQLException {
        try {
            delegate.updateShort(columnLabel, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateInt(String columnLabel, int x) throws SQLException {
        try {
            delegate.updateInt(columnLabel, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateLong(String columnLabel, long x) throws SQLException {
        try {
            delegate.updateLong(columnLabel, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateFloat(String columnLabel, float x) throws SQLException {
        try {
            delegate.updateFloat(columnLabel, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateDouble(String columnLabel, double x) throws SQLException {
        try {
            delegate.updateDouble(columnLabel, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateBigDecimal(String columnLabel, BigDecimal x) throws SQLException {
        try {
            delegate.updateBigDecimal(columnLabel, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateString(String columnLabel, String x) throws SQLException {
        try {
            delegate.updateString(columnLabel, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateBytes(String columnLabel, byte[] x) throws SQLException {
        try {
            delegate.updateBytes(columnLabel, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateDate(String columnLabel, Date x) throws SQLException {
        try {
            delegate.updateDate(columnLabel, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateTime(String columnLabel, Time x) throws SQLException {
        try {
            delegate.updateTime(columnLabel, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateTimestamp(String columnLabel, Timestamp x) throws SQLException {
        try {
            delegate.updateTimestamp(columnLabel, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateAsciiStream(String columnLabel, InputStream x, int length)
            throws SQLException {
        try {
            delegate.updateAsciiStream(columnLabel, x, length);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateBinaryStream(String columnLabel, InputStream x, int length)
            throws SQLException {
        try {
            delegate.updateBinaryStream(columnLabel, x, length);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateCharacterStream(String columnLabel, Reader x, int length)
            throws SQLException {
        try {
            delegate.updateCharacterStream(columnLabel, x, length);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateObject(String columnLabel, Object x, int scaleOrLength) throws SQLException {
        try {
            delegate.updateObject(columnLabel, x, scaleOrLength);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateObject(String columnLabel, Object x) throws SQLException {
        try {
            delegate.updateObject(columnLabel, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    // ---- Row modification and insert-row movement ----

    @Override
    public void insertRow() throws SQLException {
        try {
            delegate.insertRow();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateRow() throws SQLException {
        try {
            delegate.updateRow();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void deleteRow() throws SQLException {
        try {
            delegate.deleteRow();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void refreshRow() throws SQLException {
        try {
            delegate.refreshRow();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void cancelRowUpdates() throws SQLException {
        try {
            delegate.cancelRowUpdates();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void moveToInsertRow() throws SQLException {
        try {
            delegate.moveToInsertRow();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void moveToCurrentRow() throws SQLException {
        try {
            delegate.moveToCurrentRow();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    // ---- Statement back-link (subclass supplies the wrapper) ----

    @Override
    public abstract Statement getStatement() throws SQLException;

    // ---- Typed, REF and LOB getters ----

    @Override
    public Object getObject(int columnIndex, Map<String, Class<?>> map) throws SQLException {
        try {
            return delegate.getObject(columnIndex, map);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public Ref getRef(int columnIndex) throws SQLException {
        try {
            return delegate.getRef(columnIndex);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public Blob getBlob(int columnIndex) throws SQLException {
        try {
            return delegate.getBlob(columnIndex);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public Clob getClob(int columnIndex) throws SQLException {
        try {
            return delegate.getClob(columnIndex);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public Array getArray(int columnIndex) throws SQLException {
        try {
            return delegate.getArray(columnIndex);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public Object getObject(String columnLabel, Map<String, Class<?>> map) throws SQLException {
        try {
            return delegate.getObject(columnLabel, map);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public Ref getRef(String columnLabel) throws SQLException {
        try {
            return delegate.getRef(columnLabel);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public Blob getBlob(String columnLabel) throws SQLException {
        try {
            return delegate.getBlob(columnLabel);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public Clob getClob(String columnLabel) throws SQLException {
        try {
            return delegate.getClob(columnLabel);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public Array getArray(String columnLabel) throws SQLException {
        try {
            return delegate.getArray(columnLabel);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    // ---- Calendar-aware getters ----

    @Override
    public Date getDate(int columnIndex, Calendar cal) throws SQLException {
        try {
            return delegate.getDate(columnIndex, cal);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public Date getDate(String columnLabel, Calendar cal) throws SQLException {
        try {
            return delegate.getDate(columnLabel, cal);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public Time getTime(int columnIndex, Calendar cal) throws SQLException {
        try {
            return delegate.getTime(columnIndex, cal);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public Time getTime(String columnLabel, Calendar cal) throws SQLException {
        try {
            return delegate.getTime(columnLabel, cal);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public Timestamp getTimestamp(int columnIndex, Calendar cal) throws SQLException {
        try {
            return delegate.getTimestamp(columnIndex, cal);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public Timestamp getTimestamp(String columnLabel, Calendar cal) throws SQLException {
        try {
            return delegate.getTimestamp(columnLabel, cal);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    // ---- URL getters, REF/LOB/ARRAY updaters ----

    @Override
    public URL getURL(int columnIndex) throws SQLException {
        try {
            return delegate.getURL(columnIndex);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public URL getURL(String columnLabel) throws SQLException {
        try {
            return delegate.getURL(columnLabel);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateRef(int columnIndex, Ref x) throws SQLException {
        try {
            delegate.updateRef(columnIndex, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateRef(String columnLabel, Ref x) throws SQLException {
        try {
            delegate.updateRef(columnLabel, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateBlob(int columnIndex, Blob x) throws SQLException {
        try {
            delegate.updateBlob(columnIndex, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateBlob(String columnLabel, Blob x) throws SQLException {
        try {
            delegate.updateBlob(columnLabel, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateClob(int columnIndex, Clob x) throws SQLException {
        try {
            delegate.updateClob(columnIndex, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateClob(String columnLabel, Clob x) throws SQLException {
        try {
            delegate.updateClob(columnLabel, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateArray(int columnIndex, Array x) throws SQLException {
        try {
            delegate.updateArray(columnIndex, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateArray(String columnLabel, Array x) throws SQLException {
        try {
            delegate.updateArray(columnLabel, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    // ---- RowId, holdability, national character and SQLXML ----

    @Override
    public RowId getRowId(int columnIndex) throws SQLException {
        try {
            return delegate.getRowId(columnIndex);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public RowId getRowId(String columnLabel) throws SQLException {
        try {
            return delegate.getRowId(columnLabel);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateRowId(int columnIndex, RowId x) throws SQLException {
        try {
            delegate.updateRowId(columnIndex, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateRowId(String columnLabel, RowId x) throws SQLException {
        try {
            delegate.updateRowId(columnLabel, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public int getHoldability() throws SQLException {
        try {
            return delegate.getHoldability();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public boolean isClosed() throws SQLException {
        try {
            return delegate.isClosed();
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateNString(int columnIndex, String nString) throws SQLException {
        try {
            delegate.updateNString(columnIndex, nString);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateNString(String columnLabel, String nString) throws SQLException {
        try {
            delegate.updateNString(columnLabel, nString);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateNClob(int columnIndex, NClob nClob) throws SQLException {
        try {
            delegate.updateNClob(columnIndex, nClob);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateNClob(String columnLabel, NClob nClob) throws SQLException {
        try {
            delegate.updateNClob(columnLabel, nClob);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public NClob getNClob(int columnIndex) throws SQLException {
        try {
            return delegate.getNClob(columnIndex);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public NClob getNClob(String columnLabel) throws SQLException {
        try {
            return delegate.getNClob(columnLabel);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public SQLXML getSQLXML(int columnIndex) throws SQLException {
        try {
            return delegate.getSQLXML(columnIndex);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public SQLXML getSQLXML(String columnLabel) throws SQLException {
        try {
            return delegate.getSQLXML(columnLabel);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateSQLXML(int columnIndex, SQLXML xmlObject) throws SQLException {
        try {
            delegate.updateSQLXML(columnIndex, xmlObject);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateSQLXML(String columnLabel, SQLXML xmlObject) throws SQLException {
        try {
            delegate.updateSQLXML(columnLabel, xmlObject);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public String getNString(int columnIndex) throws SQLException {
        try {
            return delegate.getNString(columnIndex);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public String getNString(String columnLabel) throws SQLException {
        try {
            return delegate.getNString(columnLabel);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public Reader getNCharacterStream(int columnIndex) throws SQLException {
        try {
            return delegate.getNCharacterStream(columnIndex);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public Reader getNCharacterStream(String columnLabel) throws SQLException {
        try {
            return delegate.getNCharacterStream(columnLabel);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    // ---- Stream and LOB updaters ----

    @Override
    public void updateNCharacterStream(int columnIndex, Reader x, long length) throws SQLException {
        try {
            delegate.updateNCharacterStream(columnIndex, x, length);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateNCharacterStream(String columnLabel, Reader x, long length)
            throws SQLException {
        try {
            delegate.updateNCharacterStream(columnLabel, x, length);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateAsciiStream(int columnIndex, InputStream x, long length) throws SQLException {
        try {
            delegate.updateAsciiStream(columnIndex, x, length);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateBinaryStream(int columnIndex, InputStream x, long length)
            throws SQLException {
        try {
            delegate.updateBinaryStream(columnIndex, x, length);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateCharacterStream(int columnIndex, Reader x, long length) throws SQLException {
        try {
            delegate.updateCharacterStream(columnIndex, x, length);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateAsciiStream(String columnLabel, InputStream x, long length)
            throws SQLException {
        try {
            delegate.updateAsciiStream(columnLabel, x, length);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateBinaryStream(String columnLabel, InputStream x, long length)
            throws SQLException {
        try {
            delegate.updateBinaryStream(columnLabel, x, length);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateCharacterStream(String columnLabel, Reader x, long length)
            throws SQLException {
        try {
            delegate.updateCharacterStream(columnLabel, x, length);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateBlob(int columnIndex, InputStream inputStream, long length)
            throws SQLException {
        try {
            delegate.updateBlob(columnIndex, inputStream, length);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateBlob(String columnLabel, InputStream inputStream, long length)
            throws SQLException {
        try {
            delegate.updateBlob(columnLabel, inputStream, length);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateClob(int columnIndex, Reader reader, long length) throws SQLException {
        try {
            delegate.updateClob(columnIndex, reader, length);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateClob(String columnLabel, Reader reader, long length) throws SQLException {
        try {
            delegate.updateClob(columnLabel, reader, length);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateNClob(int columnIndex, Reader reader, long length) throws SQLException {
        try {
            delegate.updateNClob(columnIndex, reader, length);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateNClob(String columnLabel, Reader reader, long length) throws SQLException {
        try {
            delegate.updateNClob(columnLabel, reader, length);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateNCharacterStream(int columnIndex, Reader x) throws SQLException {
        try {
            delegate.updateNCharacterStream(columnIndex, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateNCharacterStream(String columnLabel, Reader x) throws SQLException {
        try {
            delegate.updateNCharacterStream(columnLabel, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateAsciiStream(int columnIndex, InputStream x) throws SQLException {
        try {
            delegate.updateAsciiStream(columnIndex, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateBinaryStream(int columnIndex, InputStream x) throws SQLException {
        try {
            delegate.updateBinaryStream(columnIndex, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateCharacterStream(int columnIndex, Reader x) throws SQLException {
        try {
            delegate.updateCharacterStream(columnIndex, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateAsciiStream(String columnLabel, InputStream x) throws SQLException {
        try {
            delegate.updateAsciiStream(columnLabel, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateBinaryStream(String columnLabel, InputStream x) throws SQLException {
        try {
            delegate.updateBinaryStream(columnLabel, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateCharacterStream(String columnLabel, Reader x) throws SQLException {
        try {
            delegate.updateCharacterStream(columnLabel, x);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateBlob(int columnIndex, InputStream inputStream) throws SQLException {
        try {
            delegate.updateBlob(columnIndex, inputStream);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateBlob(String columnLabel, InputStream inputStream) throws SQLException {
        try {
            delegate.updateBlob(columnLabel, inputStream);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateClob(int columnIndex, Reader reader) throws SQLException {
        try {
            delegate.updateClob(columnIndex, reader);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateClob(String columnLabel, Reader reader) throws SQLException {
        try {
            delegate.updateClob(columnLabel, reader);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateNClob(int columnIndex, Reader reader) throws SQLException {
        try {
            delegate.updateNClob(columnIndex, reader);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateNClob(String columnLabel, Reader reader) throws SQLException {
        try {
            delegate.updateNClob(columnLabel, reader);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    // ---- Typed getObject ----

    @Override
    public <T> T getObject(int columnIndex, Class<T> type) throws SQLException {
        try {
            return delegate.getObject(columnIndex, type);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public <T> T getObject(String columnLabel, Class<T> type) throws SQLException {
        try {
            return delegate.getObject(columnLabel, type);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    // ---- SQLType updaters ----

    @Override
    public void updateObject(int columnIndex, Object x, SQLType targetSqlType, int scaleOrLength)
            throws SQLException {
        try {
            delegate.updateObject(columnIndex, x, targetSqlType, scaleOrLength);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateObject(String columnLabel, Object x, SQLType targetSqlType, int scaleOrLength)
            throws SQLException {
        try {
            delegate.updateObject(columnLabel, x, targetSqlType, scaleOrLength);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateObject(int columnIndex, Object x, SQLType targetSqlType) throws SQLException {
        try {
            delegate.updateObject(columnIndex, x, targetSqlType);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    @Override
    public void updateObject(String columnLabel, Object x, SQLType targetSqlType)
            throws SQLException {
        try {
            delegate.updateObject(columnLabel, x, targetSqlType);
        } catch (SQLException e) {
            throw translated(e);
        }
    }

    // ---- Wrapper ----

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("A MacroDB result unwraps only to itself, not to " + iface.getName() + ".",
                MacroSqlState.FEATURE_NOT_SUPPORTED);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
