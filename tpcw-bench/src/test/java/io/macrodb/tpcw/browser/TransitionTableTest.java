package io.macrodb.tpcw.browser;

import io.macrodb.tpcw.TpcwRandom;
import io.macrodb.tpcw.interaction.Interaction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The transition tables give the specification's mixes: a browser walked through a million steps of each table
 * visits each interaction as often as the table's stationary mix says (within 0.1 percentage point) and as the
 * specification states (within 0.5 point; the shopping table itself is 0.45 point off for Shopping Cart), with the
 * stated share of browse interactions (95, 80, 50%) within one point.
 */
class TransitionTableTest {

    private static final int STEPS = 1_000_000;

    @ParameterizedTest
    @EnumSource(TpcwMix.class)
    void aLongWalkGivesTheStatedMix(TpcwMix mix) {
        var random = new TpcwRandom(2024);
        var visits = new EnumMap<Interaction, Integer>(Interaction.class);
        Interaction page = Interaction.HOME;
        for (int step = 0; step < STEPS; step++) {
            visits.merge(page, 1, Integer::sum);
            page = mix.table().next(page, random.uniform(1, TransitionTable.MAX));
        }
        Map<Interaction, Double> stationary = mix.table().stationaryMix();
        var report = new StringBuilder(mix.id()).append(": interaction measured / stationary / stated\n");
        double browse = 0;
        for (Interaction i : Interaction.values()) {
            double measured = 100.0 * visits.getOrDefault(i, 0) / STEPS;
            report.append(String.format(Locale.ROOT, "  %-22s %6.2f %6.2f %6.2f%n", i.displayName(), measured,
                    stationary.get(i), mix.statedMix().get(i)));
            assertEquals(stationary.get(i), measured, 0.1, i + " against the table's stationary mix");
            assertEquals(mix.statedMix().get(i), measured, 0.5, i + " against the stated mix");
            if (i.category() == Interaction.Category.BROWSE) {
                browse += measured;
            }
        }
        report.append(String.format(Locale.ROOT, "  browse share %.2f%% (stated %.0f%%)%n", browse,
                mix.statedBrowseShare()));
        System.out.print(report);
        assertEquals(mix.statedBrowseShare(), browse, 1.0);
    }

    @Test
    void browsingAndOrderingTablesAreExactlyTheirStatedMixes() {
        for (TpcwMix mix : new TpcwMix[] {TpcwMix.BROWSING, TpcwMix.ORDERING}) {
            Map<Interaction, Double> stationary = mix.table().stationaryMix();
            for (Interaction i : Interaction.values()) {
                assertEquals(mix.statedMix().get(i), stationary.get(i), 0.015, mix + " " + i);
            }
        }
    }

    @Test
    void harnessMixWeightsAddUpToAHundred() {
        for (TpcwMix mix : TpcwMix.values()) {
            double sum = mix.harnessMix().weights().values().stream().mapToDouble(Double::doubleValue).sum();
            assertEquals(100.0, sum, 1e-6);
            assertEquals(mix, TpcwMix.of(mix.harnessMix().name()));
        }
    }

    @Test
    void malformedRowsAreRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> TransitionTable.builder().from(Interaction.HOME).to(Interaction.SEARCH_REQUEST, 5000).build(),
                "a row must end at 9999");
        assertThrows(IllegalArgumentException.class,
                () -> TransitionTable.builder().from(Interaction.HOME).to(Interaction.SEARCH_REQUEST, 5000)
                        .to(Interaction.SHOPPING_CART, 4000),
                "cumulative values must rise");
        assertThrows(IllegalArgumentException.class,
                () -> TransitionTable.builder().from(Interaction.HOME).to(Interaction.SHOPPING_CART, 9999).build(),
                "every page needs a row");
    }

    @Test
    void drawsPickTheFirstEntryAtOrAboveThem() {
        TransitionTable browsing = TpcwMix.BROWSING.table();
        assertEquals(Interaction.BEST_SELLERS, browsing.next(Interaction.HOME, 1));
        assertEquals(Interaction.BEST_SELLERS, browsing.next(Interaction.HOME, 3792));
        assertEquals(Interaction.NEW_PRODUCTS, browsing.next(Interaction.HOME, 3793));
        assertEquals(Interaction.SHOPPING_CART, browsing.next(Interaction.HOME, 9999));
        assertEquals(Interaction.HOME, TpcwMix.ORDERING.table().next(Interaction.BEST_SELLERS, 1));
    }
}
