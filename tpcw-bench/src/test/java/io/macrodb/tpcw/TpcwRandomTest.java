package io.macrodb.tpcw;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TpcwRandomTest {

    @Test
    void digSylSpellsDigitsAsSyllables() {
        // The examples of the specification's DigSyl (and of the TPC's own generator's self-test).
        assertEquals("RE", TpcwRandom.digSyl(4, 0));
        assertEquals("OGBABA", TpcwRandom.digSyl(100, 0));
        assertEquals("BABAOGBABA", TpcwRandom.digSyl(100, 5));
        assertEquals("OGNGULAL", TpcwRandom.digSyl(1972, 0));
        assertEquals("BABAOGNGULAL", TpcwRandom.digSyl(1972, 6));
    }

    @Test
    void stringsAndNuRandStayInRange() {
        var random = new TpcwRandom(1);
        for (int i = 0; i < 10_000; i++) {
            String a = random.aString(3, 9);
            assertTrue(a.length() >= 3 && a.length() <= 9);
            assertTrue(a.indexOf('%') < 0 && a.indexOf('_') < 0, "no LIKE wildcards");
            assertTrue(random.nString(16, 16).chars().allMatch(Character::isDigit));
            int n = random.nuRand(1023, 1, 2880);
            assertTrue(n >= 1 && n <= 2880);
        }
    }

    @Test
    void nuRandConstantsFollowTheScale() {
        assertEquals(1023, TpcwScale.of(1000, 1).customerNuRandA());
        assertEquals(4095, TpcwScale.of(1000, 4).customerNuRandA());
        assertEquals(65535, TpcwScale.of(1000, 128).customerNuRandA());
        assertEquals(63, TpcwScale.of(1000, 1).itemNuRandA());
        assertEquals(511, TpcwScale.of(10_000, 1).itemNuRandA());
        assertEquals(4095, TpcwScale.of(100_000, 1).itemNuRandA());
    }
}
