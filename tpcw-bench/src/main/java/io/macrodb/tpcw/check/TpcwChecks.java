package io.macrodb.tpcw.check;

import io.macrodb.bench.ConsistencyCheck;
import io.macrodb.tpcw.TpcwScale;

import java.util.List;
import java.util.function.Supplier;

/**
 * The conditions a TPC-W database satisfies after any correct run, which the harness checks on every copy
 * (every MacroDB replica, at one version) besides MacroDB's own replica comparison.
 */
public final class TpcwChecks {

    private TpcwChecks() {
    }

    /**
     * Every check, for a database loaded at {@code scale} whose items started with {@code initialStocks}
     * (indexed by item id).
     */
    public static List<ConsistencyCheck> all(TpcwScale scale, Supplier<int[]> initialStocks) {
        return List.of(
                new OrdersArePaid(),
                new NewOrdersAddUp(scale.orders()),
                new StockIsConserved(scale.orders(), initialStocks),
                new ReferencesResolve(scale.customers()));
    }
}
