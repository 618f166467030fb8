package io.macrodb.tpcw.browser;

import io.macrodb.tpcw.interaction.Interaction;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where an emulated browser goes from each page: the specification's transition table for one mix (clause
 * 5.2.2), one row per page, each entry naming the next interaction with its cumulative probability out of
 * {@value #MAX} (the table's "CUM" values).
 *
 * <p>The browser draws {@code r} uniformly in {@code [1, 9999]} and takes the first entry of its row whose
 * cumulative value is at least {@code r}, as the reference browser emulator does. Every session starts at Home
 * (the table's INIT row has a single entry, Home, for all three mixes).
 */
public final class TransitionTable {

    /** The cumulative value that closes every row. */
    public static final int MAX = 9999;

    /** One possible next page and the cumulative probability up to and including it. */
    public record Transition(Interaction to, int cumulative) {
    }

    private final Map<Interaction, List<Transition>> rows;

    private TransitionTable(Map<Interaction, List<Transition>> rows) {
        this.rows = Collections.unmodifiableMap(rows);
    }

    /** Starts a table; give every page's row with {@link Builder#from}. */
    public static Builder builder() {
        return new Builder();
    }

    /** The next page after {@code from} for a draw {@code r} in {@code [1, MAX]}. */
    public Interaction next(Interaction from, int r) {
        if (r < 1 || r > MAX) {
            throw new IllegalArgumentException("draw out of [1, " + MAX + "]: " + r);
        }
        for (Transition t : rows.get(from)) {
            if (t.cumulative() >= r) {
                return t.to();
            }
        }
        throw new IllegalStateException("row " + from + " does not end at " + MAX);
    }

    /** The row of {@code from}: its transitions in table order. */
    public List<Transition> row(Interaction from) {
        return rows.get(from);
    }

    /** The probability of going from {@code from} to {@code to} in one step. */
    public double probability(Interaction from, Interaction to) {
        int previous = 0;
        for (Transition t : rows.get(from)) {
            if (t.to() == to) {
                return (t.cumulative() - previous) / (double) MAX;
            }
            previous = t.cumulative();
        }
        return 0;
    }

    /**
     * The long-run share of each interaction, in percent: the stationary distribution of this Markov chain
     * (computed by power iteration). It is the mix a browser produces over many steps.
     */
    public Map<Interaction, Double> stationaryMix() {
        Interaction[] pages = Interaction.values();
        double[] p = new double[pages.length];
        Arrays.fill(p, 1.0 / pages.length);
        for (int iteration = 0; iteration < 10_000; iteration++) {
            double[] next = new double[pages.length];
            for (Interaction from : pages) {
                for (Interaction to : pages) {
                    next[to.ordinal()] += p[from.ordinal()] * probability(from, to);
                }
            }
            double change = 0;
            for (int i = 0; i < p.length; i++) {
                change += Math.abs(next[i] - p[i]);
            }
            p = next;
            if (change < 1e-13) {
                break;
            }
        }
        var mix = new LinkedHashMap<Interaction, Double>();
        for (Interaction page : pages) {
            mix.put(page, 100 * p[page.ordinal()]);
        }
        return mix;
    }

    /** Builds a table row by row, checking that every row rises strictly and ends at {@value #MAX}. */
    public static final class Builder {
        private final Map<Interaction, List<Transition>> rows = new EnumMap<>(Interaction.class);
        private Interaction current;

        private Builder() {
        }

        /** Starts the row of page {@code from}. */
        public Builder from(Interaction from) {
            closeRow();
            if (rows.containsKey(from)) {
                throw new IllegalArgumentException("row " + from + " given twice");
            }
            rows.put(from, new ArrayList<>());
            current = from;
            return this;
        }

        /** Adds a transition to the current row: go to {@code to} when the draw is at most {@code cumulative}. */
        public Builder to(Interaction to, int cumulative) {
            if (current == null) {
                throw new IllegalStateException("to(" + to + ") before any from(...)");
            }
            List<Transition> row = rows.get(current);
            int previous = row.isEmpty() ? 0 : row.get(row.size() - 1).cumulative();
            if (cumulative <= previous || cumulative > MAX) {
                throw new IllegalArgumentException("row " + current + ": " + to + " at " + cumulative
                        + " must rise above " + previous + " and stay within " + MAX);
            }
            for (Transition t : row) {
                if (t.to() == to) {
                    throw new IllegalArgumentException("row " + current + " names " + to + " twice");
                }
            }
            row.add(new Transition(to, cumulative));
            return this;
        }

        public TransitionTable build() {
            closeRow();
            for (Interaction page : Interaction.values()) {
                if (!rows.containsKey(page)) {
                    throw new IllegalArgumentException("no row for " + page);
                }
            }
            var frozen = new EnumMap<Interaction, List<Transition>>(Interaction.class);
            rows.forEach((k, v) -> frozen.put(k, List.copyOf(v)));
            return new TransitionTable(frozen);
        }

        private void closeRow() {
            if (current != null) {
                List<Transition> row = rows.get(current);
                if (row.isEmpty() || row.get(row.size() - 1).cumulative() != MAX) {
                    throw new IllegalArgumentException("row " + current + " must end at " + MAX);
                }
            }
            current = null;
        }
    }
}
