package io.macrodb.runtime.config;

import io.macrodb.api.MacroSqlState;

import java.sql.SQLException;
import java.util.List;
import java.util.Locale;

/**
 * Every MacroDB setting, declared once: its key, type, default, allowed values and description.
 * {@code Driver.getPropertyInfo}, the DataSource's properties and the README's option table all come from here,
 * and a test keeps them honest.
 *
 * <p>Precedence, highest first: a {@code macrodb.} key in the URL, then the same key in the {@code Properties}
 * given to {@code DriverManager.getConnection} (or set on {@code MacroDataSource}), then the default.
 */
public enum MacroOption {

    REPLICAS("macrodb.replicas", "2", 1, 64,
            "Number of engines, master included. 1 runs the master alone (MacroDB's own overhead); "
                    + "read-only transactions then run on the master."),
    READ_WAIT_TIMEOUT_MS("macrodb.readWaitTimeoutMs", "30000", 1, Integer.MAX_VALUE,
            "How long a read-only transaction waits for a slave to reach the version it needs before it fails "
                    + "with the retryable SQLState 40M02."),
    APPLY_BATCH("macrodb.applyBatch", "16", 1, 10_000,
            "Most write sets an applier applies under one slave commit when they are already queued. "
                    + "1 commits every version on its own."),
    MAX_LAG("macrodb.maxLag", "1000", 1, Integer.MAX_VALUE,
            "Most versions a healthy slave may trail the master by when a commit returns. A commit that leaves a "
                    + "slave further behind waits (already committed, holding no lock) until it is back within the "
                    + "bound, or for at most macrodb.readWaitTimeoutMs: this bounds the queues' memory and how "
                    + "long a read-only transaction can wait for a slave."),
    PROBE_INTERVAL_MS("macrodb.probeIntervalMs", "1000", 0, Integer.MAX_VALUE,
            "How often every replica's database is checked with a trivial query, so that one lost while idle is "
                    + "replaced before a transaction meets it; on HSQLDB in MVCC mode it also wakes sessions HSQLDB "
                    + "left waiting for a lock nobody holds. 0 turns the probe off (failures are then found by the "
                    + "transactions and appliers that meet them).");

    private final String key;
    private final String defaultValue;
    private final long min;
    private final long max;
    private final String description;

    MacroOption(String key, String defaultValue, long min, long max, String description) {
        this.key = key;
        this.defaultValue = defaultValue;
        this.min = min;
        this.max = max;
        this.description = description;
    }

    public static final String PREFIX = "macrodb.";

    public String key() {
        return key;
    }

    public String defaultValue() {
        return defaultValue;
    }

    public String description() {
        return description;
    }

    /** The allowed values, in words, as shown to users. */
    public String allowed() {
        return "an integer from " + min + " to " + (max == Integer.MAX_VALUE ? "2147483647" : max);
    }

    /** Parses {@code raw} as this option's value; names the key, the value and what is allowed when it fails. */
    public int parse(String raw) throws SQLException {
        try {
            long value = Long.parseLong(raw.trim());
            if (value >= min && value <= max) {
                return (int) value;
            }
        } catch (NumberFormatException ignored) {
            // reported below with the allowed range
        }
        throw new SQLException("MacroDB option " + key + "=" + raw + " is not valid: expected " + allowed() + ".",
                MacroSqlState.INVALID_OPTION);
    }

    /** The option with this key (matched without regard to case), or an error listing the known keys. */
    public static MacroOption forKey(String key) throws SQLException {
        for (MacroOption option : values()) {
            if (option.key.equalsIgnoreCase(key)) {
                return option;
            }
        }
        throw new SQLException("Unknown MacroDB option '" + key + "'. Known options: " + knownKeys() + ".",
                MacroSqlState.INVALID_OPTION);
    }

    public static List<String> knownKeys() {
        return java.util.Arrays.stream(values()).map(MacroOption::key).toList();
    }

    static boolean isMacroKey(String key) {
        return key.toLowerCase(Locale.ROOT).startsWith(PREFIX);
    }
}
