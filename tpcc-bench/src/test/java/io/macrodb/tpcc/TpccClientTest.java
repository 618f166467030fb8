package io.macrodb.tpcc;

import io.macrodb.bench.LoadProgress;
import io.macrodb.bench.targets.Database;
import io.macrodb.bench.targets.Presets;
import io.macrodb.tpcc.procedures.Payment;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A terminal resubmits the same transaction when the database asks for a retry: the retried attempt runs the failed
 * attempt's inputs, not fresh ones, so every target sees the same inputs whatever its retries. After a commit, or
 * once the harness draws the next transaction, the next one draws new inputs.
 */
class TpccClientTest {

    private static final TpccScale SCALE = TpccScale.small(1);
    private static final long SEED = 7;

    @Test
    void aRetryRunsTheFailedAttemptsInputs() throws Exception {
        Database db = Presets.resolve("h2").freshDatabase("tpcc_client_test");
        try {
            new TpccWorkload(SCALE).load(db, SEED, LoadProgress.NONE);
            Terminal twin = terminal();
            Payment.Input first = Payment.generate(twin);
            Payment.Input second = Payment.generate(twin);
            try (Connection c = db.connect(); Connection blocker = db.connect();
                 TpccClient client = new TpccClient(c, terminal())) {
                try (Statement s = c.createStatement()) {
                    s.execute("SET LOCK_TIMEOUT 100");
                }
                BigDecimal ytd = warehouseYtd(c);
                c.commit();

                // another transaction holds the warehouse row: the first attempt times out (HYT00, retryable)
                try (Statement s = blocker.createStatement()) {
                    s.executeUpdate("UPDATE warehouse SET w_ytd = w_ytd WHERE w_id = 1");
                }
                assertThrows(SQLException.class, () -> client.execute(TpccTransactionType.PAYMENT));
                c.rollback();
                blocker.rollback();

                client.execute(TpccTransactionType.PAYMENT);
                c.commit();
                client.committed(TpccTransactionType.PAYMENT);
                assertEquals(0, ytd.add(first.amount()).compareTo(warehouseYtd(c)),
                        "the retry paid the first attempt's amount " + first.amount());
                c.commit();

                client.execute(TpccTransactionType.PAYMENT);
                c.commit();
                client.committed(TpccTransactionType.PAYMENT);
                BigDecimal paid = ytd.add(first.amount()).add(second.amount());
                assertEquals(0, paid.compareTo(warehouseYtd(c)),
                        "after the commit, the next Payment drew new inputs: " + second.amount());
                c.commit();

                // a transaction that failed for good (not retried): the harness's next draw starts a new one
                Payment.Input third = Payment.generate(twin);
                Payment.Input fourth = Payment.generate(twin);
                try (Statement s = blocker.createStatement()) {
                    s.executeUpdate("UPDATE warehouse SET w_ytd = w_ytd WHERE w_id = 1");
                }
                assertThrows(SQLException.class, () -> client.execute(TpccTransactionType.PAYMENT));
                c.rollback();
                blocker.rollback();
                client.next(TpccMixes.STANDARD, new SplittableRandom(1));
                client.execute(TpccTransactionType.PAYMENT);
                c.commit();
                client.committed(TpccTransactionType.PAYMENT);
                assertEquals(0, paid.add(fourth.amount()).compareTo(warehouseYtd(c)),
                        "the new transaction paid " + fourth.amount() + ", not the abandoned " + third.amount());
                c.commit();
            }
        } finally {
            db.shutdown();
        }
    }

    /** A connection that breaks mid-transaction: the retry runs the same inputs over the new connection. */
    @Test
    void aRetryOverANewConnectionRunsTheSameInputs() throws Exception {
        Database db = Presets.resolve("h2").freshDatabase("tpcc_client_reconnect_test");
        try {
            new TpccWorkload(SCALE).load(db, SEED, LoadProgress.NONE);
            Payment.Input first = Payment.generate(terminal());
            Connection broken = db.connect();
            try (Connection replacement = db.connect(); TpccClient client = new TpccClient(broken, terminal())) {
                BigDecimal ytd = warehouseYtd(replacement);
                replacement.commit();
                broken.close(); // before the first attempt ran: it fails, and the harness reconnects
                assertThrows(SQLException.class, () -> client.execute(TpccTransactionType.PAYMENT));
                client.reconnect(replacement);
                client.execute(TpccTransactionType.PAYMENT);
                replacement.commit();
                client.committed(TpccTransactionType.PAYMENT);
                assertEquals(0, ytd.add(first.amount()).compareTo(warehouseYtd(replacement)),
                        "the retry paid the first attempt's amount " + first.amount());
                replacement.commit();
            }
        } finally {
            db.shutdown();
        }
    }

    private static Terminal terminal() {
        return Terminal.forClient(0, new TpccRandom(new SplittableRandom(SEED), NuRandConstants.forRun(SEED), SCALE),
                SCALE);
    }

    private static BigDecimal warehouseYtd(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT w_ytd FROM warehouse WHERE w_id = 1")) {
            rs.next();
            return rs.getBigDecimal(1);
        }
    }
}
