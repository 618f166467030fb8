package io.macrodb.tpcw;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The specification's random value rules (clauses 2.1.13 and 4.6.2), over one {@link SplittableRandom}.
 *
 * <p>Not thread-safe: each loader thread and each emulated browser owns one. Seeded, it gives the same database
 * and the same sequence of browser inputs on every target, which is what a side-by-side comparison needs.
 */
public final class TpcwRandom {

    /** Clause 4.6.2.2 a-string characters. '%' and '_' are left out so a value never acts as a LIKE wildcard. */
    private static final String A_CHARS =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!@#$^&*()-=+{}[]|:;,.?/~ ";
    private static final String N_CHARS = "0123456789";
    /** Clause 4.6.2.8: the syllable for each digit. */
    private static final String[] SYLLABLES = {"BA", "OG", "AL", "RI", "RE", "SE", "AT", "UL", "IN", "NG"};

    private final SplittableRandom random;

    public TpcwRandom(SplittableRandom random) {
        this.random = random;
    }

    public TpcwRandom(long seed) {
        this(new SplittableRandom(seed));
    }

    /** A uniform integer in {@code [min, max]}, both included. */
    public int uniform(int min, int max) {
        return random.nextInt(min, max + 1);
    }

    /** A uniform long in {@code [min, max]}, both included. */
    public long uniform(long min, long max) {
        return random.nextLong(min, max + 1);
    }

    /** A uniform double in {@code [0, 1)}. */
    public double nextDouble() {
        return random.nextDouble();
    }

    /** True with probability {@code percent / 100}. */
    public boolean percent(int percent) {
        return random.nextInt(100) < percent;
    }

    /** Clause 2.1.13: NURand(A, x, y). */
    public int nuRand(int a, int x, int y) {
        return ((uniform(0, a) | uniform(x, y)) % (y - x + 1)) + x;
    }

    /** One element of {@code values}, uniformly. */
    public <T> T pick(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }

    /** Clause 4.6.2.2: an a-string of random length in {@code [min, max]}. */
    public String aString(int min, int max) {
        return chars(A_CHARS, uniform(min, max));
    }

    /** Clause 4.6.2.3: an n-string (digits) of random length in {@code [min, max]}. */
    public String nString(int min, int max) {
        return chars(N_CHARS, uniform(min, max));
    }

    private String chars(String alphabet, int length) {
        char[] out = new char[length];
        for (int i = 0; i < length; i++) {
            out[i] = alphabet.charAt(random.nextInt(alphabet.length()));
        }
        return new String(out);
    }

    /** A money amount with two decimals, uniform in {@code [minCents, maxCents]} cents. */
    public BigDecimal cents(long minCents, long maxCents) {
        return BigDecimal.valueOf(uniform(minCents, maxCents), 2);
    }

    /**
     * Clause 4.6.2.8: the digits of {@code d} written as syllables, left-padded with "BA" (zero) to {@code n}
     * digits; {@code n == 0} means no padding. {@code digSyl(1972, 6)} is {@code BABAOGNGULAL}.
     */
    public static String digSyl(long d, int n) {
        if (d < 0) {
            throw new IllegalArgumentException("digSyl of a negative number: " + d);
        }
        String digits = Long.toString(d);
        var out = new StringBuilder(2 * Math.max(n, digits.length()));
        for (int pad = n - digits.length(); pad > 0; pad--) {
            out.append(SYLLABLES[0]);
        }
        for (int i = 0; i < digits.length(); i++) {
            out.append(SYLLABLES[digits.charAt(i) - '0']);
        }
        return out.toString();
    }

    /** Clause 4.7.1 C_UNAME: the customer id as syllables. */
    public static String userName(int customerId) {
        return digSyl(customerId, 0);
    }

    /** Clause 4.7.1 C_PASSWD: the user name in lower case. */
    public static String password(String userName) {
        return userName.toLowerCase(Locale.ROOT);
    }
}
