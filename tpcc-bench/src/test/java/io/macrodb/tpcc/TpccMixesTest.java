package io.macrodb.tpcc;

import io.macrodb.bench.Mix;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.macrodb.tpcc.TpccTransactionType.DELIVERY;
import static io.macrodb.tpcc.TpccTransactionType.NEW_ORDER;
import static io.macrodb.tpcc.TpccTransactionType.ORDER_STATUS;
import static io.macrodb.tpcc.TpccTransactionType.PAYMENT;
import static io.macrodb.tpcc.TpccTransactionType.STOCK_LEVEL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class TpccMixesTest {

    private static final double EPS = 1e-9;

    @Test
    void standardIsTheSpecsMix() {
        assertWeights(TpccMixes.STANDARD, Map.of(NEW_ORDER, 45.0, PAYMENT, 43.0, ORDER_STATUS, 4.0, DELIVERY, 4.0,
                STOCK_LEVEL, 4.0));
    }

    @Test
    void readWriteMixesSplitReadsEquallyAndKeepTheStandardsWriteProportions() {
        assertWeights(TpccMixes.FIFTY_FIFTY, Map.of(NEW_ORDER, 50 * 45 / 92.0, PAYMENT, 50 * 43 / 92.0,
                ORDER_STATUS, 25.0, DELIVERY, 50 * 4 / 92.0, STOCK_LEVEL, 25.0));
        assertWeights(TpccMixes.EIGHTY_TWENTY, Map.of(NEW_ORDER, 20 * 45 / 92.0, PAYMENT, 20 * 43 / 92.0,
                ORDER_STATUS, 40.0, DELIVERY, 20 * 4 / 92.0, STOCK_LEVEL, 40.0));
        assertWeights(TpccMixes.READ_ONLY, Map.of(NEW_ORDER, 0.0, PAYMENT, 0.0, ORDER_STATUS, 50.0, DELIVERY, 0.0,
                STOCK_LEVEL, 50.0));
        // the documented rounded figures
        assertEquals("24.4565%", Mix.formatPercent(TpccMixes.FIFTY_FIFTY.weight(NEW_ORDER)));
        assertEquals("9.3478%", Mix.formatPercent(TpccMixes.EIGHTY_TWENTY.weight(PAYMENT)));
        assertEquals("0.8696%", Mix.formatPercent(TpccMixes.EIGHTY_TWENTY.weight(DELIVERY)));
        for (Mix m : TpccMixes.all()) {
            double write = m.weight(NEW_ORDER) + m.weight(PAYMENT) + m.weight(DELIVERY);
            double read = m.weight(ORDER_STATUS) + m.weight(STOCK_LEVEL);
            assertEquals(100, read + write, EPS);
            assertEquals(m.weight(ORDER_STATUS), m.weight(STOCK_LEVEL), EPS);
            if (write > 0) {
                assertEquals(45.0 / 43.0, m.weight(NEW_ORDER) / m.weight(PAYMENT), EPS);
                assertEquals(45.0 / 4.0, m.weight(NEW_ORDER) / m.weight(DELIVERY), EPS);
            }
        }
    }

    @Test
    void mixesAreFoundByName() {
        var w = new TpccWorkload(TpccScale.small(1));
        assertEquals(TpccMixes.EIGHTY_TWENTY, w.mix("80-20"));
        assertEquals(TpccMixes.READ_ONLY, w.mix("100-0"));
        assertThrows(IllegalArgumentException.class, () -> w.mix("90-10"));
    }

    private static void assertWeights(Mix mix, Map<TpccTransactionType, Double> expected) {
        for (TpccTransactionType t : TpccTransactionType.values()) {
            assertEquals(expected.get(t), mix.weight(t), EPS, mix.name() + " " + t);
        }
    }
}
