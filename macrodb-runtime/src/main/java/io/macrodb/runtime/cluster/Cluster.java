package io.macrodb.runtime.cluster;

import io.macrodb.api.ClusterMetrics;
import io.macrodb.api.MacroCluster;
import io.macrodb.api.MacroSqlState;
import io.macrodb.api.ReplicaHealth;
import io.macrodb.api.ReplicaQuery;
import io.macrodb.api.ReplicaResult;
import io.macrodb.api.ReplicaRole;
import io.macrodb.api.ReplicaStatus;
import io.macrodb.api.VerificationReport;
import io.macrodb.runtime.capture.CaptureScope;
import io.macrodb.runtime.capture.CaptureSink;
import io.macrodb.runtime.config.ClusterConfig;
import io.macrodb.runtime.config.MacroOption;
import io.macrodb.runtime.engine.Engine;
import io.macrodb.runtime.engine.Engines;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.LongAdder;

/**
 * One master and its slaves, all copies of one database, and the machinery between them: the commit sequencer,
 * each slave's applier, the read router. One cluster exists per engine URL (see {@link ClusterRegistry}); every
 * MacroDB connection to that URL works through it.
 */
public final class Cluster implements MacroCluster {

    private final ClusterConfig config;
    private final Engine engine;
    private final Properties engineProperties;
    private final Replica master;
    private final List<Replica> slaves;
    private final TableCatalog catalog;
    private final CommitSequencer sequencer;
    private final ReadRouter router = new ReadRouter();
    private final List<Connection> ownConnections = new ArrayList<>();
    private final LongAdder readWaits = new LongAdder();
    private final LongAdder readWaitNanos = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private volatile boolean shutdown;

    private Cluster(ClusterConfig config, Engine engine, Properties engineProperties) throws SQLException {
        this.config = config;
        this.engine = engine;
        this.engineProperties = engineProperties;
        this.catalog = new TableCatalog(engine);
        this.master = new Replica(0, engine.replicaUrl(config.engineUrl(), 0), ReplicaRole.MASTER);
        this.sequencer = new CommitSequencer(engine, catalog, master, config.get(MacroOption.MAX_LAG),
                config.get(MacroOption.READ_WAIT_TIMEOUT_MS));
        List<Replica> slaveList = new ArrayList<>();
        for (int i = 1; i < config.replicas(); i++) {
            slaveList.add(new Replica(i, engine.replicaUrl(config.engineUrl(), i), ReplicaRole.SLAVE));
        }
        this.slaves = List.copyOf(slaveList);
    }

    /** Opens the engines, installs capture on the master, seeds and starts every slave. */
    static Cluster start(ClusterConfig config, Properties engineProperties) throws SQLException {
        Cluster cluster = new Cluster(config, Engines.forUrl(config.engineUrl()), engineProperties);
        try {
            cluster.open();
        } catch (SQLException | RuntimeException e) {
            cluster.closeQuietly();
            throw e;
        }
        return cluster;
    }

    private void open() throws SQLException {
        Connection masterOwn = own(master);
        catalog.refresh(masterOwn);
        List<Applier> appliers = new ArrayList<>();
        for (Replica slave : slaves) {
            Connection connection = own(slave);
            new SlaveSeeder(engine, catalog).seed(masterOwn, connection);
            Applier applier = new Applier(slave, connection, catalog, engine, config.get(MacroOption.APPLY_BATCH),
                    failures::increment);
            slave.attach(applier);
            appliers.add(applier);
        }
        sequencer.setAppliers(appliers);
        appliers.forEach(Applier::start);
    }

    private Connection own(Replica replica) throws SQLException {
        Connection connection = openPhysical(replica, engineProperties);
        ownConnections.add(connection);
        return connection;
    }

    /** A new physical connection to {@code replica}'s database, in manual-commit mode. */
    public Connection openPhysical(Replica replica, Properties properties) throws SQLException {
        Connection connection = DriverManager.getConnection(replica.jdbcUrl(), properties);
        connection.setAutoCommit(false);
        return connection;
    }

    public ClusterConfig config() {
        return config;
    }

    public Replica master() {
        return master;
    }

    public TableCatalog catalog() {
        return catalog;
    }

    public CommitSequencer sequencer() {
        return sequencer;
    }

    /** Fails with 08003 once the cluster has shut down. */
    public void checkOpen() throws SQLException {
        if (shutdown) {
            throw new SQLNonTransientConnectionException("The MacroDB cluster " + url() + " has shut down; "
                    + "open a new connection to start it again.", MacroSqlState.CONNECTION_CLOSED);
        }
    }

    /**
     * Starts a read-only transaction: reads the master's version, picks a replica by the {@link ReadRouter} policy
     * and waits until it has applied that version. The caller must {@link #endRead} the replica returned.
     */
    public Replica beginRead() throws SQLException {
        checkOpen();
        long v = sequencer.version();
        Replica replica = router.choose(slaves, master, v);
        replica.enter();
        replica.routedRead();
        try {
            long waited = replica.awaitVersion(v, config.get(MacroOption.READ_WAIT_TIMEOUT_MS));
            if (waited > 0) {
                readWaits.increment();
                readWaitNanos.add(waited);
            }
        } catch (SQLException e) {
            replica.leave();
            throw e;
        }
        return replica;
    }

    public void endRead(Replica replica) {
        replica.leave();
    }

    /** Counts an update transaction on the master, for the replica listing. */
    public void beginUpdate() throws SQLException {
        checkOpen();
        master.enter();
    }

    public void endUpdate() {
        master.leave();
    }

    @Override
    public String url() {
        return config.toString();
    }

    @Override
    public String engine() {
        return engine.name();
    }

    @Override
    public long committedVersion() {
        return sequencer.version();
    }

    @Override
    public List<ReplicaStatus> replicas() {
        long committed = sequencer.version();
        List<ReplicaStatus> status = new ArrayList<>();
        status.add(new ReplicaStatus(master.index(), master.role(), master.health(), committed, 0, 0,
                master.activeTransactions(), master.jdbcUrl()));
        for (Replica slave : slaves) {
            Applier applier = slave.applier();
            long version = slave.version();
            status.add(new ReplicaStatus(slave.index(), slave.role(), slave.health(), version,
                    applier == null ? 0 : applier.queueDepth(), committed - version, slave.activeTransactions(),
                    slave.jdbcUrl()));
        }
        return status;
    }

    @Override
    public ClusterMetrics metrics() {
        List<ClusterMetrics.Replica> perReplica = new ArrayList<>();
        perReplica.add(master.metrics());
        slaves.forEach(slave -> perReplica.add(slave.metrics()));
        return new ClusterMetrics(sequencer.committed(), readWaits.sum(), readWaitNanos.sum(), sequencer.lagWaits(),
                sequencer.lagWaitNanos(), failures.sum(), perReplica);
    }

    @Override
    public VerificationReport verify() throws SQLException {
        return new Verifier(engine, catalog).verify(this);
    }

    @Override
    public <T> List<ReplicaResult<T>> queryEachReplica(ReplicaQuery<T> query) throws SQLException {
        checkOpen();
        return sequencer.whileCommitsHeld(() -> {
            long v = sequencer.version();
            List<ReplicaResult<T>> results = new ArrayList<>();
            for (Replica replica : healthyReplicas()) {
                replica.awaitVersion(v, config.get(MacroOption.READ_WAIT_TIMEOUT_MS));
                try (Connection connection = openPhysical(replica, engineProperties)) {
                    connection.setReadOnly(true);
                    results.add(new ReplicaResult<>(replica.index(), replica.role(), v, query.run(connection)));
                    connection.rollback();
                }
            }
            return results;
        });
    }

    List<Replica> healthyReplicas() {
        List<Replica> healthy = new ArrayList<>();
        healthy.add(master);
        slaves.stream().filter(Replica::isHealthy).forEach(healthy::add);
        return healthy;
    }

    @Override
    public synchronized void shutdown() throws SQLException {
        if (shutdown) {
            return;
        }
        // No commit may be in flight while the queues drain: after the last enqueue, drain, then close.
        sequencer.whileCommitsHeld(() -> {
            shutdown = true;
            for (Replica slave : slaves) {
                if (slave.applier() != null) {
                    try {
                        slave.applier().drainAndStop();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new SQLException("Interrupted while draining " + slave, e);
                    }
                }
            }
            return null;
        });
        SQLException failure = null;
        CaptureSink previous = CaptureScope.open(CaptureSink.IGNORE);
        try {
            for (Connection connection : ownConnections) {
                try {
                    engine.shutdown(connection);
                } catch (SQLException e) {
                    failure = failure == null ? e : failure;
                }
            }
        } finally {
            CaptureScope.close(previous);
        }
        master.setHealth(ReplicaHealth.CLOSED);
        slaves.forEach(s -> s.setHealth(ReplicaHealth.CLOSED));
        closeQuietly();
        ClusterRegistry.forget(this);
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public boolean isShutdown() {
        return shutdown;
    }

    private void closeQuietly() {
        for (Connection connection : ownConnections) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // the engine is gone already; nothing left to release
            }
        }
    }

    @Override
    public String toString() {
        return "MacroDB cluster " + url();
    }
}
