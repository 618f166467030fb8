package io.macrodb.runtime.cluster;

import java.util.List;

/**
 * Chooses the replica for a read-only transaction that needs version {@code v}. The policy, in order:
 * Only routable slaves count: healthy, and not paused while a new slave is copied from them.
 * <ol>
 *   <li>among healthy slaves that have already applied {@code v}, the one running the fewest transactions
 *       (no wait at all);</li>
 *   <li>otherwise, if the master is running no transaction, the master: it is always current, and waiting for a
 *       slave while the master sits idle would be waiting for no reason (a lone client that writes and then reads
 *       would otherwise wait for its own write to be applied every time);</li>
 *   <li>otherwise the healthy slave closest to {@code v} (the shortest wait);</li>
 *   <li>with no healthy slave (replicas = 1, or all failed), the master.</li>
 * </ol>
 */
final class ReadRouter {

    Replica choose(List<Replica> slaves, Replica master, long v) {
        Replica best = null;
        for (Replica slave : slaves) {
            if (!slave.isRoutable()) {
                continue;
            }
            if (best == null || better(slave, best, v)) {
                best = slave;
            }
        }
        if (best == null || (best.version() < v && master.activeTransactions() == 0 && master.isHealthy())) {
            return master;
        }
        return best;
    }

    private static boolean better(Replica candidate, Replica best, long v) {
        boolean candidateReady = candidate.version() >= v;
        boolean bestReady = best.version() >= v;
        if (candidateReady != bestReady) {
            return candidateReady;
        }
        if (candidateReady) {
            return candidate.activeTransactions() < best.activeTransactions();
        }
        return candidate.version() > best.version();
    }
}
