package io.macrodb.runtime.cluster;

import io.macrodb.api.MacroSqlState;
import io.macrodb.api.ReplicaRole;
import io.macrodb.runtime.capture.CapturedTable;
import io.macrodb.runtime.capture.WriteSet;
import io.macrodb.runtime.engine.Engine;
import io.macrodb.runtime.engine.SqlQueries;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Replaces a failed master with a caught-up slave (contract section 4): new update transactions wait at the
 * {@link UpdateGate}; under the commit lock the old master is marked failed (update transactions still running on
 * it fail with 40M01 at their next statement or at commit: nothing more commits there), the chosen slave applies
 * everything queued for it, which is every committed version, its applier stops, and it becomes the master, its
 * version continuing the commit counter. Update transactions then begin on it. No committed transaction is lost
 * (every commit was queued for the slave before the lock was free) and none is applied twice (the slave's queue is
 * in version order, each version once).
 *
 * <p>Capture needs nothing on the slave (it is each master connection's row log, made when the connection opens its
 * session on the new master); the slave already has the same sequence and identity counters; it gets its foreign key checks back, which slaves run without.
 */
final class MasterPromotion {

    private static final Logger LOG = Logger.getLogger(MasterPromotion.class.getName());

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
                WriteSet.CounterState carried = carryOverCounters(old, own);
                SqlQueries.execute(own, engine.referentialIntegrity(true));
                own.commit();
                installUserTriggers(chosen, own);
                cluster.catalog().refresh(own);
                chosen.setRole(ReplicaRole.MASTER);
                sequencer.setMaster(chosen);
                cluster.membership().promote(chosen);
                if (carried != null) {
                    sequencer.publishCounters(carried); // the other slaves hold the counters carried over too
                }
                return old;
            });
        } finally {
            gate.open();
        }
    }

    /**
     * Creates the application's triggers on the promoted slave, which had none of them. Where {@code CREATE TRIGGER}
     * waits for every other session's transaction (HSQLDB's MVCC modes), the read-only transactions open on the
     * slave are ended first (they fail with 40M01 and run again): with commits held, one left open by an application
     * held every update transaction at the gate for as long as it stayed open.
     */
    private void installUserTriggers(Replica chosen, Connection own) throws SQLException {
        List<String> triggers = cluster.catalog().userTriggers();
        if (triggers.isEmpty()) {
            return;
        }
        if (engine.schemaReadWaitsForTransactions()) {
            long ended = chosen.openReads().stream().filter(OpenRead::endEarly).count();
            if (ended > 0) {
                LOG.warning(() -> "MacroDB: ended " + ended + " read-only transaction(s) open on " + chosen
                        + " to install the application's triggers on it as the new master; they fail with 40M01.");
            }
        }
        UserTriggers.install(own, triggers);
    }

    /**
     * Sequence and identity values the old master handed to transactions that never committed are in no write set,
     * so the chosen slave's counters are behind them. Where the old master's database can still be read (an
     * operator's failover), its counters are carried over, so that no value is handed out twice (an application may
     * have used it: counters are not transactional). A database that is gone tells nothing: then a value drawn only
     * in a transaction that was in flight can be drawn again. Under the commit lock, with the old master failed: no
     * statement begins on it any more.
     *
     * @return the counters moved, for the other slaves; null when none was
     */
    private WriteSet.CounterState carryOverCounters(Replica old, Connection promoted) throws SQLException {
        Connection from = cluster.ownConnection(old);
        Map<String, Long> sequences;
        Map<String, Long> identities;
        try {
            sequences = engine.sequenceState(from);
            identities = engine.identityState(from);
            from.rollback();
        } catch (SQLException | RuntimeException gone) {
            LOG.log(Level.FINE, "MacroDB: the failed master's counters cannot be read; the promoted slave keeps its "
                    + "own", gone);
            return null;
        }
        Map<String, Long> movedSequences = new HashMap<>();
        Map<String, Long> ownSequences = engine.sequenceState(promoted);
        for (Map.Entry<String, Long> sequence : sequences.entrySet()) {
            if (!sequence.getValue().equals(ownSequences.get(sequence.getKey()))) {
                SqlQueries.execute(promoted, engine.restartSequence(sequence.getKey(), sequence.getValue()));
                movedSequences.put(sequence.getKey(), sequence.getValue());
            }
        }
        Map<CapturedTable, Long> movedIdentities = new HashMap<>();
        Map<String, Long> ownIdentities = engine.identityState(promoted);
        for (Map.Entry<String, Long> identity : identities.entrySet()) {
            CapturedTable table = cluster.catalog().get(identity.getKey());
            if (table != null && !identity.getValue().equals(ownIdentities.get(identity.getKey()))) {
                SqlQueries.execute(promoted, engine.restartIdentity(table, identity.getValue()));
                movedIdentities.put(table, identity.getValue());
            }
        }
        return movedSequences.isEmpty() && movedIdentities.isEmpty() ? null
                : new WriteSet.CounterState(Map.copyOf(movedSequences), Map.copyOf(movedIdentities));
    }
}
