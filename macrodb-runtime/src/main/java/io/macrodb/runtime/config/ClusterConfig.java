package io.macrodb.runtime.config;

import io.macrodb.api.MacroSqlState;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.StringJoiner;

/**
 * A parsed MacroDB URL: the engine's own URL (MacroDB keys removed) plus every MacroDB option's value.
 *
 * <p>{@code jdbc:macrodb:h2:mem:shop;DB_CLOSE_DELAY=-1;macrodb.replicas=4} gives the engine URL
 * {@code h2:mem:shop;DB_CLOSE_DELAY=-1} and replicas = 4. A cluster is named by the database its engine URL opens
 * (see {@code ClusterRegistry}): connections to the same database join the same cluster, and must then ask for the
 * same options ({@link #sameOptions}), since one set of engines cannot have two replica counts.
 *
 * <p>H2's {@code INIT} setting (commands H2 runs at every connection it opens, {@code ;} written {@code \;}) is taken
 * out of the engine URL: H2 would run it on every replica's sessions, out of MacroDB's sight (a slave's own tables
 * then broke its copy). Each MacroDB connection runs it instead, through itself ({@link #init()}).
 */
public final class ClusterConfig {

    public static final String URL_PREFIX = "jdbc:macrodb:";

    private static final String INIT = "INIT=";

    private final String engineUrl;
    private final Map<MacroOption, Integer> values;
    private final String init;

    private ClusterConfig(String engineUrl, Map<MacroOption, Integer> values, String init) {
        this.engineUrl = engineUrl;
        this.values = values;
        this.init = init;
    }

    public static boolean accepts(String url) {
        return url != null && url.regionMatches(true, 0, URL_PREFIX, 0, URL_PREFIX.length());
    }

    /**
     * Parses a MacroDB URL. Options in the URL win over the same keys in {@code properties}; keys in
     * {@code properties} that do not start with {@code macrodb.} are left for the engine (user, password...).
     */
    public static ClusterConfig parse(String url, Properties properties) throws SQLException {
        if (!accepts(url)) {
            throw new SQLException("Not a MacroDB URL: '" + url + "'. Expected jdbc:macrodb:<engine-url>"
                    + "[;macrodb.<key>=<value>]..., for example jdbc:macrodb:h2:mem:shop;macrodb.replicas=4.",
                    MacroSqlState.INVALID_URL);
        }
        Map<MacroOption, String> raw = new EnumMap<>(MacroOption.class);
        if (properties != null) {
            for (String key : properties.stringPropertyNames()) {
                if (MacroOption.isMacroKey(key)) {
                    raw.put(MacroOption.forKey(key), properties.getProperty(key));
                }
            }
        }
        StringJoiner engine = new StringJoiner(";");
        String init = null;
        List<String> parts = settings(url.substring(URL_PREFIX.length()));
        for (int i = 0; i < parts.size(); i++) {
            String part = parts.get(i);
            if (i > 0 && part.regionMatches(true, 0, INIT, 0, INIT.length())) {
                init = part.substring(INIT.length()).replace("\\;", ";");
            } else if (i > 0 && MacroOption.isMacroKey(part.trim())) {
                int eq = part.indexOf('=');
                if (eq < 0) {
                    throw new SQLException("MacroDB option '" + part.trim() + "' in URL '" + url
                            + "' has no value: write it as key=value.", MacroSqlState.INVALID_URL);
                }
                raw.put(MacroOption.forKey(part.substring(0, eq).trim()), part.substring(eq + 1));
            } else if (i == 0 || !part.isEmpty()) {
                engine.add(part);
            }
        }
        String engineUrl = engine.toString();
        if (engineUrl.isBlank() || !engineUrl.contains(":")) {
            throw new SQLException("MacroDB URL '" + url + "' names no engine URL. Expected jdbc:macrodb:"
                    + "<engine-url>, for example jdbc:macrodb:h2:mem:shop or jdbc:macrodb:hsqldb:mem:shop.",
                    MacroSqlState.INVALID_URL);
        }
        Map<MacroOption, Integer> values = new EnumMap<>(MacroOption.class);
        for (MacroOption option : MacroOption.values()) {
            String value = raw.getOrDefault(option, option.defaultValue());
            values.put(option, option.parse(value));
        }
        return new ClusterConfig(engineUrl, values, init);
    }

    /** The URL's parts between semicolons, an escaped one ({@code \;}, inside H2's INIT) kept in its part. */
    private static List<String> settings(String url) {
        List<String> parts = new ArrayList<>();
        StringBuilder part = new StringBuilder();
        for (String piece : url.split(";", -1)) {
            part.append(piece);
            if (piece.endsWith("\\")) {
                part.append(';');
            } else {
                parts.add(part.toString());
                part.setLength(0);
            }
        }
        if (part.length() > 0) {
            parts.add(part.toString());
        }
        return parts;
    }

    /** H2's {@code INIT} commands, unescaped, for each connection to run through MacroDB; null when none. */
    public String init() {
        return init;
    }

    /** The engine's URL without {@code jdbc:} and without MacroDB keys, e.g. {@code h2:mem:shop}. */
    public String engineUrl() {
        return engineUrl;
    }

    public int get(MacroOption option) {
        return values.get(option);
    }

    public int replicas() {
        return get(MacroOption.REPLICAS);
    }

    public boolean sameOptions(ClusterConfig other) {
        return values.equals(other.values);
    }

    /** The normalised URL: the engine URL then every option, in declaration order. */
    @Override
    public String toString() {
        StringBuilder url = new StringBuilder(URL_PREFIX).append(engineUrl);
        values.forEach((option, value) -> url.append(';').append(option.key()).append('=').append(value));
        return url.toString();
    }
}
