package io.macrodb.tpcc;

/**
 * How big the database is. {@link #spec} is TPC-C's (clause 4.3.3.1): per warehouse 10 districts, 3,000 customers
 * and 3,000 orders per district, the last 900 of them undelivered (NEW-ORDER), 100,000 stock rows; ITEM fixed at
 * 100,000. {@link #small} is NOT TPC-C: 1,000 items and 30 customers per district, for smoke tests only; every
 * rule (NURand, new-order share, YTD totals) is scaled so the consistency conditions still hold.
 *
 * @param warehouses           W, at least 1
 * @param items                rows in ITEM (and STOCK per warehouse)
 * @param customersPerDistrict customers, and initial orders, per district
 */
public record TpccScale(int warehouses, int items, int customersPerDistrict) {

    public static final int DISTRICTS_PER_WAREHOUSE = 10;
    public static final int SPEC_ITEMS = 100_000;
    public static final int SPEC_CUSTOMERS_PER_DISTRICT = 3_000;
    /** Distinct last names (clause 4.3.2.3: 1,000 syllable combinations). */
    public static final int SPEC_LAST_NAMES = 1_000;

    public TpccScale {
        if (warehouses < 1 || items < 10 || customersPerDistrict < 10) {
            throw new IllegalArgumentException("need at least 1 warehouse, 10 items and 10 customers per district: "
                    + warehouses + ", " + items + ", " + customersPerDistrict);
        }
    }

    public static TpccScale spec(int warehouses) {
        return new TpccScale(warehouses, SPEC_ITEMS, SPEC_CUSTOMERS_PER_DISTRICT);
    }

    /** Not TPC-C: a tiny database for tests. */
    public static TpccScale small(int warehouses) {
        return new TpccScale(warehouses, 1_000, 30);
    }

    public boolean isSpec() {
        return items == SPEC_ITEMS && customersPerDistrict == SPEC_CUSTOMERS_PER_DISTRICT;
    }

    public int ordersPerDistrict() {
        return customersPerDistrict;
    }

    /** Undelivered orders per district at load: 900 of 3,000 in the spec, the same 30% when scaled. */
    public int newOrdersPerDistrict() {
        return ordersPerDistrict() * 900 / SPEC_CUSTOMERS_PER_DISTRICT;
    }

    /** The first undelivered order id at load: 2,101 in the spec. */
    public int firstNewOrderId() {
        return ordersPerDistrict() - newOrdersPerDistrict() + 1;
    }

    /** Distinct last names used: 1,000 in the spec, fewer when a district has fewer customers. */
    public int lastNames() {
        return Math.min(SPEC_LAST_NAMES, customersPerDistrict);
    }

    /** Rows the loader inserts (order lines estimated at their mean of 10 per order). */
    public long expectedRows() {
        long perDistrict = 1 + 2L * customersPerDistrict + ordersPerDistrict() + newOrdersPerDistrict()
                + 10L * ordersPerDistrict();
        return items + (long) warehouses * (1 + items + DISTRICTS_PER_WAREHOUSE * perDistrict);
    }
}
