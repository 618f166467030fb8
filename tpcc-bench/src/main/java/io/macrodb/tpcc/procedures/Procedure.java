package io.macrodb.tpcc.procedures;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * The common part of the five transaction classes: the connection they run on and the prepared statements they
 * own. A transaction class only runs statements; the harness's worker owns commit, rollback and retry.
 */
abstract class Procedure implements AutoCloseable {

    protected final Connection connection;
    private final List<PreparedStatement> statements = new ArrayList<>();

    Procedure(Connection connection) {
        this.connection = connection;
    }

    /**
     * Prepares one of the transaction's statements. A constructor calls it for each; when one fails, the statements
     * prepared before it are closed here, since the half-built transaction object never reaches anyone who would.
     */
    protected final PreparedStatement prepare(String sql) throws SQLException {
        PreparedStatement ps;
        try {
            ps = connection.prepareStatement(sql);
        } catch (SQLException | RuntimeException e) {
            try {
                close();
            } catch (SQLException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
        statements.add(ps);
        return ps;
    }

    /** Closes every statement, the rest too when one fails to close; throws the first failure. */
    @Override
    public void close() throws SQLException {
        SQLException first = null;
        for (PreparedStatement ps : statements) {
            try {
                ps.close();
            } catch (SQLException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        statements.clear();
        if (first != null) {
            throw first;
        }
    }

    /**
     * Runs {@code query} with {@code keys} bound, in order, as its int parameters and returns its result on its first
     * row, for the caller to read and close. The spec guarantees the row these lookups find: none means the database
     * is broken ({@link #missing}), and the message names {@code what} and its keys.
     */
    static ResultSet oneRow(PreparedStatement query, String what, int... keys) throws SQLException {
        for (int i = 0; i < keys.length; i++) {
            query.setInt(i + 1, keys[i]);
        }
        ResultSet rs = query.executeQuery();
        if (!rs.next()) {
            rs.close();
            StringJoiner key = new StringJoiner("/");
            for (int k : keys) {
                key.add(Integer.toString(k));
            }
            throw missing(what + " " + key);
        }
        return rs;
    }

    /** Thrown when a row the spec guarantees is missing: the database is broken, not busy. */
    static IllegalStateException missing(String what) {
        return new IllegalStateException("TPC-C row missing: " + what);
    }
}
