package io.macrodb.bench;

import org.junit.jupiter.api.Test;

import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class MixTest {

    enum Kind implements TransactionType {
        A, B, C;

        @Override
        public String displayName() {
            return name();
        }

        @Override
        public boolean readOnly() {
            return this == C;
        }
    }

    @Test
    void drawsEachTypeInProportionToItsWeightAndNeverAZeroWeight() {
        Mix mix = Mix.of("m", "test", Map.of(Kind.A, 70.0, Kind.B, 30.0, Kind.C, 0.0));
        var counts = new EnumMap<Kind, Integer>(Kind.class);
        var r = new SplittableRandom(7);
        int n = 200_000;
        for (int i = 0; i < n; i++) {
            counts.merge((Kind) mix.next(r), 1, Integer::sum);
        }
        assertEquals(0.70, counts.get(Kind.A) / (double) n, 0.005);
        assertEquals(0.30, counts.get(Kind.B) / (double) n, 0.005);
        assertEquals(null, counts.get(Kind.C));
        assertEquals(70.0, mix.weight(Kind.A));
        assertEquals(0.0, mix.weight(Kind.C));
    }

    @Test
    void refusesWeightsThatDoNotAddUpTo100OrAreNegative() {
        assertThrows(IllegalArgumentException.class, () -> Mix.of("m", "", Map.of(Kind.A, 50.0, Kind.B, 40.0)));
        assertThrows(IllegalArgumentException.class, () -> Mix.of("m", "", Map.of(Kind.A, 110.0, Kind.B, -10.0)));
    }

    @Test
    void formatsPercentagesWithoutTrailingZeros() {
        assertEquals("45%", Mix.formatPercent(45));
        assertEquals("9.7826%", Mix.formatPercent(9.782608695652174));
    }
}
