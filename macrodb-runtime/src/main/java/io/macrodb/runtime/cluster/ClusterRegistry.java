package io.macrodb.runtime.cluster;

import io.macrodb.api.MacroSqlState;
import io.macrodb.runtime.config.ClusterConfig;

import java.sql.SQLException;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The running clusters, one per engine URL. The first connection to a URL starts its cluster; later connections join
 * it. A cluster that shut down is forgotten, so the next connection to its URL starts a fresh one. At JVM exit every
 * cluster is shut down, which drains the slaves' queues first.
 */
public final class ClusterRegistry {

    private static final Logger LOG = Logger.getLogger(ClusterRegistry.class.getName());
    private static final ConcurrentHashMap<String, Cluster> CLUSTERS = new ConcurrentHashMap<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ClusterRegistry::shutdownAll, "macrodb-shutdown"));
    }

    private ClusterRegistry() {
    }

    /** The cluster for {@code config}'s engine URL, started if none runs; refuses a second set of options. */
    public static Cluster join(ClusterConfig config, Properties engineProperties) throws SQLException {
        Cluster cluster;
        try {
            cluster = CLUSTERS.computeIfAbsent(config.clusterKey(), key -> {
                try {
                    return Cluster.start(config, engineProperties);
                } catch (SQLException e) {
                    throw new StartFailure(e);
                }
            });
        } catch (StartFailure failure) {
            throw failure.cause;
        }
        if (!cluster.config().sameOptions(config)) {
            throw new SQLException("A MacroDB cluster for " + config.clusterKey() + " already runs as "
                    + cluster.url() + "; this URL asks for " + config + ". Use the same macrodb options for every "
                    + "connection to one database, or shut the cluster down first.", MacroSqlState.INVALID_OPTION);
        }
        return cluster;
    }

    static void forget(Cluster cluster) {
        CLUSTERS.remove(cluster.config().clusterKey(), cluster);
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
