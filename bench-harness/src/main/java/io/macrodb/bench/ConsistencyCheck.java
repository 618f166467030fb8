package io.macrodb.bench;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * A condition the database must satisfy after a run (TPC-C's consistency conditions, for example).
 *
 * <p>The harness runs every check after every measured run: on the database alone for a bare engine, and on
 * every replica for MacroDB (through {@code MacroCluster.queryEachReplica}, all replicas at one version). A check
 * only reads. Any violation fails the whole run loudly.
 */
public interface ConsistencyCheck {

    /** What the check asserts, e.g. {@code "TPC-C 3.3.2.1: W_YTD = sum(D_YTD)"}. */
    String description();

    /**
     * Looks for violations.
     *
     * @return one line per violation found (a few examples are enough); empty when the condition holds
     * @throws SQLException when the check could not run, which also fails the run
     */
    List<String> violations(Connection connection) throws SQLException;
}
