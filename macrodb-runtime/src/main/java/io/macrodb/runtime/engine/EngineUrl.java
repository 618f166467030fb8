package io.macrodb.runtime.engine;

import io.macrodb.api.MacroSqlState;

import java.sql.SQLException;
import java.util.List;
import java.util.Locale;

/**
 * An embedded engine URL split into its parts: {@code h2:mem:shop;DB_CLOSE_DELAY=-1} is engine {@code h2}, kind
 * {@code mem}, name {@code shop}, settings {@code ;DB_CLOSE_DELAY=-1}. Derives the in-memory database of each slave.
 */
public record EngineUrl(String engine, String kind, String name, String settings) {

    /**
     * @param kinds the kinds of embedded database this engine has; the first is the default when none is written
     */
    public static EngineUrl parse(String engineUrl, String engine, List<String> kinds) throws SQLException {
        String rest = engineUrl.substring(engine.length() + 1);
        int semicolon = rest.indexOf(';');
        String database = semicolon < 0 ? rest : rest.substring(0, semicolon);
        String settings = semicolon < 0 ? "" : rest.substring(semicolon);
        String kind = kinds.get(0);
        int colon = database.indexOf(':');
        if (colon > 1) { // "c:/data" is a Windows path, not a kind
            kind = database.substring(0, colon).toLowerCase(Locale.ROOT);
            database = database.substring(colon + 1);
        }
        if (!kinds.contains(kind)) {
            throw new SQLException("MacroDB runs embedded engines only: '" + kind + ":' in '" + engineUrl
                    + "' is not one. Use one of " + kinds + ", for example " + engine + ":mem:shop.",
                    MacroSqlState.INVALID_URL);
        }
        if (database.isBlank()) {
            throw new SQLException("MacroDB needs a named database: '" + engineUrl + "' has none. Name it, for "
                    + "example " + engine + ":mem:shop.", MacroSqlState.INVALID_URL);
        }
        return new EngineUrl(engine, kind, database, settings);
    }

    public boolean inMemory() {
        return kind.equals("mem");
    }

    /**
     * The database this URL opens, however it is spelt: the engine, the kind and the name, a file's path made absolute
     * and normal ({@code ~} as the user's home, {@code ./} and {@code ../} resolved), as both engines read it. Two
     * URLs that open one database are one cluster: two clusters over one master each kept slaves the other's commits
     * never reached.
     */
    public String database() {
        if (inMemory()) {
            return engine + ":mem:" + name;
        }
        String path = name.startsWith("~") ? System.getProperty("user.home") + name.substring(1) : name;
        return engine + ":" + kind + ":" + java.nio.file.Path.of(path).toAbsolutePath().normalize();
    }

    /** The settings, as a set: their order, and the case of their keys, change nothing. */
    public java.util.Set<String> settingSet() {
        java.util.Set<String> set = new java.util.TreeSet<>();
        for (String setting : settings.split(";")) {
            if (!setting.isBlank()) {
                int eq = setting.indexOf('=');
                set.add(eq < 0 ? setting.strip().toUpperCase(Locale.ROOT)
                        : setting.substring(0, eq).strip().toUpperCase(Locale.ROOT) + "=" + setting.substring(eq + 1));
            }
        }
        return set;
    }

    /**
     * Replica 0 is the database as given (a file database stays durable where the user put it). Every other replica
     * is an in-memory database: the given name plus {@code _macrodb_r<index>}, where a file path is reduced to its
     * last part plus a hash of the whole path so that two files called {@code shop} do not share slaves.
     */
    public String replicaUrl(int index, String slaveSettings) {
        if (index == 0) {
            return "jdbc:" + engine + ":" + kind + ":" + name + settings;
        }
        String base = inMemory() ? name
                : name.replaceAll(".*[/\\\\]", "") + "_" + Integer.toHexString(name.hashCode());
        return "jdbc:" + engine + ":mem:" + base + "_macrodb_r" + index + slaveSettings;
    }
}
