package io.macrodb.api;

/** Whether a replica may serve transactions. */
public enum ReplicaHealth {
    /** In routing. */
    HEALTHY,
    /** Taken out of routing after a failure; holds no trusted state. */
    FAILED,
    /** Closed by a shutdown. */
    CLOSED
}
