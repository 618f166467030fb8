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

    private static void shutdownAll() {
        for (Cluster cluster : CLUSTERS.values()) {
            try {
                cluster.shutdown();
            } catch (SQLException e) {
                LOG.log(Level.WARNING, "MacroDB: shutting down " + cluster + " at JVM exit failed", e);
            }
        }
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
