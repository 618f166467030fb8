package io.macrodb.runtime.cluster;

import io.macrodb.api.MacroSqlState;
import io.macrodb.api.ReplicaRole;
import io.macrodb.runtime.engine.Engine;
import io.macrodb.runtime.engine.SqlQueries;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientException;

/**
 * Replaces a failed master with a caught-up slave (contract section 4): new update transactions wait at the
 * {@link UpdateGate}; under the commit lock the old master is marked failed (update transactions still running on
 * it fail with 40M01 at their next statement or at commit: nothing more commits there), the chosen slave applies
 * everything queued for it, which is every committed version, its applier stops, and it becomes the master, its
 * version continuing the commit counter. Update transactions then begin on it. No committed transaction is lost
 * (every commit was queued for the slave before the lock was free) and none is applied twice (the slave's queue is
 * in version order, each version once).
 *
 * <p>The slave already has every capture trigger (slaves keep them for this) and the same sequence and identity
 * counters; it gets its foreign key checks back, which slaves run without.
 */
final class MasterPromotion {

    private final Cluster cluster;
    private final Engine engine;
    private final long timeoutMillis;

    MasterPromotion(Cluster cluster, Engine engine, long timeoutMillis) {
        this.cluster = cluster;
        this.engine = engine;
        this.timeoutMillis = timeoutMillis;
    }

    /** Promotes {@code chosen} in place of the master; returns the master it replaced. */
    Replica promote(Replica chosen) throws SQLException {
        CommitSequencer sequencer = cluster.sequencer();
        chosen.awaitVersion(sequencer.version(), timeoutMillis); // most of the way outside the lock
        UpdateGate gate = cluster.updateGate();
        gate.close();
        try {
            return sequencer.whileCommitsHeld(() -> {
                Replica old = cluster.master();
                old.fail();
                try {
                    chosen.awaitVersion(sequencer.version(), timeoutMillis); // now every committed version
                } catch (SQLException e) {
                    throw new SQLTransientException("The master failed and " + chosen + " could not apply what was "
                            + "queued for it; no master now.", MacroSqlState.REPLICA_LOST, e);
                }
                Applier applier = chosen.applier();
                try {
                    applier.drainAndStop(); // nothing is queued after the last version: the lock is ours
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new SQLException("Interrupted while promoting " + chosen, e);
                }
                sequencer.removeApplier(applier);
                Connection own = cluster.ownConnection(chosen);
                SqlQueries.execute(own, engine.referentialIntegrity(true));
                own.commit();
                cluster.catalog().refresh(own);
                chosen.setRole(ReplicaRole.MASTER);
                sequencer.setMaster(chosen);
                cluster.replaceMaster(chosen);
                return old;
            });
        } finally {
            gate.open();
        }
    }
}
