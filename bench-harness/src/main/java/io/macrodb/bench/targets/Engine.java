package io.macrodb.bench.targets;

import java.util.Locale;

/**
 * The embedded engine behind a JDBC URL, with what the harness needs to know about it: how to recognise its URL,
 * how to shut a database down, and which version is on the class path. Workloads use it to pick a DDL dialect.
 */
public enum Engine {
    H2("h2") {
        @Override
        public String version() {
            return org.h2.engine.Constants.FULL_VERSION;
        }
    },
    HSQLDB("hsqldb") {
        @Override
        public String version() {
            return org.hsqldb.persist.HsqlDatabaseProperties.THIS_FULL_VERSION;
        }
    };

    private static final String JDBC = "jdbc:";
    private static final String MACRODB = "macrodb:";

    private final String urlPrefix;

    Engine(String urlPrefix) {
        this.urlPrefix = urlPrefix;
    }

    /** The lower-case name used in URLs, presets and DDL resource names ({@code h2}, {@code hsqldb}). */
    public String id() {
        return urlPrefix;
    }

    /** The engine version on the class path. */
    public abstract String version();

    /** The statement that closes a database and frees its memory. */
    public String shutdownStatement() {
        return "SHUTDOWN";
    }

    /**
     * The engine of a JDBC URL, looking through a {@code jdbc:macrodb:} prefix.
     *
     * @throws IllegalArgumentException for a URL of an engine the harness does not know
     */
    public static Engine ofUrl(String jdbcUrl) {
        String rest = jdbcUrl.toLowerCase(Locale.ROOT);
        if (!rest.startsWith(JDBC)) {
            throw new IllegalArgumentException("not a JDBC URL: " + jdbcUrl);
        }
        rest = rest.substring(JDBC.length());
        if (rest.startsWith(MACRODB)) {
            rest = rest.substring(MACRODB.length());
        }
        for (Engine e : values()) {
            if (rest.startsWith(e.urlPrefix + ":")) {
                return e;
            }
        }
        throw new IllegalArgumentException("unsupported engine in " + jdbcUrl + "; supported: h2, hsqldb"
                + " (optionally behind jdbc:macrodb:)");
    }

    /** Whether the URL goes through MacroDB. */
    public static boolean isMacroDb(String jdbcUrl) {
        return jdbcUrl.toLowerCase(Locale.ROOT).startsWith(JDBC + MACRODB);
    }
}
