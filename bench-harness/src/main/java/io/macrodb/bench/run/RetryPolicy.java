package io.macrodb.bench.run;

import io.macrodb.api.MacroSqlState;

import java.sql.SQLException;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which failures a client runs its transaction again after, and how many times at most: an explicit list of
 * SQLStates, matched against the exception, its causes and its chained next exceptions.
 *
 * @param sqlStates   the retryable states
 * @param maxAttempts attempts per transaction before the failure counts as an error (at least 1)
 */
public record RetryPolicy(Set<String> sqlStates, int maxAttempts) {

    /** Serialization failure or deadlock (H2, HSQLDB and the SQL standard). */
    public static final String SERIALIZATION_FAILURE = "40001";
    /** Deadlock detected (PostgreSQL's state; some engines and drivers reuse it). */
    public static final String DEADLOCK = "40P01";
    /** H2's lock timeout. */
    public static final String H2_LOCK_TIMEOUT = "HYT00";
    /**
     * H2's "concurrent update": a row another transaction holds, where H2 gave up without waiting for its lock. H2
     * throws it as a {@code SQLTransientException} (retrying may succeed) and retries it itself only for some
     * statements.
     */
    public static final String H2_CONCURRENT_UPDATE = "90131";

    public RetryPolicy {
        sqlStates = Set.copyOf(sqlStates);
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1: " + maxAttempts);
        }
    }

    /** MacroDB's documented retryable states plus the engines' serialization, deadlock, lock-timeout and conflict states. */
    public static RetryPolicy standard() {
        var states = new TreeSet<>(MacroSqlState.RETRYABLE);
        states.add(SERIALIZATION_FAILURE);
        states.add(DEADLOCK);
        states.add(H2_LOCK_TIMEOUT);
        states.add(H2_CONCURRENT_UPDATE);
        return new RetryPolicy(states, 100);
    }

    /** Whether {@code e} (or a cause, or a chained exception) carries a state on the list. */
    public boolean isRetryable(SQLException e) {
        for (SQLException s = e; s != null; s = s.getNextException()) {
            for (Throwable t = s; t != null; t = t.getCause()) {
                if (t instanceof SQLException q && q.getSQLState() != null && sqlStates.contains(q.getSQLState())) {
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return new TreeSet<>(sqlStates) + ", at most " + maxAttempts + " attempts";
    }
}
