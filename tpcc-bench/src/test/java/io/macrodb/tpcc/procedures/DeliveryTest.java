package io.macrodb.tpcc.procedures;

import io.macrodb.tpcc.Terminal;
import io.macrodb.tpcc.TpccTransactionType;

import java.math.BigDecimal;
import java.sql.Connection;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DeliveryTest extends AbstractTransactionTest {

    @Override
    TpccTransactionType type() {
        return TpccTransactionType.DELIVERY;
    }

    @Override
    void checkEffects(Connection c, Terminal terminal) throws Exception {
        var delivery = new Delivery(c);
        int oldest = (int) queryLong(c, "SELECT MIN(no_o_id) FROM new_order WHERE no_w_id = 1 AND no_d_id = 4");
        int customer = (int) queryLong(c, "SELECT o_c_id FROM orders WHERE o_w_id = 1 AND o_d_id = 4 AND o_id = ?",
                oldest);
        BigDecimal amount = queryDecimal(c, "SELECT SUM(ol_amount) FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 4 "
                + "AND ol_o_id = ?", oldest);
        BigDecimal balance = queryDecimal(c, "SELECT c_balance FROM customer WHERE c_w_id = 1 AND c_d_id = 4 AND "
                + "c_id = ?", customer);
        long otherWarehouse = queryLong(c, "SELECT COUNT(*) FROM new_order WHERE no_w_id = 2");

        assertEquals(10, delivery.execute(new Delivery.Input(1, 7)).delivered());
        c.commit();

        assertEquals(0, queryLong(c, "SELECT COUNT(*) FROM new_order WHERE no_w_id = 1 AND no_d_id = 4 AND no_o_id = ?",
                oldest));
        assertEquals(7, queryLong(c, "SELECT o_carrier_id FROM orders WHERE o_w_id = 1 AND o_d_id = 4 AND o_id = ?",
                oldest));
        assertEquals(0, queryLong(c, "SELECT COUNT(*) FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 4 AND "
                + "ol_o_id = ? AND ol_delivery_d IS NULL", oldest));
        assertDecimalEquals(balance.add(amount), queryDecimal(c, "SELECT c_balance FROM customer WHERE c_w_id = 1 AND"
                + " c_d_id = 4 AND c_id = ?", customer), "C_BALANCE");
        assertEquals(otherWarehouse, queryLong(c, "SELECT COUNT(*) FROM new_order WHERE no_w_id = 2"),
                "only the home warehouse is delivered");

        // deliver until nothing is left: then every district is skipped
        int left = (int) queryLong(c, "SELECT COUNT(*) FROM new_order WHERE no_w_id = 1 AND no_d_id = 4");
        for (int i = 0; i < left; i++) {
            assertEquals(10, delivery.execute(new Delivery.Input(1, 1)).delivered());
            c.commit();
        }
        assertEquals(0, delivery.execute(new Delivery.Input(1, 1)).delivered());
        c.commit();
        assertEquals(0, queryLong(c, "SELECT COUNT(*) FROM new_order WHERE no_w_id = 1"));
        delivery.close();
    }
}
