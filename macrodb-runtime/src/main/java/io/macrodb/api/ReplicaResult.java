package io.macrodb.api;

/** What a {@link ReplicaQuery} returned on one replica, tagged with the replica and the version read. */
public record ReplicaResult<T>(int replica, ReplicaRole role, long version, T value) {
}
