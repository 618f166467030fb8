package io.macrodb.tpcw.load;

import io.macrodb.bench.LoadProgress;
import io.macrodb.tpcw.TpcwRandom;
import io.macrodb.tpcw.TpcwScale;
import io.macrodb.tpcw.Vocabulary;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/**
 * Populates an empty TPC-W schema by the field rules of clause 4.7.1, through one JDBC connection.
 *
 * <p>Everything is drawn from seeded {@link TpcwRandom}s, so one seed gives the same database on every target of a
 * comparison. Dates are offsets from the clock's "now" at the start of the load, drawn from ranges of fixed
 * length, so the random streams never depend on the day. I_STOCK comes from a stream of its own, so that
 * {@link #initialStocks} can tell a check what the load put there without loading anything. Rows go in as JDBC
 * batches, committed every {@value #BATCH} rows, and each commit advances the {@link LoadProgress}.
 *
 * <p>Where this differs from a literal reading of the specification, it follows what makes the reference
 * implementation's queries meaningful:
 * <ul>
 *   <li>I_TITLE and A_LNAME start with {@code DigSyl(n, 7)} (clauses 4.6.2.17/18 embed those syllables in
 *       generated text); at the start, the reference's prefix searches ({@code LIKE 'key%'}) find them. Keys run
 *       over {@code 1..items/5} for titles and {@code 1..items/10} for authors, the ranges the browsers search.</li>
 *   <li>O_TOTAL is O_SUB_TOTAL + O_TAX + 3.00 + 1.00 per order line, and CX_XACT_AMT equals O_TOTAL: the same
 *       relation every new order keeps, so a check can hold for old and new orders alike.</li>
 * </ul>
 */
public final class TpcwLoader {

    /** Rows per JDBC batch and per commit. */
    static final int BATCH = 1000;
    private static final BigDecimal TAX_RATE = new BigDecimal("0.0825");
    /** Publication dates go back this many days (clause 4.7.1: from 1930 to now). */
    private static final int PUBLICATION_DAYS = 34_000;
    /** Birth dates go back this many days (clause 4.7.1: from 1880 to now). */
    static final int BIRTH_DAYS = 50_000;
    /** Where the I_STOCK stream's seed departs from the main one. */
    private static final long STOCK_STREAM = 0x5354_4F43_4BL;

    private final TpcwScale scale;
    private final TpcwRandom random;
    private final TpcwRandom stockRandom;
    private final LocalDateTime now;
    private final LocalDate today;

    public TpcwLoader(TpcwScale scale, long seed, Clock clock) {
        this.scale = scale;
        this.random = new TpcwRandom(seed);
        this.stockRandom = new TpcwRandom(seed ^ STOCK_STREAM);
        this.now = LocalDateTime.now(clock).truncatedTo(ChronoUnit.SECONDS);
        this.today = now.toLocalDate();
    }

    /**
     * The I_STOCK of every item right after a load with this scale and seed, indexed by I_ID (index 0 unused):
     * the same stream {@link #load} draws them from.
     */
    public static int[] initialStocks(TpcwScale scale, long seed) {
        var stream = new TpcwRandom(seed ^ STOCK_STREAM);
        int[] stocks = new int[scale.items() + 1];
        for (int id = 1; id <= scale.items(); id++) {
            stocks[id] = initialStock(stream);
        }
        return stocks;
    }

    /** Clause 4.7.1: I_STOCK uniform in [10, 30]. */
    private static int initialStock(TpcwRandom stream) {
        return stream.uniform(10, 30);
    }

    /** The number of rows {@link #load} inserts, order lines estimated at their mean of 3 per order. */
    public long expectedRows() {
        return TpcwScale.COUNTRIES + scale.authors() + (long) scale.items() + scale.addresses()
                + scale.customers() + 5L * scale.orders();
    }

    /** Fills the (empty) tables; leaves the connection in auto-commit off. */
    public void load(Connection connection, LoadProgress progress) throws SQLException {
        connection.setAutoCommit(false);
        progress.expect(expectedRows());
        loadCountries(connection, progress);
        loadAuthors(connection, progress);
        loadItems(connection, progress);
        loadAddresses(connection, progress);
        loadCustomers(connection, progress);
        loadOrders(connection, progress);
    }

    private void loadCountries(Connection c, LoadProgress progress) throws SQLException {
        try (var batch = new Batch(c, progress, """
                INSERT INTO country (co_id, co_name, co_exchange, co_currency) VALUES (?, ?, ?, ?)""")) {
            int id = 1;
            for (Vocabulary.Country country : Vocabulary.COUNTRIES) {
                batch.row(id++, country.name(), country.exchange(), country.currency());
            }
        }
    }

    private void loadAuthors(Connection c, LoadProgress progress) throws SQLException {
        int keys = Math.max(1, scale.items() / 10);
        try (var batch = new Batch(c, progress, """
                INSERT INTO author (a_id, a_fname, a_lname, a_mname, a_dob, a_bio) VALUES (?, ?, ?, ?, ?, ?)""")) {
            for (int id = 1; id <= scale.authors(); id++) {
                int key = id <= keys ? id : random.uniform(1, keys);
                String lastName = TpcwRandom.digSyl(key, 7) + (random.percent(25) ? random.aString(1, 6) : "");
                batch.row(id, random.aString(3, 20), lastName, random.aString(1, 20),
                        randomDate(LocalDate.of(1800, 1, 1), LocalDate.of(1990, 12, 31)),
                        random.aString(125, 500));
            }
        }
    }

    private void loadItems(Connection c, LoadProgress progress) throws SQLException {
        int items = scale.items();
        int titleKeys = Math.max(1, items / 5);
        try (var batch = new Batch(c, progress, """
                INSERT INTO item (i_id, i_title, i_a_id, i_pub_date, i_publisher, i_subject, i_desc,
                    i_related1, i_related2, i_related3, i_related4, i_related5, i_thumbnail, i_image,
                    i_srp, i_cost, i_avail, i_stock, i_isbn, i_page, i_backing, i_dimensions)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
            for (int id = 1; id <= items; id++) {
                int key = id <= titleKeys ? id : random.uniform(1, titleKeys);
                String title = TpcwRandom.digSyl(key, 7) + " " + random.aString(1, 45);
                int author = id <= scale.authors() ? id : random.uniform(1, scale.authors());
                LocalDate published = today.minusDays(random.uniform(0, PUBLICATION_DAYS));
                int[] related = distinctItems(5, items);
                BigDecimal srp = random.cents(100, 999_999);
                BigDecimal cost = srp.multiply(BigDecimal.ONE.subtract(BigDecimal.valueOf(random.uniform(0, 5), 1)))
                        .setScale(2, RoundingMode.HALF_UP);
                String dimensions = String.format(Locale.ROOT, "%sx%sx%s",
                        random.cents(1, 9999), random.cents(1, 9999), random.cents(1, 9999));
                batch.row(id, title, author, published, random.aString(14, 60), random.pick(Vocabulary.SUBJECTS),
                        random.aString(100, 500), related[0], related[1], related[2], related[3], related[4],
                        "img" + id % 100 + "/thumb_" + id + ".gif", "img" + id % 100 + "/image_" + id + ".gif",
                        srp, cost, published.plusDays(random.uniform(1, 30)), initialStock(stockRandom),
                        random.aString(13, 13), random.uniform(20, 9999), random.pick(Vocabulary.BACKINGS),
                        dimensions);
            }
        }
    }

    private int[] distinctItems(int count, int items) {
        int[] ids = new int[count];
        for (int i = 0; i < count; i++) {
            int candidate;
            boolean repeated;
            do {
                candidate = random.uniform(1, items);
                repeated = false;
                for (int j = 0; j < i; j++) {
                    repeated |= ids[j] == candidate;
                }
            } while (repeated);
            ids[i] = candidate;
        }
        return ids;
    }

    private void loadAddresses(Connection c, LoadProgress progress) throws SQLException {
        try (var batch = new Batch(c, progress, """
                INSERT INTO address (addr_id, addr_street1, addr_street2, addr_city, addr_state, addr_zip, addr_co_id)
                VALUES (?, ?, ?, ?, ?, ?, ?)""")) {
            for (int id = 1; id <= scale.addresses(); id++) {
                batch.row(id, random.aString(15, 40), random.aString(15, 40), random.aString(4, 30),
                        random.aString(2, 20), random.aString(5, 10), random.uniform(1, TpcwScale.COUNTRIES));
            }
        }
    }

    private void loadCustomers(Connection c, LoadProgress progress) throws SQLException {
        try (var batch = new Batch(c, progress, """
                INSERT INTO customer (c_id, c_uname, c_passwd, c_fname, c_lname, c_addr_id, c_phone, c_email,
                    c_since, c_last_login, c_login, c_expiration, c_discount, c_balance, c_ytd_pmt, c_birthdate,
                    c_data)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
            for (int id = 1; id <= scale.customers(); id++) {
                String userName = TpcwRandom.userName(id);
                LocalDate since = today.minusDays(random.uniform(1, 730));
                LocalDate lastLogin = since.plusDays(random.uniform(0, 60));
                if (lastLogin.isAfter(today)) {
                    lastLogin = today;
                }
                batch.row(id, userName, TpcwRandom.password(userName), random.aString(8, 15),
                        random.aString(8, 15), random.uniform(1, scale.addresses()), random.nString(9, 16),
                        userName + "@" + random.aString(2, 9) + ".com", since, lastLogin, now, now.plusHours(2),
                        random.cents(0, 50), BigDecimal.ZERO.setScale(2), random.cents(0, 99_999),
                        today.minusDays(random.uniform(0, BIRTH_DAYS)), random.aString(100, 500));
            }
        }
    }

    private void loadOrders(Connection c, LoadProgress progress) throws SQLException {
        try (var orders = new Batch(c, progress, """
                INSERT INTO orders (o_id, o_c_id, o_date, o_sub_total, o_tax, o_total, o_ship_type, o_ship_date,
                    o_bill_addr_id, o_ship_addr_id, o_status)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""");
             var lines = new Batch(c, progress, """
                INSERT INTO order_line (ol_id, ol_o_id, ol_i_id, ol_qty, ol_discount, ol_comments)
                VALUES (?, ?, ?, ?, ?, ?)""");
             var payments = new Batch(c, progress, """
                INSERT INTO cc_xacts (cx_o_id, cx_type, cx_num, cx_name, cx_expire, cx_auth_id, cx_xact_amt,
                    cx_xact_date, cx_co_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
            for (int id = 1; id <= scale.orders(); id++) {
                int lineCount = random.uniform(1, 5);
                for (int line = 1; line <= lineCount; line++) {
                    lines.row(line, id, random.uniform(1, scale.items()), random.uniform(1, 300),
                            random.cents(0, 3), random.aString(20, 100));
                }
                LocalDateTime ordered = now.minusDays(random.uniform(1, 60)).minusSeconds(random.uniform(0, 86_399));
                BigDecimal subTotal = random.cents(1_000, 999_999);
                BigDecimal tax = subTotal.multiply(TAX_RATE).setScale(2, RoundingMode.HALF_UP);
                BigDecimal total = subTotal.add(tax).add(BigDecimal.valueOf(300 + 100L * lineCount, 2));
                orders.row(id, random.uniform(1, scale.customers()), ordered, subTotal, tax, total,
                        random.pick(Vocabulary.SHIP_TYPES), ordered.plusDays(random.uniform(0, 7)),
                        random.uniform(1, scale.addresses()), random.uniform(1, scale.addresses()),
                        random.pick(Vocabulary.ORDER_STATUSES));
                payments.row(id, random.pick(Vocabulary.CARD_TYPES), Long.parseLong(random.nString(16, 16)),
                        random.aString(14, 30), today.plusDays(random.uniform(10, 730)), random.aString(15, 15),
                        total, ordered, random.uniform(1, TpcwScale.COUNTRIES));
            }
        }
    }

    /** A date in [from, to], both fixed (never "today"), so the stream does not depend on the clock. */
    private LocalDate randomDate(LocalDate from, LocalDate to) {
        return from.plusDays(random.uniform(0L, ChronoUnit.DAYS.between(from, to)));
    }

    /** One table's prepared INSERT, flushed and committed every {@value #BATCH} rows and on close. */
    private static final class Batch implements AutoCloseable {
        private final Connection connection;
        private final LoadProgress progress;
        private final PreparedStatement insert;
        private int pending;

        Batch(Connection connection, LoadProgress progress, String sql) throws SQLException {
            this.connection = connection;
            this.progress = progress;
            this.insert = connection.prepareStatement(sql);
        }

        void row(Object... values) throws SQLException {
            for (int i = 0; i < values.length; i++) {
                insert.setObject(i + 1, values[i]);
            }
            insert.addBatch();
            if (++pending == BATCH) {
                flush();
            }
        }

        private void flush() throws SQLException {
            if (pending > 0) {
                insert.executeBatch();
                connection.commit();
                progress.advance(pending);
                pending = 0;
            }
        }

        @Override
        public void close() throws SQLException {
            try {
                flush();
            } finally {
                insert.close();
            }
        }
    }
}
