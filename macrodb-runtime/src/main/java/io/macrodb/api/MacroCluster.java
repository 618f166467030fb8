package io.macrodb.api;

import java.sql.SQLException;
import java.util.List;

/**
 * The operator's view of one MacroDB cluster: one master and its slaves, all copies of one database.
 *
 * <p>Reached from any MacroDB connection with {@code connection.unwrap(MacroCluster.class)}. Every
 * method is safe to call while the cluster serves transactions. Facts returned are snapshots: a
 * replica's version may have moved on by the time the caller reads it.
 */
public interface MacroCluster {

    /** The normalised URL that identifies this cluster (engine URL plus MacroDB options). */
    String url();

    /** The engine's name, such as {@code h2} or {@code hsqldb}. */
    String engine();

    /** The version of the last committed update transaction: the master's commit counter. */
    long committedVersion();

    /** Every replica, master first, with role, version, health, queue depth and lag. */
    List<ReplicaStatus> replicas();

    /** Totals since the cluster started: commits, routed reads, read waits, apply time, failures. */
    ClusterMetrics metrics();

    /**
     * Proves the replicas identical or shows where they differ: commits are held back briefly, every
     * slave catches up to the master's version, and each replica's tables (and sequence state) are
     * check-summed at that one version, every replica at once ({@link #queryEachReplicaConcurrently}). A slave
     * that differs from the master is failed (as by {@link #failReplica}) and rebuilt; the report still shows how it differed. Sequence and identity counters are
     * compared only when no update transaction is in flight (one may have drawn from the master's counters, which no
     * slave can have before it ends); otherwise the report leaves them out.
     */
    VerificationReport verify() throws SQLException;

    /**
     * Runs {@code query} on every healthy replica, master first, at one common version (commits are held
     * back while it runs). The connection given to the query is the replica's own and is read-only in
     * spirit: a write through it fails. Used by checks that must hold on every copy, such as TPC-C's
     * consistency conditions. A replica that fails while the query reads it fails the call with the retryable
     * 40M01 (its answer is not trusted); call again once the cluster has replaced it.
     */
    <T> List<ReplicaResult<T>> queryEachReplica(ReplicaQuery<T> query) throws SQLException;

    /**
     * The same, with every replica's query running at once, each on a thread of its own: commits are held back for
     * the slowest replica's query rather than for all of them in turn (a check-sum of every replica takes as long as
     * one, given the cores). {@code query} must be safe to run from several threads at once. The results come in the
     * same order, master first; if a query fails, the first failure (in that order) is thrown once all have ended. The
     * query must not call back into this cluster's {@code verify} or {@code queryEachReplica...}: they wait for it.
     */
    <T> List<ReplicaResult<T>> queryEachReplicaConcurrently(ReplicaQuery<T> query) throws SQLException;

    /**
     * Fails replica {@code index} on purpose, as if its engine had failed (for drills and tests). A slave leaves
     * routing at once, read-only transactions running on it fail with the retryable SQLState 40M01 at their next
     * statement, and a new slave (same index, new database) is built in its place in the background while the
     * cluster keeps serving; this returns at once, and {@link #replicas()} shows the new slave catching up, then
     * healthy. The master is replaced by the healthy slave furthest ahead, after it has applied every committed
     * version (update transactions in flight on the old master fail with 40M01, new ones wait); this returns once
     * the slave has taken over, and a new slave is then built in the old master's place.
     *
     * @throws SQLException 22023 if there is no such replica; 0A000 for a master with no healthy slave to take
     *                      over, or one that is a file database (its only durable copy)
     */
    void failReplica(int index) throws SQLException;

    /**
     * Replaces slave {@code index} (healthy or failed) with a new copy, same index and new database, built from a
     * healthy replica while the cluster keeps serving, and returns when the copy has caught up and joined routing.
     * A slave that failed is being rebuilt already: this waits for that rebuild, or tries again if it failed.
     *
     * @throws SQLException 22023 if there is no such slave; 0A000 for the master; the rebuild's own error if it
     *                      failed (it can be tried again)
     */
    void rebuildReplica(int index) throws SQLException;

    /**
     * Shuts the cluster down: refuses new transactions, drains every slave's queue (nothing committed is
     * dropped), then closes the engines. Connections still open fail afterwards with SQLState 08003.
     */
    void shutdown() throws SQLException;

    /** Whether {@link #shutdown()} has run (or the JVM's shutdown hook did). */
    boolean isShutdown();
}
