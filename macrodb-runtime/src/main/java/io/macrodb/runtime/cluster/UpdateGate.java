package io.macrodb.runtime.cluster;

import io.macrodb.api.MacroSqlState;

import java.sql.SQLException;
import java.sql.SQLTransientException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Lets update transactions begin, or holds them back while the master must stand still or is being replaced. A new
 * slave copied from the master (no healthy slave is left to copy from) needs the master's state at one version, and
 * on HSQLDB's default locking mode the copy's reads would wait for a writer's table locks while that writer's commit
 * waited for the copy: so new update transactions wait at the gate, the ones in flight finish, and the master is
 * copied with no writer at all. While a slave is promoted to master, new update transactions wait at the gate and
 * begin on the new master.
 *
 * <p>Open, the gate costs an update transaction two atomic counter updates and a volatile read. No lock: a
 * transaction counts itself in and then reads the gate; the closer shuts the gate and then reads the count.
 * Whichever comes second sees the other.
 */
final class UpdateGate {

    private static final long POLL_NANOS = 200_000L;

    private final AtomicInteger inFlight = new AtomicInteger();
    /**
     * How many hold the gate closed: a promotion is asked for (and holds it) as soon as the master's failure is
     * found, and may wait behind a copy of the master that closes it too; the gate opens when both have let go.
     */
    private final AtomicInteger closers = new AtomicInteger();

    /** Counts an update transaction in; waits while the gate is closed, for at most {@code timeoutMillis}. */
    void enter(long timeoutMillis) throws SQLException {
        long deadline = 0;
        while (true) {
            inFlight.incrementAndGet();
            if (closers.get() == 0) {
                return;
            }
            inFlight.decrementAndGet();
            if (deadline == 0) {
                deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
            }
            while (closers.get() > 0) {
                if (System.nanoTime() > deadline) {
                    throw new SQLTransientException("Update transactions were held for " + timeoutMillis + " ms "
                            + "while a slave was copied from the master or promoted to master; run the transaction "
                            + "again.", MacroSqlState.UPDATES_HELD);
                }
                LockSupport.parkNanos(this, POLL_NANOS);
            }
        }
    }

    void leave() {
        inFlight.decrementAndGet();
    }

    /** Update transactions begun and not ended now. */
    int inFlight() {
        return inFlight.get();
    }

    /**
     * Closes the gate and waits until no update transaction is in flight. Returns false, the gate open again, if
     * some are still running after {@code timeoutMillis} (an interactive transaction the client keeps open).
     */
    boolean closeAndDrain(long timeoutMillis) {
        close();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (inFlight.get() > 0) {
            if (System.nanoTime() > deadline) {
                open();
                return false;
            }
            LockSupport.parkNanos(this, POLL_NANOS);
        }
        return true;
    }

    /** Holds new update transactions back, without waiting for the ones in flight. Each close is opened once. */
    void close() {
        closers.incrementAndGet();
    }

    /** Lets go of one {@link #close}: update transactions begin again once no one else holds the gate closed. */
    void open() {
        closers.decrementAndGet();
    }
}
