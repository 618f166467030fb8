package io.macrodb.bench.run;

import io.macrodb.bench.ClientContext;
import io.macrodb.bench.Mix;
import io.macrodb.bench.TransactionType;
import io.macrodb.bench.UserAbortException;
import io.macrodb.bench.Workload;
import io.macrodb.bench.WorkloadClient;
import io.macrodb.bench.result.LatencyHistogram;
import io.macrodb.bench.result.TypeResult;
import io.macrodb.bench.targets.Database;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One client thread. It owns the transaction boundary, as BenchBase's Worker does: it draws a type from the mix,
 * sets the read-only flag before the transaction's first statement, lets the {@link WorkloadClient} run the
 * statements, commits, and on failure rolls back and runs the transaction again while the SQLState is on the retry
 * list. It then clears the read-only flag, so MacroDB sees each read-only transaction begin and end. Only
 * transactions that end inside the measured window are counted; latency includes retries.
 */
final class Worker implements Runnable {

    /**
     * Each transaction's CPU time on its client thread (the master's cost of it, for the apply cost ratio) and the
     * heap it allocated there (HotSpot's extension of the bean; where it is missing, nothing is counted).
     */
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final com.sun.management.ThreadMXBean ALLOCATIONS =
            THREADS instanceof com.sun.management.ThreadMXBean b && b.isThreadAllocatedMemorySupported() ? b : null;

    private final int index;
    private final int count;
    private final Workload workload;
    private final Database database;
    private final Mix mix;
    private final long seed;
    private final RetryPolicy retryPolicy;
    private final ThinkTimes thinkTimes;
    private final MeasurementWindow window;
    private final LiveCounters live;
    private final ErrorLog errors;
    private final SplittableRandom mixRandom;
    private final SplittableRandom clientRandom;
    private final Map<TransactionType, Tally> tallies = new IdentityHashMap<>();

    /** The thread running this client, set by the trial before it starts. */
    Thread thread;
    private Connection connection;
    private WorkloadClient client;

    Worker(int index, int count, Workload workload, Database database, Mix mix, RunConfig config,
           MeasurementWindow window, LiveCounters live, ErrorLog errors) {
        this.index = index;
        this.count = count;
        this.workload = workload;
        this.database = database;
        this.mix = mix;
        this.seed = config.seed();
        this.retryPolicy = config.retryPolicy();
        this.thinkTimes = config.thinkTimes();
        this.window = window;
        this.live = live;
        this.errors = errors;
        // Seeded from the run's seed and the client's number only: every target sees the same inputs.
        var streams = new SplittableRandom(config.seed() * 31 + index);
        this.mixRandom = streams.split();
        this.clientRandom = streams.split();
        for (TransactionType t : workload.transactionTypes()) {
            tallies.put(t, new Tally());
        }
    }

    /** Opens the connection and the client; called before the thread starts, so failures surface at once. */
    void open() throws SQLException {
        connection = database.connect();
        try {
            client = workload.newClient(new ClientContext(index, count, connection, clientRandom), seed);
        } catch (SQLException | RuntimeException e) {
            closeQuietly();
            throw e;
        }
    }

    @Override
    public void run() {
        try {
            while (!window.stopped()) {
                TransactionType type = client.next(mix, mixRandom);
                if (thinkTimes == ThinkTimes.SPEC && !window.pause(type.keyingTime())) {
                    break;
                }
                runOne(type);
                if (thinkTimes == ThinkTimes.SPEC && !window.pause(thinkTime(type.meanThinkTime()))) {
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            errors.add("client " + index + " stopped", t);
            live.errors.increment();
        } finally {
            closeQuietly();
        }
    }

    /**
     * Waits a random time before a retry, up to 1 ms after the first failure, doubling per attempt, at most 50 ms:
     * transactions that deadlocked and retry at once tend to deadlock again (HSQLDB's table locks with 128 TPC-W
     * browsers exhausted 100 immediate attempts). Drawn from ThreadLocalRandom, so the workload's seeded streams
     * stay the same for every target.
     */
    private static void backOff(int attempt) {
        long maxMicros = Math.min(1_000L << Math.min(attempt - 1, 6), 50_000L);
        java.util.concurrent.locks.LockSupport.parkNanos(
                java.util.concurrent.ThreadLocalRandom.current().nextLong(maxMicros + 1) * 1_000L);
    }

    private void runOne(TransactionType type) throws SQLException {
        Tally tally = tallies.get(type);
        if (tally == null) {
            throw new IllegalStateException("mix " + mix.name() + " drew " + type.displayName()
                    + ", which is not among the workload's transaction types");
        }
        long start = System.nanoTime();
        long cpuStart = THREADS.getCurrentThreadCpuTime();
        long allocatedStart = allocatedByThisThread();
        long retries = 0;
        boolean userAbort = false;
        for (int attempt = 1; ; attempt++) {
            try {
                if (type.readOnly()) {
                    connection.setReadOnly(true);
                }
                client.execute(type);
                connection.commit();
                clearReadOnly(type);
                client.committed(type);
                break;
            } catch (UserAbortException e) {
                rollbackOrReconnect(type);
                userAbort = true;
                break;
            } catch (SQLException e) {
                rollbackOrReconnect(type);
                if (retryPolicy.isRetryable(e) && attempt < retryPolicy.maxAttempts()) {
                    retries++;
                    live.retries.increment();
                    backOff(attempt);
                    continue;
                }
                String why = retryPolicy.isRetryable(e) ? "gave up after " + attempt + " attempts" : "not retryable";
                errors.add(type.displayName() + " failed on client " + index + " (" + why + ", SQLState "
                        + e.getSQLState() + ")", e);
                live.errors.increment();
                return;
            }
        }
        long end = System.nanoTime();
        live.completed.increment();
        if (userAbort) {
            live.userAborts.increment();
        }
        if (window.counts(end)) {
            tally.completed++;
            tally.retries += retries;
            if (userAbort) {
                tally.userAborts++;
            }
            tally.latency.record(end - start);
            tally.cpuNanos += THREADS.getCurrentThreadCpuTime() - cpuStart;
            tally.allocatedBytes += allocatedByThisThread() - allocatedStart;
        }
    }

    private static long allocatedByThisThread() {
        return ALLOCATIONS == null ? 0 : ALLOCATIONS.getCurrentThreadAllocatedBytes();
    }

    private void clearReadOnly(TransactionType type) throws SQLException {
        if (type.readOnly()) {
            connection.setReadOnly(false);
        }
    }

    /** Rolls back; if the connection is broken, the same client goes on over a new one ({@link WorkloadClient#reconnect}). */
    private void rollbackOrReconnect(TransactionType type) throws SQLException {
        try {
            connection.rollback();
            clearReadOnly(type);
        } catch (SQLException broken) {
            Connection old = connection;
            connection = database.connect();
            try {
                client.reconnect(connection);
            } finally {
                closeQuietly(old);
            }
        }
    }

    private Duration thinkTime(Duration mean) {
        if (mean.isZero()) {
            return Duration.ZERO;
        }
        double u = 1.0 - mixRandom.nextDouble(); // (0, 1]
        double nanos = Math.min(-Math.log(u), 10.0) * mean.toNanos();
        return Duration.ofNanos((long) nanos);
    }

    /** Closes the client and its connection, ignoring failures (the database is shut down next). */
    void closeQuietly() {
        try {
            if (client != null) {
                client.close();
            }
        } catch (SQLException | RuntimeException ignored) {
            // the connection goes next; nothing else holds these statements
        }
        closeQuietly(connection);
        client = null;
        connection = null;
    }

    private static void closeQuietly(Connection connection) {
        try {
            if (connection != null) {
                connection.close();
            }
        } catch (SQLException | RuntimeException ignored) {
            // closing after a failure or at shutdown; the database is shut down next
        }
    }

    /** The measured figures per type, in the workload's display order. */
    List<TypeResult> results() {
        var out = new ArrayList<TypeResult>();
        for (TransactionType t : workload.transactionTypes()) {
            Tally tally = tallies.get(t);
            out.add(new TypeResult(t.displayName(), t.readOnly(), tally.completed, tally.userAborts, tally.retries,
                    tally.latency, tally.cpuNanos, tally.allocatedBytes));
        }
        return out;
    }

    private static final class Tally {
        long completed;
        long userAborts;
        long retries;
        final LatencyHistogram latency = new LatencyHistogram();
        long cpuNanos;
        long allocatedBytes;
    }
}
