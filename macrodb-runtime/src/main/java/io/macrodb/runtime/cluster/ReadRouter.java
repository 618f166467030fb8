package io.macrodb.runtime.cluster;

import java.util.List;

/**
 * Chooses the replica for a read-only transaction that needs version {@code v}. The policy, in order:
 * <ol>
 *   <li>among healthy slaves that have already applied {@code v}, the one running the fewest transactions
 *       (no wait at all);</li>
 *   <li>otherwise the healthy slave closest to {@code v} (the shortest wait);</li>
 *   <li>with no healthy slave (replicas = 1, or all failed), the master, which is always current.</li>
 * </ol>
 */
final class ReadRouter {

    Replica choose(List<Replica> slaves, Replica master, long v) {
        Replica best = null;
        for (Replica slave : slaves) {
            if (!slave.isHealthy()) {
                continue;
            }
            if (best == null || better(slave, best, v)) {
                best = slave;
            }
        }
        return best == null ? master : best;
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
