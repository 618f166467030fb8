package io.macrodb.api;

import java.sql.SQLException;
import java.util.Set;

/**
 * Every SQLState that MacroDB itself raises, in one place. Engine errors pass through with the engine's own
 * state. Applications (and the benchmarks' retry loops) may retry a transaction that failed with a state in
 * {@link #RETRYABLE}.
 */
public final class MacroSqlState {

    /** A malformed MacroDB URL, or an engine MacroDB does not support. */
    public static final String INVALID_URL = "08001";
    /** Use of a connection after close, or after its cluster shut down. */
    public static final String CONNECTION_CLOSED = "08003";
    /** An unknown {@code macrodb.} key or a value outside what the key allows. */
    public static final String INVALID_OPTION = "22023";
    /** A write (or a sequence use) attempted in a read-only transaction; it reached no engine. */
    public static final String READ_ONLY_TRANSACTION = "25006";
    /** Read-only or isolation changed while a transaction is active. */
    public static final String INVALID_TRANSACTION_STATE = "25000";
    /**
     * A construct MacroDB cannot replicate exactly; refused before it ran. Class 0A (feature not supported) with a
     * subclass of MacroDB's own, not the bare 0A000: connection pools take 0A000 for a broken connection (HikariCP
     * evicts it), and a refused statement leaves the connection as usable as before.
     */
    public static final String NOT_REPLICABLE = "0AM01";
    /** A JDBC feature MacroDB does not support. */
    public static final String FEATURE_NOT_SUPPORTED = "0A000";
    /** A statement or result set used after close. */
    public static final String OBJECT_CLOSED = "HY010";
    /** The replica a transaction ran on was lost (failure, shutdown): run the transaction again. */
    public static final String REPLICA_LOST = "40M01";
    /** No slave caught up within the read wait timeout: run the transaction again. */
    public static final String READ_WAIT_TIMEOUT = "40M02";
    /**
     * An update transaction could not begin: update transactions are held while a slave is rebuilt from the master
     * (no healthy slave was left to copy) or promoted to master, and this took longer than
     * {@code macrodb.readWaitTimeoutMs}. Run it again.
     */
    public static final String UPDATES_HELD = "40M03";
    /** An operator call named a replica the cluster does not have. */
    public static final String NO_SUCH_REPLICA = "22023";
    /**
     * The engine threw an unchecked exception where JDBC promises an {@link SQLException} (the engine's is the cause),
     * and the replica's database is still there; where it is gone (seen: HSQLDB's {@code setSavepoint} on a session
     * whose database was shut down), {@link #REPLICA_LOST} is raised instead. Not class 08: the exception may be the
     * application's own (a {@code toString()} HSQLDB calls on a parameter), and pools evict a connection on 08.
     */
    public static final String ENGINE_FAILURE = "HYM01";
    /** The engine's own serialization failure or deadlock. */
    public static final String SERIALIZATION_FAILURE = "40001";

    /** States after which running the whole transaction again is the right response. */
    public static final Set<String> RETRYABLE = Set.of(REPLICA_LOST, READ_WAIT_TIMEOUT, UPDATES_HELD,
            SERIALIZATION_FAILURE);

    private MacroSqlState() {
    }

    /** True when {@code e} or one of its causes carries a retryable state. */
    public static boolean isRetryable(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s && s.getSQLState() != null && RETRYABLE.contains(s.getSQLState())) {
                return true;
            }
        }
        return false;
    }
}
