package io.macrodb.runtime.cluster;

import io.macrodb.api.MacroSqlState;
import io.macrodb.api.ReplicaHealth;
import io.macrodb.api.ReplicaRole;

import java.sql.SQLException;
import java.sql.SQLTransientException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * One engine's database and the paper's per-replica state: its version (an atomic commit counter any thread may
 * read), how many transactions run on it, and its health.
 *
 * <p>Waiting for a version parks the reader until the replica reaches that version ({@link VersionWaiters}): the
 * applier's common path is one atomic write and one emptiness check, and a waiting reader burns no core.
 */
public final class Replica {

    private final int index;
    private final String jdbcUrl;
    private final AtomicLong version = new AtomicLong();
    private final AtomicInteger active = new AtomicInteger();
    private final Set<OpenRead> openReads = ConcurrentHashMap.newKeySet();
    private final LongAdder routed = new LongAdder();
    private final LongAdder applied = new LongAdder();
    private final LongAdder applyNanos = new LongAdder();
    private final LongAdder applyCpuNanos = new LongAdder();
    private final VersionWaiters waiters = new VersionWaiters();
    private volatile ReplicaRole role;
    private final AtomicReference<ReplicaHealth> health;
    private volatile boolean paused;
    private volatile Applier applier;

    Replica(int index, String jdbcUrl, ReplicaRole role, ReplicaHealth health) {
        this.index = index;
        this.jdbcUrl = jdbcUrl;
        this.role = role;
        this.health = new AtomicReference<>(health);
    }

    public int index() {
        return index;
    }

    public String jdbcUrl() {
        return jdbcUrl;
    }

    public ReplicaRole role() {
        return role;
    }

    void setRole(ReplicaRole role) {
        this.role = role;
    }

    public ReplicaHealth health() {
        return health.get();
    }

    public boolean isHealthy() {
        return health.get() == ReplicaHealth.HEALTHY;
    }

    /** Failed or closed: it will never reach another version, and nothing it holds is trusted. */
    public boolean isLost() {
        ReplicaHealth now = health.get();
        return now == ReplicaHealth.FAILED || now == ReplicaHealth.CLOSED;
    }

    /**
     * Healthy and not paused: it may take new read-only transactions, and commits wait for it to keep within
     * {@code macrodb.maxLag}. A slave whose applier is paused (a new slave is being copied from it) falls behind on
     * purpose for a while, and stays out until it has caught up again: sending readers to it, or holding commits
     * back for it, would make both wait for the copy and then for its backlog.
     */
    boolean isRoutable() {
        return isHealthy() && !paused;
    }

    boolean isPaused() {
        return paused;
    }

    /** Pausing wakes whoever waits for this replica, so that they can go elsewhere (see awaitVersionWhileRoutable). */
    void setPaused(boolean paused) {
        this.paused = paused;
        if (paused) {
            waiters.wakeAll();
        }
    }

    public long version() {
        return version.get();
    }

    public int activeTransactions() {
        return active.get();
    }

    Applier applier() {
        return applier;
    }

    void attach(Applier applier) {
        this.applier = applier;
    }

    void enter() {
        active.incrementAndGet();
    }

    /** A read-only transaction begins here (counted in by {@link #enter} already). */
    OpenRead opened() {
        var read = new OpenRead(this);
        openReads.add(read);
        return read;
    }

    void closed(OpenRead read) {
        openReads.remove(read);
    }

    /** The read-only transactions open here now. */
    List<OpenRead> openReads() {
        return List.copyOf(openReads);
    }

    /** Whether {@code read} is still open here and has not been ended early. */
    boolean isRunning(OpenRead read) {
        return !read.endedEarly() && openReads.contains(read);
    }

    void routedRead() {
        routed.increment();
    }

    void applied(int writeSets, long nanos, long cpuNanos) {
        applied.add(writeSets);
        applyNanos.add(nanos);
        applyCpuNanos.add(cpuNanos);
    }

    /** A new slave taking {@code replaced}'s place continues its totals, so that counters never go down. */
    void carryOverTotals(Replica replaced) {
        routed.add(replaced.routed.sum());
        applied.add(replaced.applied.sum());
        applyNanos.add(replaced.applyNanos.sum());
        applyCpuNanos.add(replaced.applyCpuNanos.sum());
    }

    io.macrodb.api.ClusterMetrics.Replica metrics() {
        return new io.macrodb.api.ClusterMetrics.Replica(index, routed.sum(), applied.sum(), applyNanos.sum(),
                applyCpuNanos.sum());
    }

    void leave() {
        active.decrementAndGet();
    }

    /** Publishes one more version and returns it: for a master with no slave, whose commits take no lock. */
    long advanceByOne() {
        long v = version.incrementAndGet();
        waiters.reached(v);
        return v;
    }

    /** Publishes that every version up to {@code v} is committed here, and wakes readers waiting for it. */
    void advanceTo(long v) {
        version.set(v);
        waiters.reached(v);
    }

    void setHealth(ReplicaHealth health) {
        this.health.set(health);
        waiters.wakeAll();
    }

    /**
     * Marks this replica failed and returns its health before, or null if it was lost already: an applier that
     * crashes and an operator who fails the replica on purpose may race, and the failure is handled once.
     */
    ReplicaHealth fail() {
        ReplicaHealth now;
        do {
            now = health.get();
            if (now == ReplicaHealth.FAILED || now == ReplicaHealth.CLOSED) {
                return null;
            }
        } while (!health.compareAndSet(now, ReplicaHealth.FAILED));
        waiters.wakeAll();
        return now;
    }

    /** A new slave that has caught up joins routing; false if it failed meanwhile. */
    boolean join() {
        return health.compareAndSet(ReplicaHealth.CATCHING_UP, ReplicaHealth.HEALTHY);
    }

    /**
     * Blocks until this replica has applied version {@code v}; fails (retryable) on timeout or replica loss.
     *
     * @return how long it waited, in nanoseconds (0 when the replica was already there)
     */
    long awaitVersion(long v, long timeoutMillis) throws SQLException {
        return await(v, timeoutMillis, false);
    }

    /**
     * As {@link #awaitVersion}, but gives up, returning -1, as soon as this replica is paused (a new slave is being
     * copied from it): a reader then goes to another replica, and a commit held back by flow control stops waiting.
     */
    long awaitVersionWhileRoutable(long v, long timeoutMillis) throws SQLException {
        return await(v, timeoutMillis, true);
    }

    private long await(long v, long timeoutMillis, boolean whileRoutable) throws SQLException {
        if (version.get() >= v) {
            return 0;
        }
        long start = System.nanoTime();
        long deadline = start + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        VersionWaiters.Waiter waiter = waiters.enter(v);
        try {
            while (version.get() < v) {
                if (whileRoutable && paused) {
                    return -1;
                }
                if (isLost()) {
                    throw new SQLTransientException("Replica " + index + " failed while a transaction waited for it; "
                            + "run the transaction again.", MacroSqlState.REPLICA_LOST);
                }
                long nanos = deadline - System.nanoTime();
                if (nanos <= 0) {
                    throw new SQLTransientException("Replica " + index + " did not reach version " + v + " within "
                            + timeoutMillis + " ms (it is at " + version.get() + "); run the transaction again or "
                            + "raise macrodb.readWaitTimeoutMs.", MacroSqlState.READ_WAIT_TIMEOUT);
                }
                LockSupport.parkNanos(this, nanos);
                if (Thread.interrupted()) {
                    Thread.currentThread().interrupt();
                    throw new SQLTransientException("Interrupted while waiting for replica " + index
                            + " to reach version " + v, MacroSqlState.READ_WAIT_TIMEOUT);
                }
            }
            return System.nanoTime() - start;
        } finally {
            waiters.leave(waiter);
        }
    }

    @Override
    public String toString() {
        return "replica " + index + " (" + role + ", " + health.get() + ", version " + version.get() + ")";
    }
}
