package io.macrodb.tpcc;

import io.macrodb.bench.LoadProgress;
import io.macrodb.bench.targets.Database;
import io.macrodb.bench.targets.Presets;
import io.macrodb.tpcc.procedures.Payment;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    /**
     * A terminal whose statements cannot all be prepared (a connection breaking while it prepares them) leaves none
     * open: each point of failure is tried, and every statement prepared before it is closed. Closing a terminal closes
     * every statement even when one of them fails to close.
     */
    @Test
    void preparingOrClosingATerminalLeavesNoStatementOpen() throws Exception {
        Database db = Presets.resolve("h2").freshDatabase("tpcc_client_prepare_test");
        try (Connection c = db.connect()) {
            new TpccWorkload(SCALE).load(db, SEED, LoadProgress.NONE);
            StatementLedger all = new StatementLedger(Integer.MAX_VALUE, -1);
            new TpccClient(all.wrap(c), terminal()).close();
            assertTrue(all.prepared.size() > 5, "a statement per query: " + all.prepared.size());
            assertTrue(all.allClosed(), "close() closed every statement");

            for (int failAt = 0; failAt < all.prepared.size(); failAt++) {
                StatementLedger ledger = new StatementLedger(failAt, -1);
                assertThrows(SQLException.class, () -> new TpccClient(ledger.wrap(c), terminal()));
                assertEquals(failAt, ledger.prepared.size());
                assertTrue(ledger.allClosed(), "prepare failing at statement " + failAt + " left none open");
            }

            StatementLedger failingClose = new StatementLedger(Integer.MAX_VALUE, 2);
            TpccClient client = new TpccClient(failingClose.wrap(c), terminal());
            assertThrows(SQLException.class, client::close);
            assertEquals(failingClose.prepared.size() - 1, failingClose.closed.size(), "all but the failing one");
        } finally {
            db.shutdown();
        }
    }

    /**
     * Wraps a connection to record the statements prepared on it and which were closed; the {@code failPrepareAt}-th
     * prepare (counting from 0) fails, and so does closing the {@code failCloseAt}-th statement.
     */
    private static final class StatementLedger {
        final List<PreparedStatement> prepared = new ArrayList<>();
        final Set<PreparedStatement> closed = Collections.newSetFromMap(new IdentityHashMap<>()); // proxies: by identity
        private final int failPrepareAt;
        private final int failCloseAt;

        StatementLedger(int failPrepareAt, int failCloseAt) {
            this.failPrepareAt = failPrepareAt;
            this.failCloseAt = failCloseAt;
        }

        Connection wrap(Connection real) {
            return proxy(Connection.class, (proxy, method, args) -> {
                if (!method.getName().equals("prepareStatement")) {
                    return invoke(method, real, args);
                }
                if (prepared.size() == failPrepareAt) {
                    throw new SQLException("the connection broke", "08006");
                }
                PreparedStatement ps = (PreparedStatement) invoke(method, real, args);
                int index = prepared.size();
                PreparedStatement recorded = proxy(PreparedStatement.class, (p, m, a) -> {
                    if (m.getName().equals("close")) {
                        if (index == failCloseAt) {
                            throw new SQLException("close failed", "08006");
                        }
                        closed.add((PreparedStatement) p);
                    }
                    return invoke(m, ps, a);
                });
                prepared.add(recorded);
                return recorded;
            });
        }

        boolean allClosed() {
            return closed.containsAll(prepared);
        }

        private static <T> T proxy(Class<T> type, InvocationHandler handler) {
            return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[]{type}, handler));
        }

        private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
            try {
                return method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
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
