package io.macrodb.tpcc;

import io.macrodb.bench.Mix;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static io.macrodb.tpcc.TpccTransactionType.DELIVERY;
import static io.macrodb.tpcc.TpccTransactionType.NEW_ORDER;
import static io.macrodb.tpcc.TpccTransactionType.ORDER_STATUS;
import static io.macrodb.tpcc.TpccTransactionType.PAYMENT;
import static io.macrodb.tpcc.TpccTransactionType.STOCK_LEVEL;

/**
 * The transaction mixes, in percent.
 *
 * <ul>
 *   <li>{@code standard}: the spec's mix, New-Order 45, Payment 43, Order-Status 4, Delivery 4, Stock-Level 4
 *       (8% read-only, 92% update transactions, as in the paper).</li>
 *   <li>{@code 50-50}, {@code 80-20}, {@code 100-0}: the paper's read/write mixes. The read share R is split
 *       equally between Order-Status and Stock-Level (R/2 each, as in the standard mix, where 8% reads are 4 + 4);
 *       the write share W = 100 - R keeps the standard mix's New-Order : Payment : Delivery = 45 : 43 : 4, i.e.
 *       New-Order W*45/92, Payment W*43/92, Delivery W*4/92. So 50-50 is NewOrder 24.4565, Payment 23.3696,
 *       Delivery 2.1739, Order-Status 25, Stock-Level 25; 80-20 is 9.7826, 9.3478, 0.8696, 40, 40; 100-0 is
 *       Order-Status 50, Stock-Level 50. The standard mix is exactly this rule at R = 8.</li>
 * </ul>
 */
public final class TpccMixes {

    private static final double NEW_ORDER_PART = 45;
    private static final double PAYMENT_PART = 43;
    private static final double DELIVERY_PART = 4;
    private static final double WRITE_PARTS = NEW_ORDER_PART + PAYMENT_PART + DELIVERY_PART;

    public static final Mix STANDARD = readWrite("standard", 8,
            "TPC-C 5.2.3: NewOrder 45, Payment 43, OrderStatus 4, Delivery 4, StockLevel 4");
    public static final Mix FIFTY_FIFTY = readWrite("50-50", 50,
            "50% read-only split equally between OrderStatus and StockLevel; 50% update in the standard's 45:43:4");
    public static final Mix EIGHTY_TWENTY = readWrite("80-20", 80,
            "80% read-only split equally between OrderStatus and StockLevel; 20% update in the standard's 45:43:4");
    public static final Mix READ_ONLY = readWrite("100-0", 100,
            "OrderStatus 50, StockLevel 50: read-only transactions only");

    private TpccMixes() {
    }

    public static List<Mix> all() {
        return List.of(STANDARD, FIFTY_FIFTY, EIGHTY_TWENTY, READ_ONLY);
    }

    /** A mix with {@code readPercent} read-only transactions, as the class comment describes. */
    static Mix readWrite(String name, double readPercent, String description) {
        double write = 100 - readPercent;
        Map<TpccTransactionType, Double> w = new EnumMap<>(TpccTransactionType.class);
        w.put(NEW_ORDER, write * NEW_ORDER_PART / WRITE_PARTS);
        w.put(PAYMENT, write * PAYMENT_PART / WRITE_PARTS);
        w.put(ORDER_STATUS, readPercent / 2);
        w.put(DELIVERY, write * DELIVERY_PART / WRITE_PARTS);
        w.put(STOCK_LEVEL, readPercent / 2);
        return Mix.of(name, description, w);
    }
}
