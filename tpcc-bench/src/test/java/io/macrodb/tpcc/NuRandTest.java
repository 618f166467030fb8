package io.macrodb.tpcc;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NuRandTest {

    private final TpccRandom random = new TpccRandom(new SplittableRandom(3), NuRandConstants.forRun(3),
            TpccScale.spec(1));

    @Test
    void staysWithinItsBoundsAndReachesThemForEveryField() {
        int[][] fields = {{255, 0, 999}, {1023, 1, 3000}, {8191, 1, 100_000}};
        for (int[] f : fields) {
            for (int c : new int[]{0, f[0] / 2, f[0]}) {
                int min = Integer.MAX_VALUE;
                int max = Integer.MIN_VALUE;
                for (int i = 0; i < 300_000; i++) {
                    int v = random.nuRand(f[0], f[1], f[2], c);
                    assertTrue(v >= f[1] && v <= f[2], "NURand(" + f[0] + ", " + f[1] + ", " + f[2] + ") = " + v);
                    min = Math.min(min, v);
                    max = Math.max(max, v);
                }
                int span = f[2] - f[1];
                assertTrue(min <= f[1] + span / 100 && max >= f[2] - span / 100, "range covered: " + min + ".." + max);
            }
        }
    }

    @Test
    void isNonUniform() {
        int[] counts = new int[1000];
        int n = 1_000_000;
        for (int i = 0; i < n; i++) {
            counts[random.nuRand(255, 0, 999, 0)]++;
        }
        int max = 0;
        int min = Integer.MAX_VALUE;
        for (int c : counts) {
            max = Math.max(max, c);
            min = Math.min(min, c);
        }
        // uniform would give about 1,000 each; the OR with random(0, 255) piles onto some values
        assertTrue(max > 3 * (n / 1000), "skewed: max " + max);
        assertTrue(min < (n / 1000) / 2, "skewed: min " + min);
    }

    @Test
    void theRunsConstantForLastNamesObeysTheDeltaRule() {
        for (long seed = 0; seed < 2_000; seed++) {
            NuRandConstants load = NuRandConstants.forLoad(seed);
            NuRandConstants run = NuRandConstants.forRun(seed);
            int delta = Math.abs(run.lastName() - load.lastName());
            assertTrue(delta >= 65 && delta <= 119 && delta != 96 && delta != 112, "seed " + seed + ": " + delta);
        }
        assertTrue(NuRandConstants.validRunDelta(65));
        assertTrue(NuRandConstants.validRunDelta(119));
        assertTrue(!NuRandConstants.validRunDelta(96) && !NuRandConstants.validRunDelta(112));
        assertTrue(!NuRandConstants.validRunDelta(64) && !NuRandConstants.validRunDelta(120));
        assertThrows(IllegalArgumentException.class, () -> new NuRandConstants(256, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new NuRandConstants(0, 1024, 0));
        assertThrows(IllegalArgumentException.class, () -> new NuRandConstants(0, 0, 8192));
    }

    @Test
    void derivedFieldsFollowTheirClauses() {
        assertEquals("BARBARBAR", TpccRandom.lastName(0));
        assertEquals("PRICALLYOUGHT", TpccRandom.lastName(371));
        assertEquals("EINGEINGEING", TpccRandom.lastName(999));
        for (int i = 0; i < 10_000; i++) {
            int c = random.customerId();
            assertTrue(c >= 1 && c <= 3_000);
            int item = random.itemId();
            assertTrue(item >= 1 && item <= 100_000);
            String zip = random.zip();
            assertTrue(zip.matches("[0-9]{4}11111"), zip);
            String a = random.aString(8, 16);
            assertTrue(a.length() >= 8 && a.length() <= 16);
        }
        var small = new TpccRandom(new SplittableRandom(1), NuRandConstants.forRun(1), TpccScale.small(1));
        for (int i = 0; i < 10_000; i++) {
            assertTrue(small.customerId() <= 30 && small.itemId() <= 1_000);
            String name = small.lastNameByNuRand();
            boolean known = false;
            for (int n = 0; n < 30; n++) {
                known |= TpccRandom.lastName(n).equals(name);
            }
            assertTrue(known, "small scale draws only loaded names: " + name);
        }
    }
}
