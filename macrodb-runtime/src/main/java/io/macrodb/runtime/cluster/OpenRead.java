package io.macrodb.runtime.cluster;

import io.macrodb.api.MacroSqlState;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientException;

/**
 * A read-only transaction open on a replica, from {@link Cluster#beginRead} to {@link Cluster#endRead}. Recovery
 * may end it early ({@link #endEarly}): on an engine whose snapshot and {@code CREATE TRIGGER} wait until every
 * other session has ended its transaction (HSQLDB), a read-only transaction an application left open on a slave held
 * the copy of a new slave, or a promotion, for as long as it stayed open (found by a review, 2026-11-28).
 *
 * <p>Its statements run holding this object's lock ({@link #run}), so ending it early waits for a statement in
 * progress, and no statement begins on the engine after it: none can begin a new engine transaction that the copy
 * would wait for again.
 */
public final class OpenRead {

    private final Replica replica;
    private Connection engine; // guarded by this
    private volatile boolean endedEarly; // written holding this object's lock

    OpenRead(Replica replica) {
        this.replica = replica;
    }

    public Replica replica() {
        return replica;
    }

    /** Names the engine connection the transaction runs on, before its first statement. */
    public synchronized void runsOn(Connection engine) {
        this.engine = engine;
    }

    /** Runs one statement of the transaction; fails with the retryable 40M01 once it has been ended early. */
    public synchronized <T> T run(Work<T> statement) throws SQLException {
        checkNotEndedEarly();
        return statement.run();
    }

    /** Fails with the retryable 40M01 if recovery has ended this transaction. */
    public void checkNotEndedEarly() throws SQLException {
        if (endedEarly) {
            throw new SQLTransientException("MacroDB ended this read-only transaction on replica " + replica.index()
                    + ": it stayed open longer than macrodb.readWaitTimeoutMs while a new replica was copied from "
                    + "there, or the replica became the master. Roll back and run the transaction again; end "
                    + "transactions promptly.", MacroSqlState.REPLICA_LOST);
        }
    }

    public boolean endedEarly() {
        return endedEarly;
    }

    /**
     * Rolls the engine transaction back now; the transaction's next statement or commit fails with 40M01.
     *
     * @return false if it had been ended early already
     */
    synchronized boolean endEarly() {
        if (endedEarly) {
            return false;
        }
        endedEarly = true;
        if (engine != null) {
            try {
                engine.rollback();
            } catch (SQLException gone) {
                // a closed connection has no transaction left to wait for
            }
        }
        return true;
    }

    /** A statement's work on the engine. */
    @FunctionalInterface
    public interface Work<T> {
        T run() throws SQLException;
    }
}
