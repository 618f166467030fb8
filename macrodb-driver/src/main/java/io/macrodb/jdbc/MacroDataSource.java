package io.macrodb.jdbc;

import io.macrodb.api.MacroSqlState;
import io.macrodb.runtime.config.MacroOption;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A {@link DataSource} for MacroDB, so pools can use {@code dataSourceClassName=io.macrodb.jdbc.MacroDataSource}
 * with {@code dataSource.url}, {@code dataSource.user}, {@code dataSource.password}. MacroDB options may stand in the
 * URL or be set with {@link #setOption}; a key in the URL wins (see {@link MacroOption}).
 */
public final class MacroDataSource implements DataSource {

    private final MacroDriver driver = new MacroDriver();
    private final Properties options = new Properties();
    private String url;
    private String user;
    private String password;
    private int loginTimeout;
    private PrintWriter logWriter;

    public String getUrl() {
        return url;
    }

    public void setUrl(String url) {
        this.url = url;
    }

    /** Same as {@link #setUrl}, for tools that use the JDBC-style property name. */
    public void setJdbcUrl(String url) {
        this.url = url;
    }

    public String getUser() {
        return user;
    }

    public void setUser(String user) {
        this.user = user;
    }

    public void setPassword(String password) {
        this.password = password;
    }

    /** Sets a MacroDB option by key, for example {@code setOption("macrodb.replicas", "4")}. */
    public void setOption(String key, String value) throws SQLException {
        options.setProperty(MacroOption.forKey(key).key(), value);
    }

    /** The {@code macrodb.replicas} option as a bean property. */
    public void setReplicas(int replicas) {
        options.setProperty(MacroOption.REPLICAS.key(), String.valueOf(replicas));
    }

    @Override
    public Connection getConnection() throws SQLException {
        return getConnection(user, password);
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
        if (url == null) {
            throw new SQLException("MacroDataSource has no URL: set it with setUrl(\"jdbc:macrodb:h2:mem:shop\").",
                    MacroSqlState.INVALID_URL);
        }
        Properties properties = new Properties();
        properties.putAll(options);
        if (user != null) {
            properties.setProperty("user", user);
        }
        if (password != null) {
            properties.setProperty("password", password);
        }
        Connection connection = driver.connect(url, properties);
        if (connection == null) {
            throw new SQLException("Not a MacroDB URL: '" + url + "'. Expected jdbc:macrodb:<engine-url>.",
                    MacroSqlState.INVALID_URL);
        }
        return connection;
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    @Override
    public void setLoginTimeout(int seconds) {
        this.loginTimeout = seconds;
    }

    @Override
    public int getLoginTimeout() {
        return loginTimeout;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return driver.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("MacroDataSource unwraps only to itself.", MacroSqlState.FEATURE_NOT_SUPPORTED);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
