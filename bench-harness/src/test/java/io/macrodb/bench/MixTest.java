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

    /** TPC-C's clause 5.2.4.2: each whole deck holds the weights exactly, so no type falls below its share. */
    @Test
    void aDeckDealsEveryWeightExactlyOncePerDeck() {
        Mix whole = Mix.of("m", "test", Map.of(Kind.A, 92.0, Kind.B, 4.0, Kind.C, 4.0));
        Mix.Deck deck = whole.newDeck();
        assertEquals(100, deck.size());
        var r = new SplittableRandom(7);
        for (int pass = 0; pass < 3; pass++) {
            var counts = new EnumMap<Kind, Integer>(Kind.class);
            for (int i = 0; i < deck.size(); i++) {
                counts.merge((Kind) deck.next(r), 1, Integer::sum);
            }
            assertEquals(Map.of(Kind.A, 92, Kind.B, 4, Kind.C, 4), counts);
        }
        Mix fractional = Mix.of("f", "test", Map.of(Kind.A, 100 / 3.0, Kind.B, 200 / 3.0, Kind.C, 0.0));
        Mix.Deck thousand = fractional.newDeck();
        assertEquals(1000, thousand.size());
        var counts = new EnumMap<Kind, Integer>(Kind.class);
        for (int i = 0; i < thousand.size(); i++) {
            counts.merge((Kind) thousand.next(r), 1, Integer::sum);
        }
        assertEquals(Map.of(Kind.A, 333, Kind.B, 667), counts); // the remainder to the largest fraction; C never
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
