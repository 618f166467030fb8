package io.macrodb.bench.run;

import io.macrodb.api.MacroSqlState;

import java.sql.SQLException;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which failures a client runs its transaction again after, and how many times at most: an explicit list of
 * SQLStates, matched against the exception, its causes and its chained next exceptions, plus one engine fault that
 * has no state of its own: H2 2.5's general error (50000, {@code HY000}) naming a transaction's {@code ROLLING_BACK}
 * status, which a statement waiting for a row lock can get when the transaction holding it rolls back. The statement
 * fails as a lock conflict would (H2 alone gets it too; MacroDB's end-to-end tests met it first, and a harness test
 * whose clients roll back on purpose failed with an error that is not retryable once in CI, 2026-11-28).
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
    /** H2's error code (not state) for a general error. */
    private static final int H2_GENERAL_ERROR = 50000;

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
                if (t instanceof SQLException q && (q.getSQLState() != null && sqlStates.contains(q.getSQLState())
                        || isH2RollbackRace(q))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean isH2RollbackRace(SQLException e) {
        return e.getErrorCode() == H2_GENERAL_ERROR && String.valueOf(e.getMessage()).contains("ROLLING_BACK");
    }

    @Override
    public String toString() {
        return new TreeSet<>(sqlStates) + " and H2's rollback race, at most " + maxAttempts + " attempts";
    }
}
