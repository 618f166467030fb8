package io.macrodb.tpcc;

import io.macrodb.bench.TransactionType;

import java.time.Duration;

/**
 * TPC-C's five transactions. Order-Status and Stock-Level only read and run as read-only transactions (which
 * MacroDB sends to a caught-up slave); the other three run as update transactions on the master. Keying and
 * mean think times are the spec's minimums (clause 5.2.5.7), used only with {@code --think-time spec}.
 */
public enum TpccTransactionType implements TransactionType {
    NEW_ORDER("NewOrder", false, 18, 12),
    PAYMENT("Payment", false, 3, 12),
    ORDER_STATUS("OrderStatus", true, 2, 10),
    DELIVERY("Delivery", false, 2, 5),
    STOCK_LEVEL("StockLevel", true, 2, 5);

    private final String displayName;
    private final boolean readOnly;
    private final Duration keyingTime;
    private final Duration meanThinkTime;

    TpccTransactionType(String displayName, boolean readOnly, int keyingSeconds, int thinkSeconds) {
        this.displayName = displayName;
        this.readOnly = readOnly;
        this.keyingTime = Duration.ofSeconds(keyingSeconds);
        this.meanThinkTime = Duration.ofSeconds(thinkSeconds);
    }

    @Override
    public String displayName() {
        return displayName;
    }

    @Override
    public boolean readOnly() {
        return readOnly;
    }

    @Override
    public Duration keyingTime() {
        return keyingTime;
    }

    @Override
    public Duration meanThinkTime() {
        return meanThinkTime;
    }
}
