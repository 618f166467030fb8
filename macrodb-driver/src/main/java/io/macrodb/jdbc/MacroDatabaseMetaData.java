package io.macrodb.jdbc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;

/** The master engine's metadata, reporting MacroDB as the driver and the MacroDB URL and connection. */
final class MacroDatabaseMetaData extends ForwardingDatabaseMetaData {

    private final MacroConnection connection;

    MacroDatabaseMetaData(MacroConnection connection, DatabaseMetaData delegate) {
        super(delegate);
        this.connection = connection;
    }

    @Override
    public Connection getConnection() {
        return connection;
    }

    @Override
    protected ResultSet wrap(ResultSet rs) {
        return rs == null ? null : new MacroResultSet(rs, null, null);
    }

    @Override
    public String getURL() {
        return connection.url();
    }

    @Override
    public String getDriverName() {
        return "MacroDB over " + connection.cluster().engine();
    }

    @Override
    public String getDriverVersion() {
        return MacroDriver.VERSION;
    }

    @Override
    public int getDriverMajorVersion() {
        return MacroDriver.MAJOR_VERSION;
    }

    @Override
    public int getDriverMinorVersion() {
        return MacroDriver.MINOR_VERSION;
    }
}
