package io.macrodb.tpcc;

import io.macrodb.bench.Mix;
import io.macrodb.bench.TransactionType;
import io.macrodb.bench.UserAbortException;
import io.macrodb.bench.WorkloadClient;
import io.macrodb.tpcc.procedures.Delivery;
import io.macrodb.tpcc.procedures.NewOrder;
import io.macrodb.tpcc.procedures.OrderStatus;
import io.macrodb.tpcc.procedures.Payment;
import io.macrodb.tpcc.procedures.StockLevel;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One TPC-C terminal: the five transactions prepared on its connection, and its {@link Terminal} context. Each call
 * runs one transaction's statements; the harness commits. A new transaction draws new inputs; an attempt the harness
 * retries (after a retryable failure) runs the failed attempt's inputs again, as a terminal resubmits the same
 * transaction, so the inputs every target sees do not depend on its retries. The inputs are dropped once the
 * transaction commits ({@link #committed}) or rolls back by its profile (a {@link UserAbortException}), and when the
 * harness asks for the next transaction ({@link #next}), so one that failed for good is not run again.
 */
public final class TpccClient implements WorkloadClient {

    private final Terminal terminal;
    private Procedures procedures;
    /** The transaction in progress and its inputs, kept for a retry; null when none is in progress. */
    private TpccTransactionType pendingType;
    private Object pendingInput;
    /** This terminal's deck of the mix it deals from ({@link #next}). */
    private Mix.Deck deck;

    public TpccClient(Connection connection, Terminal terminal) throws SQLException {
        this.terminal = terminal;
        this.procedures = Procedures.prepare(connection);
    }

    @Override
    public void execute(TransactionType type) throws SQLException, UserAbortException {
        if (!(type instanceof TpccTransactionType t)) {
            throw new IllegalArgumentException("not a TPC-C transaction: " + type.displayName());
        }
        if (t != pendingType) {
            pendingInput = switch (t) {
                case NEW_ORDER -> NewOrder.generate(terminal);
                case PAYMENT -> Payment.generate(terminal);
                case ORDER_STATUS -> OrderStatus.generate(terminal);
                case DELIVERY -> Delivery.generate(terminal);
                case STOCK_LEVEL -> StockLevel.generate(terminal);
            };
            pendingType = t;
        }
        try {
            switch (t) {
                case NEW_ORDER -> procedures.newOrder().execute((NewOrder.Input) pendingInput);
                case PAYMENT -> procedures.payment().execute((Payment.Input) pendingInput);
                case ORDER_STATUS -> procedures.orderStatus().execute((OrderStatus.Input) pendingInput);
                case DELIVERY -> procedures.delivery().execute((Delivery.Input) pendingInput);
                case STOCK_LEVEL -> procedures.stockLevel().execute((StockLevel.Input) pendingInput);
            }
        } catch (UserAbortException e) {
            forgetInput(); // rolled back by its profile: done, never retried
            throw e;
        }
    }

    /**
     * A new transaction, not a retry: whatever an earlier one left (it failed for good) is dropped. Dealt from this
     * terminal's deck of the mix (clause 5.2.4.2), so that every type keeps at least its share.
     */
    @Override
    public TransactionType next(Mix mix, SplittableRandom random) {
        forgetInput();
        if (deck == null || !deck.isOf(mix)) {
            deck = mix.newDeck();
        }
        return deck.next(random);
    }

    @Override
    public void committed(TransactionType type) {
        forgetInput();
    }

    private void forgetInput() {
        pendingType = null;
        pendingInput = null;
    }

    public Terminal terminal() {
        return terminal;
    }

    /** The five transactions prepared anew on {@code replacement}; the inputs of one being retried are kept. */
    @Override
    public void reconnect(Connection replacement) throws SQLException {
        Procedures broken = procedures;
        procedures = Procedures.prepare(replacement);
        try {
            broken.close();
        } catch (SQLException ignored) {
            // their connection is broken; the harness closes it next
        }
    }

    @Override
    public void close() throws SQLException {
        procedures.close();
    }

    /** The five transactions, each with its statements prepared on one connection. */
    private record Procedures(NewOrder newOrder, Payment payment, OrderStatus orderStatus, Delivery delivery,
                              StockLevel stockLevel) {

        /** Prepares all five, or none: when one fails, those prepared before it are closed. */
        static Procedures prepare(Connection connection) throws SQLException {
            List<AutoCloseable> prepared = new ArrayList<>();
            try {
                NewOrder newOrder = kept(prepared, new NewOrder(connection));
                Payment payment = kept(prepared, new Payment(connection));
                OrderStatus orderStatus = kept(prepared, new OrderStatus(connection));
                Delivery delivery = kept(prepared, new Delivery(connection));
                StockLevel stockLevel = kept(prepared, new StockLevel(connection));
                return new Procedures(newOrder, payment, orderStatus, delivery, stockLevel);
            } catch (SQLException | RuntimeException e) {
                SQLException closing = closeAll(prepared);
                if (closing != null) {
                    e.addSuppressed(closing);
                }
                throw e;
            }
        }

        /** Closes all five, the rest too when one fails; throws the first failure. */
        void close() throws SQLException {
            SQLException first = closeAll(List.of(newOrder, payment, orderStatus, delivery, stockLevel));
            if (first != null) {
                throw first;
            }
        }

        private static <T extends AutoCloseable> T kept(List<AutoCloseable> prepared, T procedure) {
            prepared.add(procedure);
            return procedure;
        }

        /** Closes each of {@code procedures}; returns the first failure, the later ones suppressed in it, or null. */
        private static SQLException closeAll(List<AutoCloseable> procedures) {
            SQLException first = null;
            for (AutoCloseable procedure : procedures) {
                try {
                    procedure.close();
                } catch (Exception e) {
                    SQLException failure = e instanceof SQLException sql ? sql : new SQLException(e);
                    if (first == null) {
                        first = failure;
                    } else {
                        first.addSuppressed(failure);
                    }
                }
            }
            return first;
        }
    }
}
