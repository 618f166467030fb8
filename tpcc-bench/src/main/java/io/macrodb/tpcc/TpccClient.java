package io.macrodb.tpcc;

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

/**
 * One TPC-C terminal: the five transactions prepared on its connection, and its {@link Terminal} context. Each call
 * draws fresh inputs and runs one transaction's statements; the harness commits.
 */
public final class TpccClient implements WorkloadClient {

    private final Terminal terminal;
    private final NewOrder newOrder;
    private final Payment payment;
    private final OrderStatus orderStatus;
    private final Delivery delivery;
    private final StockLevel stockLevel;

    public TpccClient(Connection connection, Terminal terminal) throws SQLException {
        this.terminal = terminal;
        this.newOrder = new NewOrder(connection);
        this.payment = new Payment(connection);
        this.orderStatus = new OrderStatus(connection);
        this.delivery = new Delivery(connection);
        this.stockLevel = new StockLevel(connection);
    }

    @Override
    public void execute(TransactionType type) throws SQLException, UserAbortException {
        if (!(type instanceof TpccTransactionType t)) {
            throw new IllegalArgumentException("not a TPC-C transaction: " + type.displayName());
        }
        switch (t) {
            case NEW_ORDER -> newOrder.execute(NewOrder.generate(terminal));
            case PAYMENT -> payment.execute(Payment.generate(terminal));
            case ORDER_STATUS -> orderStatus.execute(OrderStatus.generate(terminal));
            case DELIVERY -> delivery.execute(Delivery.generate(terminal));
            case STOCK_LEVEL -> stockLevel.execute(StockLevel.generate(terminal));
        }
    }

    public Terminal terminal() {
        return terminal;
    }

    @Override
    public void close() throws SQLException {
        newOrder.close();
        payment.close();
        orderStatus.close();
        delivery.close();
        stockLevel.close();
    }
}
