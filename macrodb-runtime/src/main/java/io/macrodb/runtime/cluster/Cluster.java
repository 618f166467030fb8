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
import io.macrodb.runtime.config.ClusterConfig;
import io.macrodb.runtime.config.MacroOption;
import io.macrodb.runtime.engine.Engine;
import io.macrodb.runtime.engine.Engines;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTransientException;
import java.sql.SQLNonTransientConnectionException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One master and its slaves, all copies of one database, and the machinery between them: the commit sequencer,
 * each slave's applier, the read router. One cluster exists per engine URL (see {@link ClusterRegistry}); every
 * MacroDB connection to that URL works through it. Which replicas it has changes when one fails
 * ({@link ReplicaRecovery}): a new slave takes a failed one's place, a slave takes a failed master's.
 */
public final class Cluster implements MacroCluster {

    private static final Logger LOG = Logger.getLogger(Cluster.class.getName());

    private final ClusterConfig config;
    private final Engine engine;
    private final Properties engineProperties;
    private final Membership membership;
    /** The number in the next new slave database's name: a rebuilt slave keeps its index but not its database. */
    private final AtomicInteger nextDatabase;
    private final TableCatalog catalog;
    private final CommitSequencer sequencer;
    private final ReadRouter router = new ReadRouter();
    private final UpdateGate updateGate = new UpdateGate();
    /**
     * Held by a rebuild while its source slave is paused, and by whoever waits for every replica with commits held
     * ({@link #queryEachReplica}): such a wait, begun after the pause, would wait for the paused slave while the
     * rebuild waited for the commits to hand the slave's queue over (both gave up only after
     * {@code macrodb.readWaitTimeoutMs}). Taken before the commit lock, in both.
     */
    private final ReentrantLock slaveCopy = new ReentrantLock();
    private final Map<Replica, Connection> ownConnections = Collections.synchronizedMap(new LinkedHashMap<>());
    private final ReplicaRecovery recovery;
    private final HealthProbe probe;
    private final LongAdder readWaits = new LongAdder();
    private final LongAdder readWaitNanos = new LongAdder();
    private volatile boolean shutdown;

    private Cluster(ClusterConfig config, Engine engine, Properties engineProperties) throws SQLException {
        this.config = config;
        this.engine = engine;
        this.engineProperties = engineProperties;
        this.catalog = new TableCatalog(engine);
        Replica master = new Replica(0, engine.replicaUrl(config.engineUrl(), 0), ReplicaRole.MASTER,
                ReplicaHealth.HEALTHY);
        this.sequencer = new CommitSequencer(engine, catalog, master, config.get(MacroOption.MAX_LAG),
                config.get(MacroOption.READ_WAIT_TIMEOUT_MS));
        List<Replica> slaves = new ArrayList<>();
        for (int i = 1; i < config.replicas(); i++) {
            slaves.add(new Replica(i, engine.replicaUrl(config.engineUrl(), i), ReplicaRole.SLAVE,
                    ReplicaHealth.HEALTHY));
        }
        this.membership = new Membership(master, slaves);
        this.nextDatabase = new AtomicInteger(config.replicas());
        this.recovery = new ReplicaRecovery(this, engine, config.get(MacroOption.READ_WAIT_TIMEOUT_MS),
                engine.inMemory(config.engineUrl()));
        this.probe = new HealthProbe(this, engine, config.get(MacroOption.PROBE_INTERVAL_MS));
    }

    /** Opens the engines, installs capture on the master, seeds and starts every slave. */
    static Cluster start(ClusterConfig config, Properties engineProperties) throws SQLException {
        Cluster cluster = new Cluster(config, Engines.forUrl(config.engineUrl()), engineProperties);
        try {
            cluster.open();
            cluster.probe.start();
        } catch (SQLException | RuntimeException e) {
            cluster.closeQuietly();
            throw e;
        }
        return cluster;
    }

    private void open() throws SQLException {
        Connection masterOwn = own(membership.master());
        if (!membership.slaves().isEmpty()) {
            refuseTablesSlavesCannotHold(masterOwn);
        }
        catalog.refresh(masterOwn);
        List<Applier> appliers = new ArrayList<>();
        for (Replica slave : membership.slaves()) {
            Connection connection = own(slave);
            seeder().seed(masterOwn, connection);
            appliers.add(newApplier(slave, connection));
        }
        sequencer.setAppliers(appliers);
        appliers.forEach(Applier::start);
    }

    private void refuseTablesSlavesCannotHold(Connection master) throws SQLException {
        List<String> tables = engine.tablesSlavesCannotHold(master);
        if (!tables.isEmpty()) {
            throw new SQLFeatureNotSupportedException("MacroDB cannot copy " + String.join(", ", tables) + " of "
                    + url() + " to its in-memory slaves. Open the database with the engine alone and "
                    + "change those tables as said, or open it with macrodb.replicas=1 (no slaves).",
                    MacroSqlState.NOT_REPLICABLE);
        }
    }

    /** Creates {@code replica}'s database (or opens a file master's) and keeps a connection of the cluster's own. */
    private Connection own(Replica replica) throws SQLException {
        Connection connection = DriverManager.getConnection(replica.jdbcUrl(), engineProperties);
        connection.setAutoCommit(false);
        ownConnections.put(replica, connection);
        probe.watch(replica);
        return connection;
    }

    /**
     * A new physical connection to {@code replica}'s existing database, in manual-commit mode; fails, with an error
     * {@link Engine#isDatabaseLost} recognises, when that database is gone.
     */
    public Connection openPhysical(Replica replica, Properties properties) throws SQLException {
        Connection connection = DriverManager.getConnection(engine.existingDatabaseUrl(replica.jdbcUrl()), properties);
        try {
            connection.setAutoCommit(false);
            engine.prepareSession(connection);
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
        return connection;
    }

    /** The same, with the properties (user, password) the cluster was opened with. */
    Connection openPhysical(Replica replica) throws SQLException {
        return openPhysical(replica, engineProperties);
    }

    // ---- replicas leaving and joining (see ReplicaRecovery) ----

    SlaveSeeder seeder() {
        return new SlaveSeeder(engine, catalog);
    }

    ReentrantLock slaveCopy() {
        return slaveCopy;
    }

    UpdateGate updateGate() {
        return updateGate;
    }

    Connection ownConnection(Replica replica) {
        return ownConnections.get(replica);
    }

    /**
     * Whether {@code error}, met on {@code replica}, says its database is gone: the engine reads it so
     * ({@link Engine#isDatabaseLost}), or it is an unchecked exception the engine threw
     * ({@link MacroSqlState#ENGINE_FAILURE}), and the database is not known to be open still, read through the
     * cluster's own connection to it ({@link Engine#isKnownOpen}).
     */
    boolean isDatabaseLost(Replica replica, SQLException error) {
        if (!engine.isDatabaseLost(error) && !MacroSqlState.ENGINE_FAILURE.equals(error.getSQLState())) {
            return false;
        }
        Connection own = ownConnection(replica);
        return own == null || !engine.isKnownOpen(own);
    }

    /** An applier for {@code slave}, attached to it and not started; its failure is handled by the recovery. */
    Applier newApplier(Replica slave, Connection connection) {
        Applier applier = new Applier(slave, connection, () -> openPhysical(slave), catalog, engine,
                config.get(MacroOption.APPLY_BATCH), failed -> recovery.failSlave(failed, true));
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
        membership.takePlace(fresh);
        return fresh;
    }

    /**
     * Removes a failed slave from the cluster (if a new one has not taken its place already) and shuts its database
     * down, freeing its memory. Through a connection of its own: the slave's applier may be blocked inside a
     * statement on its usual one. The shutdown runs on a thread of its own, not waited for: an engine may wait for
     * the database's sessions first (HSQLDB, for one waiting for a table lock that an application's open transaction
     * holds, {@link Engine#discard}), and the caller is about to build the replica's replacement.
     */
    void retire(Replica failed) {
        membership.remove(failed);
        probe.forget(failed);
        Connection own = ownConnections.remove(failed);
        Thread discard = new Thread(() -> discard(failed, own), "macrodb-discard-" + failed.index());
        discard.setDaemon(true);
        discard.start();
    }

    private void discard(Replica failed, Connection own) {
        try (Connection connection = openPhysical(failed)) {
            engine.discard(connection);
        } catch (SQLException e) {
            LOG.log(Level.FINE, "MacroDB: shutting down failed " + failed, e);
        }
        if (own != null) {
            try {
                own.close();
            } catch (SQLException ignored) {
                // its database is gone already
            }
        }
    }

    /** Which replicas this cluster has, and which is the master. */
    Membership membership() {
        return membership;
    }

    @Override
    public void failReplica(int index) throws SQLException {
        checkOpen();
        recovery.failReplica(index);
    }

    @Override
    public void rebuildReplica(int index) throws SQLException {
        checkOpen();
        recovery.rebuildReplica(index);
    }

    /**
     * Looks at an engine error a transaction got on {@code on}; returns what to throw: the retryable 40M01 when the
     * error says the replica's database is gone (the replica is then failed and replaced), else the error itself.
     */
    public SQLException onEngineError(Replica on, SQLException error) {
        return recovery.onEngineError(on, error);
    }

    public ClusterConfig config() {
        return config;
    }

    public Replica master() {
        return membership.master();
    }

    /** What MacroDB knows of this cluster's engine (the SPI), as opposed to {@link #engine()}, its name. */
    public Engine engineSupport() {
        return engine;
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
     * (the master itself when {@code onMaster}: a locking read's locks must keep out writers, who write there) and
     * waits until it has applied that version (choosing again if the replica is paused meanwhile, to copy a new slave
     * from it). The caller must {@link #endRead} the transaction returned.
     */
    public OpenRead beginRead(boolean onMaster) throws SQLException {
        checkOpen();
        while (true) {
            long v = sequencer.version();
            Replica replica = onMaster ? membership.master() : router.choose(membership.slaves(), membership.master(), v);
            replica.enter();
            long waited;
            try {
                waited = replica.awaitVersionWhileRoutable(v, config.get(MacroOption.READ_WAIT_TIMEOUT_MS));
            } catch (SQLException e) {
                replica.leave();
                throw e;
            }
            if (waited < 0) {
                replica.leave(); // paused while we waited (a new slave is copied from it): choose again
                continue;
            }
            OpenRead read = replica.opened();
            if (replica.isPaused()) {
                // Paused since it was chosen: the copy from it may have listed its open reads before this one, and
                // would not end it if it were left open. (Registered first, then checked; the copy pauses first,
                // then lists: one of the two sees the other.)
                endRead(read);
                continue;
            }
            if (waited > 0) {
                readWaits.increment();
                readWaitNanos.add(waited);
            }
            replica.routedRead();
            return read;
        }
    }

    public void endRead(OpenRead read) {
        read.replica().closed(read);
        read.replica().leave();
    }

    /**
     * Counts an update transaction in (for the replica listing, and for the {@link UpdateGate}, which holds it back
     * while a new slave is copied from the master or a slave is promoted) and returns the master it is to run on.
     */
    public Replica beginUpdate() throws SQLException {
        checkOpen();
        updateGate.enter(config.get(MacroOption.READ_WAIT_TIMEOUT_MS));
        Replica on = membership.master();
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
        Replica master = membership.master();
        List<ReplicaStatus> status = new ArrayList<>();
        status.add(new ReplicaStatus(master.index(), master.role(), master.health(), committed, 0, 0,
                master.activeTransactions(), master.jdbcUrl()));
        for (Replica slave : membership.slaves()) {
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
        perReplica.add(membership.master().metrics());
        membership.slaves().forEach(slave -> perReplica.add(slave.metrics()));
        return new ClusterMetrics(sequencer.committed(), readWaits.sum(), readWaitNanos.sum(), sequencer.lagWaits(),
                sequencer.lagWaitNanos(), recovery.failures(), perReplica);
    }

    /** A slave found to differ from the master is failed (and rebuilt): it must not serve reads. */
    @Override
    public VerificationReport verify() throws SQLException {
        VerificationReport report = new Verifier(engine, catalog).verify(this);
        for (int index : report.differingReplicas()) {
            Replica slave = membership.slaveAt(index);
            if (slave != null) {
                recovery.failSlave(slave, true);
            }
        }
        return report;
    }

    @Override
    public <T> List<ReplicaResult<T>> queryEachReplica(ReplicaQuery<T> query) throws SQLException {
        return queryEachReplicaAtOneVersion(query, false);
    }

    @Override
    public <T> List<ReplicaResult<T>> queryEachReplicaConcurrently(ReplicaQuery<T> query) throws SQLException {
        return queryEachReplicaAtOneVersion(query, true);
    }

    private <T> List<ReplicaResult<T>> queryEachReplicaAtOneVersion(ReplicaQuery<T> query, boolean concurrently)
            throws SQLException {
        checkOpen();
        slaveCopy.lock(); // a copy under way ends first (its source then catches up)
        try {
            return sequencer.whileCommitsHeld(() -> {
                long v = sequencer.version();
                List<Replica> replicas = caughtUp(v);
                if (concurrently) {
                    return queryConcurrently(replicas, v, query);
                }
                List<ReplicaResult<T>> results = new ArrayList<>();
                for (Replica replica : replicas) {
                    results.add(queryOne(replica, v, query));
                }
                return results;
            });
        } finally {
            slaveCopy.unlock();
        }
    }

    /** {@code query} on each of {@code replicas} at once, a thread each; results in their order. */
    private <T> List<ReplicaResult<T>> queryConcurrently(List<Replica> replicas, long v, ReplicaQuery<T> query)
            throws SQLException {
        ExecutorService threads = Executors.newFixedThreadPool(replicas.size(), r -> {
            Thread t = new Thread(r, "macrodb-query-each-replica");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<ReplicaResult<T>>> running = new ArrayList<>();
            for (Replica replica : replicas) {
                running.add(threads.submit(() -> queryOne(replica, v, query)));
            }
            List<ReplicaResult<T>> results = new ArrayList<>();
            SQLException failure = null;
            for (Future<ReplicaResult<T>> result : running) {
                try {
                    results.add(result.get());
                } catch (ExecutionException e) {
                    if (failure == null) {
                        failure = e.getCause() instanceof SQLException s ? s
                                : new SQLException("A query on a replica failed: " + e.getCause(), e.getCause());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new SQLException("Interrupted while querying every replica", e);
                }
            }
            if (failure != null) {
                throw failure;
            }
            return results;
        } finally {
            threads.shutdownNow();
        }
    }

    /**
     * The healthy replicas, master first, once each has applied version {@code v}. Read again after the waits: a slave
     * may have been failed meanwhile (a rebuild replaces it), and its database gone.
     */
    private List<Replica> caughtUp(long v) throws SQLException {
        List<Replica> replicas = membership.healthy();
        while (true) {
            for (Replica replica : replicas) {
                replica.awaitVersion(v, config.get(MacroOption.READ_WAIT_TIMEOUT_MS));
            }
            List<Replica> now = membership.healthy();
            if (now.equals(replicas)) {
                return replicas;
            }
            replicas = now;
        }
    }

    /**
     * Runs {@code query} on {@code replica}. A replica failed while the query read it gives no answer, as a read-only
     * transaction's commit fails there: its data is not trusted, and its engine's "closed" is no answer either.
     */
    private <T> ReplicaResult<T> queryOne(Replica replica, long v, ReplicaQuery<T> query) throws SQLException {
        ReplicaResult<T> result;
        try (Connection connection = openPhysical(replica, engineProperties)) {
            connection.setReadOnly(true);
            T value = replica == membership.master()
                    ? sequencer.onMasterWhileCommitsHeld(connection, () -> query.run(connection))
                    : query.run(connection);
            result = new ReplicaResult<>(replica.index(), replica.role(), v, value);
            connection.rollback();
        } catch (SQLException e) {
            if (replica.isLost() || isDatabaseLost(replica, e)) {
                throw lostUnderQuery(replica, e);
            }
            throw e;
        }
        if (replica.isLost()) {
            throw lostUnderQuery(replica, null);
        }
        return result;
    }

    private static SQLException lostUnderQuery(Replica replica, SQLException cause) {
        return new SQLTransientException("Replica " + replica.index() + " failed while this call read it; the cluster "
                + "replaces it. Call again.", MacroSqlState.REPLICA_LOST, cause);
    }

    @Override
    public synchronized void shutdown() throws SQLException {
        if (shutdown) {
            return;
        }
        probe.stop(); // first: no probe runs on a database being shut down
        recovery.stop(); // a rebuild in progress may hold an applier paused or update transactions back
        // No commit may be in flight while the queues drain: after the last enqueue, drain, then close.
        sequencer.whileCommitsHeld(() -> {
            shutdown = true;
            for (Replica slave : membership.slaves()) {
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
        boolean durableMaster = !engine.inMemory(config.engineUrl());
        Map<Replica, Connection> own;
        synchronized (ownConnections) {
            own = new LinkedHashMap<>(ownConnections);
        }
        for (Map.Entry<Replica, Connection> database : own.entrySet()) {
            try {
                // Everything committed is applied by now. An in-memory database has nothing to keep, and a plain
                // SHUTDOWN would wait for the application's sessions still open on it (H2: 4 s by default).
                if (durableMaster && database.getKey() == membership.master()) {
                    engine.shutdown(database.getValue());
                } else {
                    engine.discard(database.getValue());
                }
            } catch (SQLException e) {
                failure = failure == null ? e : failure;
            }
        }
        membership.master().setHealth(ReplicaHealth.CLOSED);
        membership.slaves().forEach(s -> s.setHealth(ReplicaHealth.CLOSED));
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

    private List<Connection> ownConnections() {
        synchronized (ownConnections) {
            return List.copyOf(ownConnections.values());
        }
    }

    private void closeQuietly() {
        probe.stop();
        recovery.stopNow();
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
