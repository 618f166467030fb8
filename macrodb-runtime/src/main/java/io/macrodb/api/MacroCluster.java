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
     * check-summed at that one version.
     */
    VerificationReport verify() throws SQLException;

    /**
     * Runs {@code query} on every healthy replica, master first, at one common version (commits are held
     * back while it runs). The connection given to the query is the replica's own and is read-only in
     * spirit: a write through it fails. Used by checks that must hold on every copy, such as TPC-C's
     * consistency conditions.
     */
    <T> List<ReplicaResult<T>> queryEachReplica(ReplicaQuery<T> query) throws SQLException;

    /**
     * Shuts the cluster down: refuses new transactions, drains every slave's queue (nothing committed is
     * dropped), then closes the engines. Connections still open fail afterwards with SQLState 08003.
     */
    void shutdown() throws SQLException;

    /** Whether {@link #shutdown()} has run (or the JVM's shutdown hook did). */
    boolean isShutdown();
}
