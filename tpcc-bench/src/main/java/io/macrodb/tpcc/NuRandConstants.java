package io.macrodb.tpcc;

import java.util.SplittableRandom;

/**
 * The constants C of NURand (clause 2.1.6), one per field, shared by every terminal.
 *
 * <p>The loader uses {@link #forLoad} (only C_LAST matters there: customers 1,001 to 3,000 get last names from
 * NURand(255, 0, 999)); the transactions use {@link #forRun}, whose C for C_LAST differs from the load's by a
 * delta in [65, 119] other than 96 and 112, as clause 2.1.6.1 requires, so the run's name skew is not the load's.
 * Both are derived from the run's seed, so every target sees the same constants.
 *
 * @param lastName   C for C_LAST, in [0, 255]
 * @param customerId C for C_ID, in [0, 1023]
 * @param itemId     C for OL_I_ID, in [0, 8191]
 */
public record NuRandConstants(int lastName, int customerId, int itemId) {

    public static final int A_LAST_NAME = 255;
    public static final int A_CUSTOMER_ID = 1023;
    public static final int A_ITEM_ID = 8191;

    public NuRandConstants {
        check("lastName", lastName, A_LAST_NAME);
        check("customerId", customerId, A_CUSTOMER_ID);
        check("itemId", itemId, A_ITEM_ID);
    }

    private static void check(String name, int c, int a) {
        if (c < 0 || c > a) {
            throw new IllegalArgumentException("C for " + name + " must be in [0, " + a + "]: " + c);
        }
    }

    public static NuRandConstants forLoad(long seed) {
        var r = new SplittableRandom(seed ^ 0x6C6F6164L);
        return new NuRandConstants(r.nextInt(A_LAST_NAME + 1), r.nextInt(A_CUSTOMER_ID + 1), r.nextInt(A_ITEM_ID + 1));
    }

    public static NuRandConstants forRun(long seed) {
        NuRandConstants load = forLoad(seed);
        var r = new SplittableRandom(seed ^ 0x72756EL);
        int lastName;
        do {
            lastName = r.nextInt(A_LAST_NAME + 1);
        } while (!validRunDelta(Math.abs(lastName - load.lastName())));
        return new NuRandConstants(lastName, r.nextInt(A_CUSTOMER_ID + 1), r.nextInt(A_ITEM_ID + 1));
    }

    /** Clause 2.1.6.1: |C_run - C_load| for C_LAST in [65, 119], and neither 96 nor 112. */
    public static boolean validRunDelta(int delta) {
        return delta >= 65 && delta <= 119 && delta != 96 && delta != 112;
    }
}
