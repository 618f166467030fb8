package io.macrodb.tpcc;

import io.macrodb.bench.LoadProgress;
import io.macrodb.bench.targets.Database;
import io.macrodb.bench.targets.Engine;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Creates the TPC-C schema and loads the initial population of clause 4.3.3.1 through the database's own URL (for
 * MacroDB: the master, which replicates). Single connection, batched inserts, a commit every {@value #COMMIT_ROWS}
 * rows. Data is drawn from the seed only, so every target gets the same rows (timestamps aside).
 */
public final class TpccLoader {

    static final int COMMIT_ROWS = 2_000;
    private static final BigDecimal INITIAL_PAYMENT = new BigDecimal("10.00");

    private final TpccScale scale;

    public TpccLoader(TpccScale scale) {
        this.scale = scale;
    }

    /** The schema statements for {@code engine}: {@code ddl-<engine>.sql} if present, else {@code ddl.sql}. */
    public static List<String> ddl(Engine engine) {
        String text = resource("ddl-" + engine.id() + ".sql");
        if (text == null) {
            text = resource("ddl.sql");
        }
        if (text == null) {
            throw new IllegalStateException("no DDL resource for " + engine.id());
        }
        var statements = new ArrayList<String>();
        var current = new StringBuilder();
        for (String line : text.split("\n")) {
            String l = line.strip();
            if (l.startsWith("--") || l.isEmpty()) {
                continue;
            }
            current.append(line).append('\n');
            if (l.endsWith(";")) {
                String sql = current.toString().strip();
                statements.add(sql.substring(0, sql.length() - 1));
                current.setLength(0);
            }
        }
        if (!current.toString().isBlank()) {
            throw new IllegalStateException("DDL ends without ';': " + current);
        }
        return statements;
    }

    private static String resource(String name) {
        try (InputStream in = TpccLoader.class.getResourceAsStream(name)) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void load(Database database, long seed, LoadProgress progress) throws SQLException {
        try (Connection c = database.connect()) {
            try (Statement s = c.createStatement()) {
                for (String sql : ddl(database.engine())) {
                    s.execute(sql);
                }
            }
            c.commit();
            progress.expect(scale.expectedRows());
            var random = new TpccRandom(new SplittableRandom(seed), NuRandConstants.forLoad(seed), scale);
            var now = new Timestamp(System.currentTimeMillis());
            try (Batches b = new Batches(c, progress)) {
                loadItems(b, random);
                for (int w = 1; w <= scale.warehouses(); w++) {
                    loadWarehouse(b, random, w);
                    loadStock(b, random, w);
                    for (int d = 1; d <= TpccScale.DISTRICTS_PER_WAREHOUSE; d++) {
                        loadDistrict(b, random, w, d);
                        loadCustomers(b, random, w, d, now);
                        loadOrders(b, random, w, d, now);
                    }
                }
                b.flush();
            }
        }
    }

    private void loadItems(Batches b, TpccRandom r) throws SQLException {
        PreparedStatement ps = b.prepare("""
                INSERT INTO item (i_id, i_im_id, i_name, i_price, i_data)
                VALUES (?, ?, ?, ?, ?)""");
        for (int i = 1; i <= scale.items(); i++) {
            ps.setInt(1, i);
            ps.setInt(2, r.uniform(1, 10_000));
            ps.setString(3, r.aString(14, 24));
            ps.setBigDecimal(4, r.decimal(100, 10_000, 2));
            ps.setString(5, r.data());
            b.add(ps);
        }
    }

    private void loadWarehouse(Batches b, TpccRandom r, int w) throws SQLException {
        PreparedStatement ps = b.prepare("""
                INSERT INTO warehouse (w_id, w_name, w_street_1, w_street_2, w_city, w_state, w_zip, w_tax, w_ytd)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""");
        ps.setInt(1, w);
        ps.setString(2, r.aString(6, 10));
        address(ps, 3, r);
        ps.setBigDecimal(8, r.decimal(0, 2_000, 4));
        // 300,000.00 at spec scale: the sum of the initial payments of its 30,000 customers (conditions 1, 8)
        ps.setBigDecimal(9, districtYtd().multiply(BigDecimal.valueOf(TpccScale.DISTRICTS_PER_WAREHOUSE)));
        b.add(ps);
    }

    private BigDecimal districtYtd() {
        return INITIAL_PAYMENT.multiply(BigDecimal.valueOf(scale.customersPerDistrict()));
    }

    private void loadStock(Batches b, TpccRandom r, int w) throws SQLException {
        PreparedStatement ps = b.prepare("""
                INSERT INTO stock (s_i_id, s_w_id, s_quantity, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05,
                                   s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10, s_ytd, s_order_cnt,
                                   s_remote_cnt, s_data)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, ?)""");
        for (int i = 1; i <= scale.items(); i++) {
            ps.setInt(1, i);
            ps.setInt(2, w);
            ps.setInt(3, r.uniform(10, 100));
            for (int d = 1; d <= TpccScale.DISTRICTS_PER_WAREHOUSE; d++) {
                ps.setString(3 + d, r.aString(24, 24));
            }
            ps.setString(14, r.data());
            b.add(ps);
        }
    }

    private void loadDistrict(Batches b, TpccRandom r, int w, int d) throws SQLException {
        PreparedStatement ps = b.prepare("""
                INSERT INTO district (d_id, d_w_id, d_name, d_street_1, d_street_2, d_city, d_state, d_zip, d_tax,
                                      d_ytd, d_next_o_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""");
        ps.setInt(1, d);
        ps.setInt(2, w);
        ps.setString(3, r.aString(6, 10));
        address(ps, 4, r);
        ps.setBigDecimal(9, r.decimal(0, 2_000, 4));
        ps.setBigDecimal(10, districtYtd());
        ps.setInt(11, scale.ordersPerDistrict() + 1);
        b.add(ps);
    }

    private void loadCustomers(Batches b, TpccRandom r, int w, int d, Timestamp now) throws SQLException {
        PreparedStatement customer = b.prepare("""
                INSERT INTO customer (c_id, c_d_id, c_w_id, c_first, c_middle, c_last, c_street_1, c_street_2, c_city,
                                      c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount,
                                      c_balance, c_ytd_payment, c_payment_cnt, c_delivery_cnt, c_data)
                VALUES (?, ?, ?, ?, 'OE', ?, ?, ?, ?, ?, ?, ?, ?, ?, 50000.00, ?, -10.00, 10.00, 1, 0, ?)""");
        PreparedStatement history = b.prepare("""
                INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
                VALUES (?, ?, ?, ?, ?, ?, 10.00, ?)""");
        for (int c = 1; c <= scale.customersPerDistrict(); c++) {
            customer.setInt(1, c);
            customer.setInt(2, d);
            customer.setInt(3, w);
            customer.setString(4, r.aString(8, 16));
            // clause 4.3.3.1: the first 1,000 customers take every last name once, the rest NURand(255, 0, 999)
            customer.setString(5, c <= scale.lastNames() ? TpccRandom.lastName(c - 1) : r.lastNameByNuRand());
            address(customer, 6, r);
            customer.setString(11, r.nString(16, 16));
            customer.setTimestamp(12, now);
            customer.setString(13, r.percent(10) ? "BC" : "GC");
            customer.setBigDecimal(14, r.decimal(0, 5_000, 4));
            customer.setString(15, r.aString(300, 500));
            b.add(customer);

            history.setInt(1, c);
            history.setInt(2, d);
            history.setInt(3, w);
            history.setInt(4, d);
            history.setInt(5, w);
            history.setTimestamp(6, now);
            history.setString(7, r.aString(12, 24));
            b.add(history);
        }
    }

    private void loadOrders(Batches b, TpccRandom r, int w, int d, Timestamp now) throws SQLException {
        PreparedStatement order = b.prepare("""
                INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
                VALUES (?, ?, ?, ?, ?, ?, ?, 1)""");
        PreparedStatement newOrder = b.prepare("""
                INSERT INTO new_order (no_o_id, no_d_id, no_w_id)
                VALUES (?, ?, ?)""");
        PreparedStatement line = b.prepare("""
                INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d,
                                        ol_quantity, ol_amount, ol_dist_info)
                VALUES (?, ?, ?, ?, ?, ?, ?, 5, ?, ?)""");
        int[] customers = permutation(r, scale.customersPerDistrict());
        int firstNew = scale.firstNewOrderId();
        for (int o = 1; o <= scale.ordersPerDistrict(); o++) {
            boolean delivered = o < firstNew;
            int lines = r.uniform(5, 15);
            order.setInt(1, o);
            order.setInt(2, d);
            order.setInt(3, w);
            order.setInt(4, customers[o - 1]);
            order.setTimestamp(5, now);
            if (delivered) {
                order.setInt(6, r.uniform(1, 10));
            } else {
                order.setNull(6, Types.INTEGER);
            }
            order.setInt(7, lines);
            b.add(order);
            if (!delivered) {
                newOrder.setInt(1, o);
                newOrder.setInt(2, d);
                newOrder.setInt(3, w);
                b.add(newOrder);
            }
            for (int n = 1; n <= lines; n++) {
                line.setInt(1, o);
                line.setInt(2, d);
                line.setInt(3, w);
                line.setInt(4, n);
                line.setInt(5, r.uniform(1, scale.items()));
                line.setInt(6, w);
                if (delivered) {
                    line.setTimestamp(7, now);
                    line.setBigDecimal(8, BigDecimal.ZERO.setScale(2));
                } else {
                    line.setNull(7, Types.TIMESTAMP);
                    line.setBigDecimal(8, r.decimal(1, 999_999, 2));
                }
                line.setString(9, r.aString(24, 24));
                b.add(line);
            }
        }
    }

    /** A random permutation of 1..n (O_C_ID, clause 4.3.3.1). */
    private static int[] permutation(TpccRandom r, int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i + 1;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = r.uniform(0, i);
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
        return a;
    }

    /** street 1, street 2, city, state, zip into five parameters starting at {@code first}. */
    private static void address(PreparedStatement ps, int first, TpccRandom r) throws SQLException {
        ps.setString(first, r.aString(10, 20));
        ps.setString(first + 1, r.aString(10, 20));
        ps.setString(first + 2, r.aString(10, 20));
        ps.setString(first + 3, r.state());
        ps.setString(first + 4, r.zip());
    }

    /**
     * Batched inserts across the loader's statements: every {@value #COMMIT_ROWS} rows, all pending batches run (in
     * the order the statements were prepared) and the transaction commits.
     */
    private static final class Batches implements AutoCloseable {
        private final Connection connection;
        private final LoadProgress progress;
        private final List<PreparedStatement> statements = new ArrayList<>();
        private final Map<String, PreparedStatement> bySql = new HashMap<>();
        private final Set<PreparedStatement> withRows = Collections.newSetFromMap(
                new IdentityHashMap<>());
        private int pending;

        Batches(Connection connection, LoadProgress progress) {
            this.connection = connection;
            this.progress = progress;
        }

        PreparedStatement prepare(String sql) throws SQLException {
            PreparedStatement ps = bySql.get(sql);
            if (ps == null) {
                ps = connection.prepareStatement(sql);
                bySql.put(sql, ps);
                statements.add(ps);
            }
            return ps;
        }

        void add(PreparedStatement ps) throws SQLException {
            ps.addBatch();
            withRows.add(ps);
            if (++pending >= COMMIT_ROWS) {
                flush();
            }
        }

        void flush() throws SQLException {
            for (PreparedStatement ps : statements) {
                if (withRows.contains(ps)) { // HSQLDB refuses an empty batch
                    ps.executeBatch();
                }
            }
            withRows.clear();
            connection.commit();
            progress.advance(pending);
            pending = 0;
        }

        /** Closes the statements; rows not flushed are not committed. */
        @Override
        public void close() throws SQLException {
            for (PreparedStatement ps : statements) {
                ps.close();
            }
        }
    }
}
