package io.macrodb.runtime.cluster;

import io.macrodb.api.MacroSqlState;
import io.macrodb.runtime.engine.Engine;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs the engine's {@link Engine#aliveQuery() alive query} on every healthy replica every
 * {@code macrodb.probeIntervalMs}, each on a connection of its own opened with the replica, and hands an error that
 * says the database is gone to the recovery, as a transaction meeting it would. Without it a replica lost while idle
 * (no write set for its applier, no reader on it) would be found only by the next transaction sent to it, which
 * would then fail instead of going elsewhere.
 *
 * <p>Each probe also ends the waits for a lock nobody holds that the engine may leave behind
 * ({@link Engine#releaseStaleLockWaits}): HSQLDB's MVCC mode can leave a writer waiting for a session whose
 * transaction has already ended, until that session ends another (never, if it was closed); the probe is the one
 * thing that visits every replica now and then.
 *
 * <p>The probe connection is opened when the replica's database is (a new in-memory database would otherwise be
 * created under a lost one's name, and the probe would find it alive). It holds no lock (each probe rolls back at
 * once), and the probe's connections are closed before the cluster shuts its databases down.
 */
final class HealthProbe {

    private static final Logger LOG = Logger.getLogger(HealthProbe.class.getName());
    /** One thread probes every cluster in the JVM: a probe is a query that touches no table, over in microseconds. */
    private static final ScheduledExecutorService SCHEDULER = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "macrodb-probe");
        thread.setDaemon(true);
        return thread;
    });

    private final Cluster cluster;
    private final Engine engine;
    private final long intervalMillis;
    private final Map<Replica, Connection> connections = new ConcurrentHashMap<>();
    private ScheduledFuture<?> schedule;
    private boolean stopped;

    /** @param intervalMillis how often to probe; 0: never (no connections are opened) */
    HealthProbe(Cluster cluster, Engine engine, long intervalMillis) {
        this.cluster = cluster;
        this.engine = engine;
        this.intervalMillis = intervalMillis;
    }

    /** Opens the probe's connection to {@code replica}, whose database has just been opened. */
    synchronized void watch(Replica replica) throws SQLException {
        if (intervalMillis > 0 && !stopped) {
            connections.put(replica, cluster.openPhysical(replica));
        }
    }

    /** Stops probing {@code replica} (taken out of the cluster) and closes its connection. */
    void forget(Replica replica) {
        closeQuietly(connections.remove(replica));
    }

    synchronized void start() {
        if (intervalMillis > 0 && !stopped) {
            schedule = SCHEDULER.scheduleWithFixedDelay(this::probeAll, intervalMillis, intervalMillis,
                    TimeUnit.MILLISECONDS);
        }
    }

    /** Stops probing, waits for a probe running now, and closes every probe connection. */
    void stop() {
        synchronized (this) {
            stopped = true;
            if (schedule != null) {
                schedule.cancel(false);
            }
        }
        synchronized (connections) { // a probe running now holds this lock
            connections.values().forEach(HealthProbe::closeQuietly);
            connections.clear();
        }
    }

    private void probeAll() {
        synchronized (connections) {
            List<Replica> replicas = new ArrayList<>(cluster.membership().healthy());
            for (Replica replica : replicas) {
                Connection connection = connections.get(replica);
                if (connection != null && !cluster.isShutdown()) {
                    probe(replica, connection);
                }
            }
        }
    }

    private void probe(Replica replica, Connection connection) {
        try (Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery(engine.aliveQuery())) {
            result.next();
            connection.rollback();
            releaseStaleLockWaits(replica, connection);
        } catch (SQLException e) {
            if (replica.isLost() || cluster.isShutdown()) {
                return; // taken out meanwhile, by someone else
            }
            SQLException outcome = cluster.onEngineError(replica, e);
            if (MacroSqlState.REPLICA_LOST.equals(outcome.getSQLState())) {
                LOG.log(Level.WARNING, "MacroDB: the probe found the database of " + replica + " gone in "
                        + cluster.url() + "; it is being replaced", e);
            } else {
                LOG.log(Level.FINE, "MacroDB: probing " + replica + " failed, and did not take it out", e);
            }
        }
    }

    private void releaseStaleLockWaits(Replica replica, Connection connection) throws SQLException {
        try {
            int released = engine.releaseStaleLockWaits(connection);
            if (released > 0) {
                LOG.log(Level.FINE, () -> "MacroDB: woke " + released + " session(s) of " + replica + " in "
                        + cluster.url() + " waiting for a lock nobody holds");
            }
        } catch (RuntimeException e) { // never the end of the probe's schedule, which an exception would cancel
            LOG.log(Level.WARNING, "MacroDB: waking the sessions of " + replica + " left waiting failed", e);
        }
    }

    private static void closeQuietly(Connection connection) {
        if (connection == null) {
            return;
        }
        try {
            connection.close();
        } catch (SQLException ignored) {
            // its database is gone already
        }
    }
}
