package io.macrodb.tpcc;

/**
 * One emulated terminal's fixed context (clause 2.1.4 and 2.8.1): its home warehouse, the district it checks
 * stock levels for, its random source, and the database's scale.
 *
 * @param warehouseId the home warehouse, 1..W
 * @param districtId  the district for Stock-Level, 1..10
 */
public record Terminal(int warehouseId, int districtId, TpccRandom random, TpccScale scale) {

    /** Terminal {@code index} of any count: warehouses round-robin, then districts (so 10 x W terminals cover all). */
    public static Terminal forClient(int index, TpccRandom random, TpccScale scale) {
        int w = index % scale.warehouses() + 1;
        int d = (index / scale.warehouses()) % TpccScale.DISTRICTS_PER_WAREHOUSE + 1;
        return new Terminal(w, d, random, scale);
    }

    /** A random warehouse other than the home one; the home one when W = 1 (no remote warehouse exists). */
    public int remoteWarehouse() {
        if (scale.warehouses() == 1) {
            return warehouseId;
        }
        int other = random.uniform(1, scale.warehouses() - 1);
        return other >= warehouseId ? other + 1 : other;
    }

    /** A random district, 1..10. */
    public int randomDistrict() {
        return random.uniform(1, TpccScale.DISTRICTS_PER_WAREHOUSE);
    }
}
