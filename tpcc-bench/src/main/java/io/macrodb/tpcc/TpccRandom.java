package io.macrodb.tpcc;

import java.math.BigDecimal;
import java.util.SplittableRandom;

/**
 * TPC-C's random functions (clauses 2.1.5, 2.1.6, 4.3.2): uniform integers, NURand, a-strings and n-strings,
 * last names from syllables, zip codes and the 10% "ORIGINAL" data fields. Not thread-safe: one per client or
 * loader.
 */
public final class TpccRandom {

    private static final String[] SYLLABLES = {
        "BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"
    };
    private static final char[] ALPHANUMERIC =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".toCharArray();
    private static final String ORIGINAL = "ORIGINAL";

    private final SplittableRandom random;
    private final NuRandConstants c;
    private final TpccScale scale;

    public TpccRandom(SplittableRandom random, NuRandConstants c, TpccScale scale) {
        this.random = random;
        this.c = c;
        this.scale = scale;
    }

    /** A uniform integer in [lo, hi], both included. */
    public int uniform(int lo, int hi) {
        return lo + random.nextInt(hi - lo + 1);
    }

    /** NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x, clause 2.1.6. */
    public int nuRand(int a, int x, int y, int cValue) {
        return (((uniform(0, a) | uniform(x, y)) + cValue) % (y - x + 1)) + x;
    }

    /** A customer id by NURand(1023, 1, customers per district). */
    public int customerId() {
        return nuRand(NuRandConstants.A_CUSTOMER_ID, 1, scale.customersPerDistrict(), c.customerId());
    }

    /** An item id by NURand(8191, 1, items). */
    public int itemId() {
        return nuRand(NuRandConstants.A_ITEM_ID, 1, scale.items(), c.itemId());
    }

    /** A last name by NURand(255, 0, 999) (fewer names at a non-spec scale). */
    public String lastNameByNuRand() {
        return lastName(nuRand(NuRandConstants.A_LAST_NAME, 0, scale.lastNames() - 1, c.lastName()));
    }

    /** The last name of number {@code n} in [0, 999]: three syllables by its digits, clause 4.3.2.3. */
    public static String lastName(int n) {
        return SYLLABLES[n / 100] + SYLLABLES[(n / 10) % 10] + SYLLABLES[n % 10];
    }

    /** A random a-string of length in [min, max] (clause 4.3.2.2: alphanumeric characters). */
    public String aString(int min, int max) {
        int len = uniform(min, max);
        char[] chars = new char[len];
        for (int i = 0; i < len; i++) {
            chars[i] = ALPHANUMERIC[random.nextInt(ALPHANUMERIC.length)];
        }
        return new String(chars);
    }

    /** A random n-string (digits) of length in [min, max]. */
    public String nString(int min, int max) {
        int len = uniform(min, max);
        char[] chars = new char[len];
        for (int i = 0; i < len; i++) {
            chars[i] = (char) ('0' + random.nextInt(10));
        }
        return new String(chars);
    }

    /** A zip code: 4 random digits then "11111" (clause 4.3.2.7). */
    public String zip() {
        return nString(4, 4) + "11111";
    }

    /** Two random letters. */
    public String state() {
        return "" + (char) ('A' + random.nextInt(26)) + (char) ('A' + random.nextInt(26));
    }

    /** I_DATA and S_DATA: an a-string of [26, 50], 10% of them with "ORIGINAL" at a random position. */
    public String data() {
        String s = aString(26, 50);
        if (uniform(1, 10) == 1) {
            int at = uniform(0, s.length() - ORIGINAL.length());
            s = s.substring(0, at) + ORIGINAL + s.substring(at + ORIGINAL.length());
        }
        return s;
    }

    /** A decimal in [lo, hi] with {@code scale} decimals, uniformly over its steps. */
    public BigDecimal decimal(long loUnits, long hiUnits, int decimals) {
        long units = loUnits + (long) (random.nextDouble() * (hiUnits - loUnits + 1));
        return BigDecimal.valueOf(Math.min(units, hiUnits), decimals);
    }

    /** True with probability {@code percent}%. */
    public boolean percent(int percent) {
        return uniform(1, 100) <= percent;
    }

    public double nextDouble() {
        return random.nextDouble();
    }

    public TpccScale scale() {
        return scale;
    }
}
