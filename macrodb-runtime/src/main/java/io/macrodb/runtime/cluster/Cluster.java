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
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One master and its slaves, all copies of one database, and the machinery between them: the commit sequencer,
 * each slave's applier, the read router. One cluster exists per engine URL (see {@link ClusterRegistry}); every
 * MacroDB connection to that URL works through it. A slave that fails leaves it, and a new slave (same index, new
 * database) is built in its place ({@link SlaveRebuild}).
 */
public final class Cluster implements MacroCluster {

    private static final Logger LOG = Logger.getLogger(Cluster.class.getName());

    private final ClusterConfig config;
    private final Engine engine;
    private final Properties engineProperties;
    /** Another replica after a promotion (under the commit lock, see {@link MasterPromotion}). */
    private volatile Replica master;
    /** Replaced as a whole (under {@code membership}) when a slave leaves or joins; readers see one list at a time. */
    private volatile List<Replica> slaves;
    private final Object membership = new Object();
    /** The number in the next new slave database's name: a rebuilt slave keeps its index but not its database. */
    private final AtomicInteger nextDatabase;
    private final TableCatalog catalog;
    private final CommitSequencer sequencer;
    private final ReadRouter router = new ReadRouter();
    private final UpdateGate updateGate = new UpdateGate();
    private final Map<Replica, Connection> ownConnections = Collections.synchronizedMap(new LinkedHashMap<>());
    private final ExecutorService rebuilder;
    /** Per slave index, the last rebuild of that slave; kept so that an operator can wait for it or retry it. */
    private final Map<Integer, Future<Replica>> rebuilds = new ConcurrentHashMap<>();
    private final LongAdder readWaits = new LongAdder();
    private final LongAdder readWaitNanos = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private volatile boolean shutdown;

    private Cluster(ClusterConfig config, Engine engine, Properties engineProperties) throws SQLException {
        this.config = config;
        this.engine = engine;
        this.engineProperties = engineProperties;
        this.catalog = new TableCatalog(engine);
        this.master = new Replica(0, engine.replicaUrl(config.engineUrl(), 0), ReplicaRole.MASTER,
                ReplicaHealth.HEALTHY);
        this.sequencer = new CommitSequencer(engine, catalog, master, config.get(MacroOption.MAX_LAG),
                config.get(MacroOption.READ_WAIT_TIMEOUT_MS));
        List<Replica> slaveList = new ArrayList<>();
        for (int i = 1; i < config.replicas(); i++) {
            slaveList.add(new Replica(i, engine.replicaUrl(config.engineUrl(), i), ReplicaRole.SLAVE,
                    ReplicaHealth.HEALTHY));
        }
        this.slaves = List.copyOf(slaveList);
        this.nextDatabase = new AtomicInteger(config.replicas());
        this.rebuilder = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "macrodb-rebuild");
            thread.setDaemon(true);
            return thread;
        });
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
            seeder().seed(masterOwn, connection);
            appliers.add(newApplier(slave, connection));
        }
        sequencer.setAppliers(appliers);
        appliers.forEach(Applier::start);
    }

    private Connection own(Replica replica) throws SQLException {
        Connection connection = openPhysical(replica);
        ownConnections.put(replica, connection);
        return connection;
    }

    /** A new physical connection to {@code replica}'s database, in manual-commit mode. */
    public Connection openPhysical(Replica replica, Properties properties) throws SQLException {
        Connection connection = DriverManager.getConnection(replica.jdbcUrl(), properties);
        connection.setAutoCommit(false);
        return connection;
    }

    /** The same, with the properties (user, password) the cluster was opened with. */
    Connection openPhysical(Replica replica) throws SQLException {
        return openPhysical(replica, engineProperties);
    }

    // ---- slaves leaving and joining (see SlaveRebuild) ----

    SlaveSeeder seeder() {
        return new SlaveSeeder(engine, catalog);
    }

    UpdateGate updateGate() {
        return updateGate;
    }

    Connection ownConnection(Replica replica) {
        return ownConnections.get(replica);
    }

    /** An applier for {@code slave}, attached to it and not started; its failure is {@link #failSlave handled}. */
    Applier newApplier(Replica slave, Connection connection) {
        Applier applier = new Applier(slave, connection, catalog, engine, config.get(MacroOption.APPLY_BATCH),
                failed -> failSlave(failed, true));
        slave.attach(applier);
        return applier;
    }

    /**
     * A new, empty slave in place {@code index}, with a database never used before, listed as catching up instead of
     * the slave listed there.
     */
    Replica newSlave(int index) throws SQLException {
        String database = engine.replicaUrl(config.engineUrl(), nextDatabase.getAndIncrement());
        Replica fresh = new Replica(index, database, ReplicaRole.SLAVE, ReplicaHealth.CATCHING_UP);
        own(fresh);
        synchronized (membership) {
            List<Replica> more = new ArrayList<>(slaves);
            Replica replaced = slaveAt(index);
            if (replaced != null) {
                fresh.carryOverTotals(replaced);
                more.remove(replaced);
            }
            more.add(fresh);
            more.sort(java.util.Comparator.comparingInt(Replica::index));
            slaves = List.copyOf(more);
        }
        return fresh;
    }

    /** The healthy slave furthest ahead, to copy a new slave from; null when there is none (copy the master). */
    Replica copySource() {
        Replica best = null;
        for (Replica slave : slaves) {
            if (slave.isRoutable() && (best == null || slave.version() > best.version())) {
                best = slave;
            }
        }
        return best;
    }

    /**
     * Takes a slave out: out of routing at once (its running transactions fail with 40M01 at their next statement),
     * no more write sets queued for it, and, when {@code rebuild}, a new slave built in its place in the background.
     * Called by an applier that failed, by an operator, and by {@link #verify} for a slave that differs.
     */
    void failSlave(Replica slave, boolean rebuild) {
        ReplicaHealth before = slave.fail();
        if (before == null) {
            return; // failed already: handled once
        }
        failures.increment();
        Applier applier = slave.applier();
        if (applier != null) {
            sequencer.removeApplier(applier);
        }
        if (rebuild && before == ReplicaHealth.HEALTHY) {
            scheduleRebuild(slave.index(), slave);
        }
    }

    /**
     * Starts a rebuild of slave {@code index}, or returns the one running. A new slave that fails while catching up
     * is not rebuilt again by itself (a fault that recurs would otherwise loop): an operator's
     * {@link #rebuildReplica} tries again.
     *
     * @param failed the slave being replaced, or null when an earlier rebuild failed and took its new slave out
     */
    private Future<Replica> scheduleRebuild(int index, Replica failed) {
        return rebuilds.compute(index, (key, running) -> {
            if (running != null && !running.isDone()) {
                return running;
            }
            if (shutdown || rebuilder.isShutdown()) {
                return CompletableFuture.failedFuture(new SQLNonTransientConnectionException(
                        "The MacroDB cluster " + url() + " is shutting down; no slave is rebuilt.",
                        MacroSqlState.CONNECTION_CLOSED));
            }
            return rebuilder.submit(() -> rebuild(index, failed));
        });
    }

    private Replica rebuild(int index, Replica failed) throws SQLException {
        try {
            Replica fresh = new SlaveRebuild(this, config.get(MacroOption.READ_WAIT_TIMEOUT_MS)).replace(index, failed);
            LOG.info(() -> "MacroDB: " + fresh + " rebuilt in " + url() + " (database " + fresh.jdbcUrl() + ")");
            return fresh;
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.SEVERE, "MacroDB: could not rebuild replica " + index + " in " + url()
                    + "; rebuildReplica(" + index + ") tries again", e);
            throw e;
        }
    }

    /**
     * Removes a failed slave from the cluster (if a new one has not taken its place already) and shuts its database
     * down, freeing its memory. Through a connection of its own: the slave's applier may be blocked inside a
     * statement on its usual one.
     */
    void retire(Replica failed) {
        synchronized (membership) {
            slaves = slaves.stream().filter(s -> s != failed).toList();
        }
        Connection own = ownConnections.remove(failed);
        CaptureSink previous = CaptureScope.open(CaptureSink.IGNORE);
        try (Connection connection = openPhysical(failed)) {
            engine.discard(connection);
        } catch (SQLException e) {
            LOG.log(Level.FINE, "MacroDB: shutting down failed " + failed, e);
        } finally {
            CaptureScope.close(previous);
        }
        if (own != null) {
            try {
                own.close();
            } catch (SQLException ignored) {
                // its database is gone already
            }
        }
    }

    /**
     * Replaces the master with the healthy slave furthest ahead ({@link MasterPromotion}), then builds a new slave
     * in the old master's place. Runs on the rebuild thread, so that it never overlaps a rebuild (both use the
     * update gate), and the caller waits for it.
     */
    private void failMaster() throws SQLException {
        if (!engine.inMemory(config.engineUrl())) {
            throw new SQLFeatureNotSupportedException("The master is the file database " + master.jdbcUrl() + ", the "
                    + "only durable copy; its slaves are in memory. MacroDB does not move the master off it: restart "
                    + "the application to recover from the file.", MacroSqlState.FEATURE_NOT_SUPPORTED);
        }
        if (copySource() == null) {
            throw new SQLFeatureNotSupportedException("The MacroDB cluster " + url() + " has no healthy slave to "
                    + "take over from its master.", MacroSqlState.FEATURE_NOT_SUPPORTED);
        }
        await(schedulePromotion(master), "promoting a slave to master");
    }

    private Future<Replica> schedulePromotion(Replica failed) throws SQLException {
        Replica expected = failed;
        try {
            return rebuilder.submit(() -> promote(expected));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            throw new SQLNonTransientConnectionException("The MacroDB cluster " + url() + " is shutting down.",
                    MacroSqlState.CONNECTION_CLOSED, e);
        }
    }

    /**
     * Looks at an engine error a transaction got on {@code on}: when it says the replica's database is gone (not the
     * statement's own fault), the replica is failed (a master replaced, a slave rebuilt, in the background) and the
     * caller gets the retryable 40M01 to throw instead; otherwise the error itself.
     */
    public SQLException onEngineError(Replica on, SQLException error) {
        if (shutdown || MacroSqlState.REPLICA_LOST.equals(error.getSQLState()) || !engine.isDatabaseLost(error)) {
            return error;
        }
        if (on == master) {
            try {
                if (engine.inMemory(config.engineUrl()) && copySource() != null) {
                    on.fail(); // out of routing at once; the promotion counts the failure
                    schedulePromotion(on);
                }
            } catch (SQLException e) {
                error.addSuppressed(e);
                return error;
            }
        } else if (slaveAt(on.index()) == on) {
            failSlave(on, true);
        }
        return new SQLTransientException("The database of replica " + on.index() + " failed under this transaction; "
                + "roll back and run the transaction again.", MacroSqlState.REPLICA_LOST, error);
    }

    /** Replaces {@code failed} as master, unless another replica has replaced it already. */
    private Replica promote(Replica failed) throws SQLException {
        if (master != failed) {
            return master; // promoted already (an operator and a failing transaction may both have asked)
        }
        Replica chosen = copySource();
        if (chosen == null) {
            throw new SQLTransientException("No healthy slave is left to take over from the master.",
                    MacroSqlState.REPLICA_LOST);
        }
        Replica old = new MasterPromotion(this, engine, config.get(MacroOption.READ_WAIT_TIMEOUT_MS)).promote(chosen);
        failures.increment();
        LOG.warning(() -> "MacroDB: master " + old.index() + " failed; " + chosen + " took over in " + url());
        scheduleRebuild(old.index(), old); // runs on this same thread, next
        return chosen;
    }

    /** Makes {@code promoted}, a slave until now, the master. Under the commit lock. */
    void replaceMaster(Replica promoted) {
        synchronized (membership) {
            slaves = slaves.stream().filter(s -> s != promoted).toList();
            master = promoted;
        }
    }

    private static void await(Future<Replica> work, String what) throws SQLException {
        try {
            work.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("Interrupted while " + what, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SQLException cause) {
                throw cause;
            }
            throw new SQLException(what + " failed: " + e.getCause(), e.getCause());
        }
    }

    /** The slave listed at {@code index}, or null (there is none, or a failed rebuild left its place empty). */
    private Replica slaveAt(int index) {
        for (Replica slave : slaves) {
            if (slave.index() == index) {
                return slave;
            }
        }
        return null;
    }

    private SQLException noSuchSlave(int index) {
        return new SQLException("The MacroDB cluster " + url() + " has no slave " + index + "; replicas() lists the "
                + "replicas it has.", MacroSqlState.NO_SUCH_REPLICA);
    }

    @Override
    public void failReplica(int index) throws SQLException {
        checkOpen();
        if (index == master.index()) {
            failMaster();
            return;
        }
        Replica slave = slaveAt(index);
        if (slave == null) {
            throw noSuchSlave(index);
        }
        failSlave(slave, true);
    }

    @Override
    public void rebuildReplica(int index) throws SQLException {
        checkOpen();
        if (index == master.index()) {
            throw new SQLFeatureNotSupportedException("Replica " + index + " is the master: rebuildReplica applies to "
                    + "slaves. failReplica(" + index + ") replaces the master with a caught-up slave.",
                    MacroSqlState.FEATURE_NOT_SUPPORTED);
        }
        Future<Replica> rebuild = rebuilds.get(index);
        if (rebuild == null || rebuild.isDone()) {
            Replica current = slaveAt(index);
            if (current == null && rebuild == null) {
                throw noSuchSlave(index);
            }
            if (current != null) {
                failSlave(current, false);
            }
            rebuild = scheduleRebuild(index, current);
        }
        await(rebuild, "rebuilding replica " + index);
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

    /**
     * Counts an update transaction in (for the replica listing, and for the {@link UpdateGate}, which holds it back
     * while a new slave is copied from the master or a slave is promoted) and returns the master it is to run on.
     */
    public Replica beginUpdate() throws SQLException {
        checkOpen();
        updateGate.enter(config.get(MacroOption.READ_WAIT_TIMEOUT_MS));
        Replica on = master;
        on.enter();
        return on;
    }

    /** @param on the master {@link #beginUpdate} returned (the master may have changed since) */
    public void endUpdate(Replica on) {
        on.leave();
        updateGate.leave();
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

    /** A slave found to differ from the master is failed (and rebuilt): it must not serve reads. */
    @Override
    public VerificationReport verify() throws SQLException {
        VerificationReport report = new Verifier(engine, catalog).verify(this);
        for (int index : report.differingReplicas()) {
            Replica slave = slaveAt(index);
            if (slave != null) {
                failSlave(slave, true);
            }
        }
        return report;
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
        awaitRebuilds();
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
        boolean durableMaster = !engine.inMemory(config.engineUrl());
        try {
            Map<Replica, Connection> own;
            synchronized (ownConnections) {
                own = new LinkedHashMap<>(ownConnections);
            }
            for (Map.Entry<Replica, Connection> database : own.entrySet()) {
                try {
                    // Everything committed is applied by now. An in-memory database has nothing to keep, and a plain
                    // SHUTDOWN would wait for the application's sessions still open on it (H2: 4 s by default).
                    if (durableMaster && database.getKey() == master) {
                        engine.shutdown(database.getValue());
                    } else {
                        engine.discard(database.getValue());
                    }
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

    /** A rebuild in progress finishes first (it may hold an applier paused or update transactions back). */
    private void awaitRebuilds() {
        rebuilder.shutdown();
        try {
            if (!rebuilder.awaitTermination(config.get(MacroOption.READ_WAIT_TIMEOUT_MS), TimeUnit.MILLISECONDS)) {
                LOG.warning(() -> "MacroDB: a slave rebuild in " + url() + " was still running at shutdown");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private List<Connection> ownConnections() {
        synchronized (ownConnections) {
            return List.copyOf(ownConnections.values());
        }
    }

    private void closeQuietly() {
        rebuilder.shutdownNow();
        for (Connection connection : ownConnections()) {
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
