package io.macrodb.api;

/** Whether a replica may serve transactions. */
public enum ReplicaHealth {
    /** In routing. */
    HEALTHY,
    /**
     * A new slave being built to replace a failed one: copied from a healthy replica, now applying what was committed
     * since. Not in routing until it has caught up with the master; then {@link #HEALTHY}.
     */
    CATCHING_UP,
    /** Taken out of routing after a failure; holds no trusted state. A new slave is built to replace it. */
    FAILED,
    /** Closed by a shutdown. */
    CLOSED
}
