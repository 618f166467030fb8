package io.macrodb.api;

import java.sql.Connection;
import java.sql.SQLException;

/** A read-only query that {@link MacroCluster#queryEachReplica} runs on each replica's own connection. */
@FunctionalInterface
public interface ReplicaQuery<T> {
    T run(Connection replicaConnection) throws SQLException;
}
