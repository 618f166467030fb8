package io.macrodb.tpcc.procedures;

import io.macrodb.tpcc.Terminal;
import io.macrodb.tpcc.TpccRandom;
import io.macrodb.tpcc.TpccTransactionType;

import java.sql.Connection;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OrderStatusTest extends AbstractTransactionTest {

    @Override
    TpccTransactionType type() {
        return TpccTransactionType.ORDER_STATUS;
    }

    @Override
    void checkEffects(Connection c, Terminal terminal) throws Exception {
        var orderStatus = new OrderStatus(c);
        // at load every customer has exactly one order
        c.setReadOnly(true);
        var before = orderStatus.execute(new OrderStatus.Input(1, 2, 17, null));
        c.commit();
        c.setReadOnly(false);
        assertEquals(17, before.customerId());
        assertEquals(queryLong(c, "SELECT o_id FROM orders WHERE o_w_id = 1 AND o_d_id = 2 AND o_c_id = 17"),
                before.orderId());
        assertEquals(queryLong(c, "SELECT o_ol_cnt FROM orders WHERE o_w_id = 1 AND o_d_id = 2 AND o_id = ?",
                before.orderId()), before.lineCount());

        // a new order becomes the customer's latest
        var newOrder = new NewOrder(c);
        var placed = newOrder.execute(new NewOrder.Input(1, 2, 17, List.of(new NewOrder.Line(3, 1, 2),
                new NewOrder.Line(4, 1, 2), new NewOrder.Line(8, 1, 2))));
        c.commit();
        newOrder.close();
        c.setReadOnly(true);
        var after = orderStatus.execute(new OrderStatus.Input(1, 2, 0, TpccRandom.lastName(16)));
        c.commit();
        c.setReadOnly(false);
        assertEquals(17, after.customerId());
        assertEquals(placed.orderId(), after.orderId());
        assertEquals(3, after.lineCount());
        orderStatus.close();

        int n = 10_000;
        int byName = 0;
        for (int i = 0; i < n; i++) {
            OrderStatus.Input in = OrderStatus.generate(terminal);
            assertEquals(terminal.warehouseId(), in.warehouseId());
            assertTrue(in.districtId() >= 1 && in.districtId() <= 10);
            if (in.customerLastName() != null) {
                byName++;
            } else {
                assertTrue(in.customerId() >= 1 && in.customerId() <= SCALE.customersPerDistrict());
            }
        }
        assertEquals(0.60, byName / (double) n, 0.02, "60% by last name");
    }
}
