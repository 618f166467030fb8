package io.macrodb.runtime.cluster;

import io.macrodb.api.MacroSqlState;
import io.macrodb.runtime.config.ClusterConfig;
import io.macrodb.runtime.engine.EngineUrl;
import io.macrodb.runtime.engine.Engines;

import java.sql.SQLException;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The running clusters, one per database (however its URL is spelt). The first connection to a database starts its
 * cluster; later connections join it. A cluster that shut down is forgotten, so the next connection to its URL starts
 * a fresh one. At JVM exit every cluster is shut down, which drains the slaves' queues first.
 */
public final class ClusterRegistry {

    private static final Logger LOG = Logger.getLogger(ClusterRegistry.class.getName());
    private static final ConcurrentHashMap<String, Cluster> CLUSTERS = new ConcurrentHashMap<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ClusterRegistry::shutdownAll, "macrodb-shutdown"));
    }

    private ClusterRegistry() {
    }

    /**
     * The cluster for the database {@code config}'s engine URL opens ({@link EngineUrl#database}), started if none
     * runs; refuses a second set of options, or of engine settings, for one database.
     */
    public static Cluster join(ClusterConfig config, Properties engineProperties) throws SQLException {
        EngineUrl url = Engines.forUrl(config.engineUrl()).url(config.engineUrl());
        Cluster cluster;
        try {
            cluster = CLUSTERS.computeIfAbsent(url.database(), key -> {
                try {
                    return Cluster.start(config, engineProperties);
                } catch (SQLException e) {
                    throw new StartFailure(e);
                }
            });
        } catch (StartFailure failure) {
            throw failure.cause;
        }
        boolean sameSettings = cluster.engineSupport().url(cluster.config().engineUrl()).settingSet()
                .equals(url.settingSet());
        if (!cluster.config().sameOptions(config) || !sameSettings) {
            throw new SQLException("A MacroDB cluster for the database " + url.database() + " already runs as "
                    + cluster.url() + "; this URL asks for " + config + ". Use the same engine settings and macrodb "
                    + "options for every connection to one database, or shut the cluster down first.",
                    MacroSqlState.INVALID_OPTION);
        }
        return cluster;
    }

    static void forget(Cluster cluster) {
        CLUSTERS.values().remove(cluster);
    }

    /** How long JVM exit waits for each cluster's shutdown. */
    static final long EXIT_SHUTDOWN_LIMIT_MILLIS = 10_000;

    private static void shutdownAll() {
        for (Cluster cluster : CLUSTERS.values()) {
            shutDownWithin(cluster.url(), () -> {
                try {
                    cluster.shutdown();
                } catch (SQLException e) {
                    LOG.log(Level.WARNING, "MacroDB: shutting down " + cluster + " at JVM exit failed", e);
                }
            }, EXIT_SHUTDOWN_LIMIT_MILLIS);
        }
    }

    /**
     * Runs {@code shutdown} on a thread of its own and waits for it at most {@code limitMillis}: a shutdown hook that
     * never returns keeps the JVM from exiting, even on SIGTERM. An engine's shutdown can wait for good for a session
     * blocked on a lock whose holder will never end its transaction (HSQLDB: a writer waiting when the cluster shut
     * down, seen in a failover stress run, 2026-11-29). In-memory replicas are lost at exit either way.
     *
     * @return whether it finished in time
     */
    static boolean shutDownWithin(String what, Runnable shutdown, long limitMillis) {
        Thread thread = new Thread(shutdown, "macrodb-shutdown-cluster");
        thread.setDaemon(true);
        thread.start();
        try {
            thread.join(limitMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            LOG.warning(() -> "MacroDB: shutting down " + what + " at JVM exit did not finish within " + limitMillis
                    + " ms (a session of its engine is blocked); the JVM exits without waiting for it");
            return false;
        }
        return true;
    }

    /** Carries a checked start failure out of computeIfAbsent. */
    private static final class StartFailure extends RuntimeException {
        private final SQLException cause;

        StartFailure(SQLException cause) {
            super(cause);
            this.cause = cause;
        }
    }
}
