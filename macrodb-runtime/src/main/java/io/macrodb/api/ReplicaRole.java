package io.macrodb.api;

/** What a replica does in its cluster. */
public enum ReplicaRole {
    /** Runs every update transaction; its commit counter defines the cluster's versions. */
    MASTER,
    /** Written only by its applier, in version order; serves read-only transactions. */
    SLAVE
}
