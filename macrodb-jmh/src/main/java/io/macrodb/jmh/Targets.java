package io.macrodb.jmh;

import io.macrodb.api.MacroCluster;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/** The benchmarks' targets: an engine alone ({@code bare}) or MacroDB over it ({@code macrodb-r<N>}). */
final class Targets {

    private Targets() {
    }

    /** A connection to a new in-memory database {@code name} of {@code engine}, through {@code target}. */
    static Connection open(String engine, String target, String name) throws SQLException {
        String database = engine + ":mem:" + name + "_" + target.replace('-', '_') + "_" + System.nanoTime();
        return DriverManager.getConnection(target.equals("bare") ? "jdbc:" + database
                : "jdbc:macrodb:" + database + ";macrodb.replicas=" + target.substring("macrodb-r".length()));
    }

    /** Closes {@code connection} and frees its database: the cluster's shutdown, or the engine's SHUTDOWN. */
    static void close(Connection connection) throws SQLException {
        if (connection.isWrapperFor(MacroCluster.class)) {
            MacroCluster cluster = connection.unwrap(MacroCluster.class);
            connection.close();
            cluster.shutdown();
        } else {
            try (Statement statement = connection.createStatement()) {
                statement.execute("SHUTDOWN");
            }
            connection.close();
        }
    }
}
