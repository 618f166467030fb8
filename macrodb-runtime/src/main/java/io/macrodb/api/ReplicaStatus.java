package io.macrodb.api;

/**
 * A snapshot of one replica.
 *
 * @param index              the replica's number; 0 is the replica that was master when the cluster started
 * @param role               master or slave
 * @param health             whether it is in routing
 * @param version            the last version applied (for the master: committed)
 * @param queueDepth         write sets queued and not yet applied (0 for the master)
 * @param lag                versions behind the master's committed version (0 for the master)
 * @param activeTransactions read-only transactions running on it now (for the master: all transactions)
 * @param database           the engine URL of this replica's own database
 */
public record ReplicaStatus(int index, ReplicaRole role, ReplicaHealth health, long version, int queueDepth,
                            long lag, int activeTransactions, String database) {
}
