package io.macrodb.bench.targets;

import io.macrodb.api.MacroCluster;
import io.macrodb.api.ReplicaHealth;
import io.macrodb.api.ReplicaStatus;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;

/**
 * One freshly named database of a {@link Target}: where a trial loads, runs and checks, and what it shuts down
 * afterwards so the next trial starts from a free heap.
 */
public final class Database {

    private final Target target;
    private final String url;

    Database(Target target, String url) {
        this.target = target;
        this.url = url;
    }

    public Target target() {
        return target;
    }

    /** The JDBC URL of this database. */
    public String url() {
        return url;
    }

    public Engine engine() {
        return target.engine();
    }

    /** Opens a new connection with auto-commit off. The caller closes it. */
    public Connection connect() throws SQLException {
        Connection c = DriverManager.getConnection(url);
        try {
            c.setAutoCommit(false);
            return c;
        } catch (SQLException e) {
            c.close();
            throw e;
        }
    }

    /**
     * The MacroDB cluster behind {@code connection}, or empty for a bare engine.
     *
     * @throws SQLException if this is a MacroDB target whose connection does not unwrap to a cluster
     */
    public Optional<MacroCluster> cluster(Connection connection) throws SQLException {
        if (!target.isMacroDb()) {
            return Optional.empty();
        }
        return Optional.of(connection.unwrap(MacroCluster.class));
    }

    /**
     * Waits until every healthy slave has applied everything the master committed (a no-op for a bare engine), so
     * that what is measured next (heap, a run) starts from a quiet cluster.
     */
    public void awaitReplicasCaughtUp(Duration timeout) throws SQLException {
        try (Connection c = connect()) {
            Optional<MacroCluster> cluster = cluster(c);
            if (cluster.isEmpty()) {
                return;
            }
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                long behind = 0;
                for (ReplicaStatus r : cluster.get().replicas()) {
                    if (r.health() == ReplicaHealth.HEALTHY) {
                        behind += r.lag() + r.queueDepth();
                    }
                }
                if (behind == 0) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new SQLException("replicas of " + target.name() + " still " + behind
                            + " versions/batches behind after " + timeout.toSeconds() + " s: " + cluster.get().replicas());
                }
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new SQLException("interrupted while waiting for replicas", e);
                }
            }
        }
    }

    /**
     * Shuts the database down and frees its memory: {@code MacroCluster.shutdown()} for MacroDB (which drains the
     * slaves first), the engine's {@code SHUTDOWN} statement otherwise. Close every other connection first.
     */
    public void shutdown() throws SQLException {
        try (Connection c = connect()) {
            Optional<MacroCluster> cluster = cluster(c);
            if (cluster.isPresent()) {
                cluster.get().shutdown();
                return;
            }
            try (Statement s = c.createStatement()) {
                s.execute(engine().shutdownStatement());
            }
        }
    }

    @Override
    public String toString() {
        return target.name() + " (" + url + ")";
    }
}
