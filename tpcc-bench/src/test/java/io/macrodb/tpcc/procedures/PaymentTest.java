package io.macrodb.tpcc.procedures;

import io.macrodb.tpcc.Terminal;
import io.macrodb.tpcc.TpccRandom;
import io.macrodb.tpcc.TpccTransactionType;

import java.math.BigDecimal;
import java.sql.Connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PaymentTest extends AbstractTransactionTest {

    private static final String BALANCE = "SELECT c_balance FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";

    @Override
    TpccTransactionType type() {
        return TpccTransactionType.PAYMENT;
    }

    @Override
    void checkEffects(Connection c, Terminal terminal) throws Exception {
        var payment = new Payment(c);
        var amount = new BigDecimal("12.34");
        BigDecimal wYtd = queryDecimal(c, "SELECT w_ytd FROM warehouse WHERE w_id = 1");
        BigDecimal dYtd = queryDecimal(c, "SELECT d_ytd FROM district WHERE d_w_id = 1 AND d_id = 2");
        BigDecimal balance = queryDecimal(c, BALANCE, 2, 5, 3);
        long history = queryLong(c, "SELECT COUNT(*) FROM history WHERE h_w_id = 1 AND h_d_id = 2 AND h_c_w_id = 2 "
                + "AND h_c_d_id = 5 AND h_c_id = 3");
        update(c, "UPDATE customer SET c_credit = 'GC' WHERE c_w_id = 2 AND c_d_id = 5 AND c_id = 3");

        // by id, for a customer of a remote warehouse
        var out = payment.execute(new Payment.Input(1, 2, 2, 5, 3, null, amount));
        c.commit();
        assertEquals(3, out.customerId());
        assertDecimalEquals(wYtd.add(amount), queryDecimal(c, "SELECT w_ytd FROM warehouse WHERE w_id = 1"), "W_YTD");
        assertDecimalEquals(dYtd.add(amount), queryDecimal(c, "SELECT d_ytd FROM district WHERE d_w_id = 1 AND "
                + "d_id = 2"), "D_YTD");
        assertDecimalEquals(balance.subtract(amount), queryDecimal(c, BALANCE, 2, 5, 3), "C_BALANCE");
        assertEquals(2, queryLong(c, "SELECT c_payment_cnt FROM customer WHERE c_w_id = 2 AND c_d_id = 5 AND c_id = 3"));
        assertEquals(history + 1, queryLong(c, "SELECT COUNT(*) FROM history WHERE h_w_id = 1 AND h_d_id = 2 AND "
                + "h_c_w_id = 2 AND h_c_d_id = 5 AND h_c_id = 3"));

        // by last name: customers 1..30 of a district carry names 0..29, so name 4 is customer 5
        assertEquals(5, payment.execute(new Payment.Input(1, 2, 1, 2, 0, TpccRandom.lastName(4), amount))
                .customerId());
        // several customers with one name: the one at ceil(n / 2) in first-name order
        update(c, "UPDATE customer SET c_last = 'SAMENAME', c_first = CASE c_id WHEN 10 THEN 'Cc' WHEN 11 THEN 'Aa' "
                + "ELSE 'Bb' END WHERE c_w_id = 1 AND c_d_id = 4 AND c_id IN (10, 11, 12)");
        assertEquals(12, payment.execute(new Payment.Input(1, 4, 1, 4, 0, "SAMENAME", amount)).customerId());
        update(c, "UPDATE customer SET c_last = 'OTHERNAME' WHERE c_w_id = 1 AND c_d_id = 4 AND c_id = 12");
        assertEquals(11, payment.execute(new Payment.Input(1, 4, 1, 4, 0, "SAMENAME", amount)).customerId());
        c.commit();

        // bad credit: the payment is prepended to C_DATA, which stays within 500 characters
        update(c, "UPDATE customer SET c_credit = 'BC' WHERE c_w_id = 1 AND c_d_id = 6 AND c_id = 8");
        var bad = payment.execute(new Payment.Input(1, 6, 1, 6, 8, null, new BigDecimal("99.50")));
        c.commit();
        assertTrue(bad.badCredit());
        String data = queryString(c, "SELECT c_data FROM customer WHERE c_w_id = 1 AND c_d_id = 6 AND c_id = 8");
        assertTrue(data.startsWith("8 6 1 6 1 99.50 | "), data);
        assertTrue(data.length() <= 500);
        payment.close();

        // the input profile of clause 2.5.1 (two warehouses, so 15% are remote)
        int n = 20_000;
        int byName = 0;
        int remote = 0;
        for (int i = 0; i < n; i++) {
            Payment.Input in = Payment.generate(terminal);
            if (in.customerLastName() != null) {
                byName++;
            }
            if (in.customerWarehouseId() != in.warehouseId()) {
                remote++;
            }
            assertTrue(in.amount().compareTo(BigDecimal.ONE) >= 0 && in.amount().compareTo(new BigDecimal("5000"))
                    <= 0);
        }
        assertEquals(0.60, byName / (double) n, 0.015, "60% by last name");
        assertEquals(0.15, remote / (double) n, 0.01, "15% remote");
    }
}
