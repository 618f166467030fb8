package io.macrodb.tpcc.procedures;

import io.macrodb.bench.UserAbortException;
import io.macrodb.tpcc.Terminal;
import io.macrodb.tpcc.TpccTransactionType;

import java.math.BigDecimal;
import java.sql.Connection;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NewOrderTest extends AbstractTransactionTest {

    @Override
    TpccTransactionType type() {
        return TpccTransactionType.NEW_ORDER;
    }

    @Override
    void checkEffects(Connection c, Terminal terminal) throws Exception {
        var newOrder = new NewOrder(c);
        int nextBefore = (int) queryLong(c, "SELECT d_next_o_id FROM district WHERE d_w_id = 1 AND d_id = 3");
        long homeQty = queryLong(c, "SELECT s_quantity FROM stock WHERE s_w_id = 1 AND s_i_id = 5");
        long remoteCnt = queryLong(c, "SELECT s_remote_cnt FROM stock WHERE s_w_id = 2 AND s_i_id = 9");
        long remoteYtd = queryLong(c, "SELECT s_ytd FROM stock WHERE s_w_id = 2 AND s_i_id = 9");
        BigDecimal price5 = queryDecimal(c, "SELECT i_price FROM item WHERE i_id = 5");

        var out = newOrder.execute(new NewOrder.Input(1, 3, 7, List.of(
                new NewOrder.Line(9, 2, 10), new NewOrder.Line(5, 1, 3))));
        c.commit();

        assertEquals(nextBefore, out.orderId());
        assertEquals(2, out.lineCount());
        assertFalse(out.allLocal());
        assertEquals(nextBefore + 1, queryLong(c, "SELECT d_next_o_id FROM district WHERE d_w_id = 1 AND d_id = 3"));
        assertEquals(0, queryLong(c, "SELECT o_all_local FROM orders WHERE o_w_id = 1 AND o_d_id = 3 AND o_id = ?",
                out.orderId()));
        assertEquals(1, queryLong(c, "SELECT COUNT(*) FROM orders WHERE o_w_id = 1 AND o_d_id = 3 AND o_id = ? AND "
                + "o_c_id = 7 AND o_carrier_id IS NULL AND o_ol_cnt = 2", out.orderId()));
        assertEquals(1, queryLong(c, "SELECT COUNT(*) FROM new_order WHERE no_w_id = 1 AND no_d_id = 3 AND no_o_id = ?",
                out.orderId()));
        assertEquals(2, queryLong(c, "SELECT COUNT(*) FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 3 AND ol_o_id = ?"
                + " AND ol_delivery_d IS NULL", out.orderId()));
        assertDecimalEquals(price5.multiply(BigDecimal.valueOf(3)), queryDecimal(c, "SELECT ol_amount FROM order_line"
                + " WHERE ol_w_id = 1 AND ol_d_id = 3 AND ol_o_id = ? AND ol_i_id = 5", out.orderId()), "OL_AMOUNT");
        long expectedQty = homeQty >= 3 + 10 ? homeQty - 3 : homeQty - 3 + 91;
        assertEquals(expectedQty, queryLong(c, "SELECT s_quantity FROM stock WHERE s_w_id = 1 AND s_i_id = 5"));
        assertEquals(remoteCnt + 1, queryLong(c, "SELECT s_remote_cnt FROM stock WHERE s_w_id = 2 AND s_i_id = 9"));
        assertEquals(remoteYtd + 10, queryLong(c, "SELECT s_ytd FROM stock WHERE s_w_id = 2 AND s_i_id = 9"));
        assertEquals(24, queryString(c, "SELECT ol_dist_info FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 3 AND "
                + "ol_o_id = ? AND ol_i_id = 5", out.orderId()).length());

        // an unused item id rolls the whole order back
        int unused = NewOrder.unusedItemId(terminal);
        assertThrows(UserAbortException.class, () -> newOrder.execute(new NewOrder.Input(1, 3, 7, List.of(
                new NewOrder.Line(5, 1, 1), new NewOrder.Line(unused, 1, 1)))));
        c.rollback();
        assertEquals(nextBefore + 1, queryLong(c, "SELECT d_next_o_id FROM district WHERE d_w_id = 1 AND d_id = 3"));
        assertEquals(expectedQty, queryLong(c, "SELECT s_quantity FROM stock WHERE s_w_id = 1 AND s_i_id = 5"));
        c.commit();

        // the unused item is on the last line (clause 2.4.1.5) and stays the last one processed: every other line,
        // here one supplied by a warehouse numbered above the home one, has updated its stock before the abort
        long remoteOrderCnt = queryLong(c, "SELECT s_order_cnt FROM stock WHERE s_w_id = 2 AND s_i_id = 9");
        assertThrows(UserAbortException.class, () -> newOrder.execute(new NewOrder.Input(1, 3, 7, List.of(
                new NewOrder.Line(9, 2, 1), new NewOrder.Line(unused, 1, 1)))));
        assertEquals(remoteOrderCnt + 1, queryLong(c, "SELECT s_order_cnt FROM stock WHERE s_w_id = 2 AND s_i_id = 9"),
                "the line before the unused item ran before the abort");
        c.rollback();
        newOrder.close();

        // the input profile of clause 2.4.1
        int orders = 20_000;
        int rollbacks = 0;
        int lines = 0;
        int remote = 0;
        for (int i = 0; i < orders; i++) {
            NewOrder.Input in = NewOrder.generate(terminal);
            assertTrue(in.lines().size() >= 5 && in.lines().size() <= 15);
            for (NewOrder.Line l : in.lines()) {
                assertTrue(l.quantity() >= 1 && l.quantity() <= 10);
                assertTrue(l.itemId() >= 1 && l.itemId() <= SCALE.items() + 1);
                if (l.supplyWarehouseId() != terminal.warehouseId()) {
                    remote++;
                }
                lines++;
            }
            if (in.lines().get(in.lines().size() - 1).itemId() == unused) {
                rollbacks++;
            }
        }
        assertEquals(0.01, rollbacks / (double) orders, 0.003, "1% of New-Orders roll back");
        assertEquals(0.01, remote / (double) lines, 0.002, "1% of lines are supplied by a remote warehouse");
    }
}
