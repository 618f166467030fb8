package io.macrodb.tpcc.procedures;

import io.macrodb.bench.LoadProgress;
import io.macrodb.bench.UserAbortException;
import io.macrodb.bench.run.CorrectnessVerifier;
import io.macrodb.bench.targets.Database;
import io.macrodb.bench.targets.Presets;
import io.macrodb.tpcc.NuRandConstants;
import io.macrodb.tpcc.TestTargets;
import io.macrodb.tpcc.Terminal;
import io.macrodb.tpcc.TpccClient;
import io.macrodb.tpcc.TpccConsistency;
import io.macrodb.tpcc.TpccRandom;
import io.macrodb.tpcc.TpccScale;
import io.macrodb.tpcc.TpccTransactionType;
import io.macrodb.tpcc.TpccWorkload;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The one base of every transaction test (as BenchBase's AbstractTestCase): for each target, load a tiny TPC-C
 * database (NOT spec scale: two warehouses so remote paths run), let the subclass check its transaction's effects
 * with chosen inputs, then run the transaction many times with random inputs the way the harness does (read-only
 * flag, commit, rollback on a user abort), and finally check every consistency condition (on every replica for
 * MacroDB, plus replica verification).
 */
abstract class AbstractTransactionTest {

    static final TpccScale SCALE = TpccScale.small(2);
    static final long SEED = 11;
    private static final int RANDOM_RUNS = 40;

    static List<String> targets() {
        return TestTargets.all();
    }

    /** The transaction under test. */
    abstract TpccTransactionType type();

    /**
     * Runs the transaction with chosen inputs on {@code c} (auto-commit off) and checks what it did; commits or rolls
     * back itself.
     */
    abstract void checkEffects(Connection c, Terminal terminal) throws Exception;

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void runsOn(String preset) throws Exception {
        Database db = Presets.resolve(preset).freshDatabase("tpcc_test");
        try {
            new TpccWorkload(SCALE).load(db, SEED, LoadProgress.NONE);
            try (Connection c = db.connect()) {
                checkEffects(c, terminal(0));
                c.commit();
                int completed = runLikeTheHarness(c, terminal(3));
                assertEquals(RANDOM_RUNS, completed);
            }
            CorrectnessVerifier.Report report = CorrectnessVerifier.verify(db, TpccConsistency.all());
            assertTrue(report.passed().size() >= TpccConsistency.all().size(), report.toString());
        } finally {
            db.shutdown();
        }
    }

    static Terminal terminal(int index) {
        var random = new TpccRandom(new SplittableRandom(index + 100), NuRandConstants.forRun(SEED), SCALE);
        return Terminal.forClient(index, random, SCALE);
    }

    /**
     * The harness's transaction boundary, in short: read-only flag, execute, commit and tell the client; rollback on
     * a user abort.
     */
    private int runLikeTheHarness(Connection c, Terminal terminal) throws SQLException {
        int completed = 0;
        try (TpccClient client = new TpccClient(c, terminal)) {
            for (int i = 0; i < RANDOM_RUNS; i++) {
                if (type().readOnly()) {
                    c.setReadOnly(true);
                }
                try {
                    client.execute(type());
                    c.commit();
                    client.committed(type());
                } catch (UserAbortException e) {
                    c.rollback();
                }
                if (type().readOnly()) {
                    c.setReadOnly(false);
                }
                completed++;
            }
        }
        return completed;
    }

    // small query helpers for the subclasses

    static long queryLong(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), "no row: " + sql);
                return rs.getLong(1);
            }
        }
    }

    static BigDecimal queryDecimal(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), "no row: " + sql);
                return rs.getBigDecimal(1);
            }
        }
    }

    static String queryString(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), "no row: " + sql);
                return rs.getString(1);
            }
        }
    }

    static int update(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            return ps.executeUpdate();
        }
    }

    static void assertDecimalEquals(BigDecimal expected, BigDecimal actual, String what) {
        assertEquals(0, expected.compareTo(actual), what + ": expected " + expected + " but was " + actual);
    }
}
