package io.macrodb.tpcw;

/**
 * The size of a TPC-W database (clause 4.3): the number of items and of customers fix every other table.
 *
 * <p>The specification sizes the customers from the emulated browsers the database is built for
 * ({@code 2880 x EBs}, see {@link #of}); tests build smaller databases with {@link #ofCustomers}. The NURand
 * constants the browsers use to pick customers and search keys follow from the same two numbers (clauses 2.3.2
 * and 2.10.5.1).
 *
 * @param items     ITEM rows (the specification's scale factor: 1 000, 10 000, 100 000, ...)
 * @param customers CUSTOMER rows
 */
public record TpcwScale(int items, int customers) {

    /** Customers per emulated browser the database is built for (clause 4.3). */
    public static final int CUSTOMERS_PER_BROWSER = 2880;
    /** Rows of COUNTRY, whatever the scale. */
    public static final int COUNTRIES = 92;

    public TpcwScale {
        if (items < 20) {
            throw new IllegalArgumentException("items must be at least 20 (the searches need distinct keys): " + items);
        }
        if (customers < 1) {
            throw new IllegalArgumentException("customers must be positive: " + customers);
        }
    }

    /** The specification's database for {@code browsers} emulated browsers. */
    public static TpcwScale of(int items, int browsers) {
        if (browsers < 1) {
            throw new IllegalArgumentException("browsers must be positive: " + browsers);
        }
        return new TpcwScale(items, Math.multiplyExact(CUSTOMERS_PER_BROWSER, browsers));
    }

    /** A database with an explicit customer count (tests, quick runs). */
    public static TpcwScale ofCustomers(int items, int customers) {
        return new TpcwScale(items, customers);
    }

    /** AUTHOR rows: a quarter of the items. */
    public int authors() {
        return items / 4;
    }

    /** ADDRESS rows: two per customer. */
    public int addresses() {
        return 2 * customers;
    }

    /** ORDERS rows: 0.9 per customer, each with 1 to 5 ORDER_LINE rows and one CC_XACTS row. */
    public int orders() {
        return (int) (0.9 * customers);
    }

    /** The NURand constant A for customer ids (clause 2.3.2 table). */
    public int customerNuRandA() {
        long n = customers;
        int a = 1023;
        for (long limit = 10_000; n >= limit && a < Integer.MAX_VALUE / 4; limit *= 4) {
            a = a * 4 + 3;
        }
        return a;
    }

    /** The NURand constant A for search strings (clause 2.10.5.1 table). */
    public int itemNuRandA() {
        if (items <= 1_000) {
            return 63;
        } else if (items <= 10_000) {
            return 511;
        } else if (items <= 100_000) {
            return 4095;
        } else if (items <= 1_000_000) {
            return 32767;
        }
        return 524287;
    }
}
