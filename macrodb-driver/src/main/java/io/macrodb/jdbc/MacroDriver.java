package io.macrodb.jdbc;

import io.macrodb.runtime.cluster.Cluster;
import io.macrodb.runtime.cluster.ClusterRegistry;
import io.macrodb.runtime.config.ClusterConfig;
import io.macrodb.runtime.config.MacroOption;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * The MacroDB JDBC driver, for URLs {@code jdbc:macrodb:<engine-url>[;macrodb.<key>=<value>]...}. Registered with
 * {@link DriverManager} through {@code META-INF/services/java.sql.Driver}; no {@code Class.forName} is needed.
 *
 * <p>{@link #connect} answers null for a URL that is not MacroDB's (as JDBC asks), and otherwise either returns a
 * connection or fails with a message naming what is wrong: a malformed URL (08001), an unknown {@code macrodb.} key
 * or a bad value (22023), or an engine MacroDB does not support (08001).
 */
public final class MacroDriver implements Driver {

    public static final int MAJOR_VERSION = 0;
    public static final int MINOR_VERSION = 1;
    public static final String VERSION = MAJOR_VERSION + "." + MINOR_VERSION;

    static {
        try {
            DriverManager.registerDriver(new MacroDriver());
        } catch (SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return null;
        }
        Properties properties = info == null ? new Properties() : info;
        ClusterConfig config = ClusterConfig.parse(url, properties);
        Properties engineProperties = engineProperties(properties);
        Cluster cluster = ClusterRegistry.join(config, engineProperties);
        MacroConnection connection = new MacroConnection(cluster, url, engineProperties);
        if (config.init() != null) { // H2's INIT, run by each connection as H2 runs it, but through MacroDB
            try {
                connection.runStatements(cluster.engineSupport().statementsOf(config.init()));
            } catch (SQLException | RuntimeException e) {
                connection.close();
                throw e;
            }
        }
        return connection;
    }

    /** The properties the engines see: everything given except MacroDB's own keys. */
    static Properties engineProperties(Properties given) {
        Properties engine = new Properties();
        for (String key : given.stringPropertyNames()) {
            if (!key.toLowerCase(java.util.Locale.ROOT).startsWith(MacroOption.PREFIX)) {
                engine.setProperty(key, given.getProperty(key));
            }
        }
        return engine;
    }

    @Override
    public boolean acceptsURL(String url) {
        return ClusterConfig.accepts(url);
    }

    /** One entry per {@link MacroOption}: key, current value (from the URL and properties), description. */
    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) throws SQLException {
        ClusterConfig config = acceptsURL(url) ? ClusterConfig.parse(url, info == null ? new Properties() : info)
                : null;
        MacroOption[] options = MacroOption.values();
        DriverPropertyInfo[] infos = new DriverPropertyInfo[options.length];
        for (int i = 0; i < options.length; i++) {
            MacroOption option = options[i];
            String value = config == null ? option.defaultValue() : String.valueOf(config.get(option));
            DriverPropertyInfo property = new DriverPropertyInfo(option.key(), value);
            property.description = option.description() + " Default " + option.defaultValue() + "; "
                    + option.allowed() + ".";
            property.required = false;
            infos[i] = property;
        }
        return infos;
    }

    @Override
    public int getMajorVersion() {
        return MAJOR_VERSION;
    }

    @Override
    public int getMinorVersion() {
        return MINOR_VERSION;
    }

    /** Not fully compliant: MacroDB supports what the engines do, minus what it documents as refused. */
    @Override
    public boolean jdbcCompliant() {
        return false;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return Logger.getLogger("io.macrodb");
    }
}
