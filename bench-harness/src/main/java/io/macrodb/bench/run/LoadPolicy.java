package io.macrodb.bench.run;

/** How often a target's database is loaded afresh during a comparison. */
public enum LoadPolicy {

    /** Every trial (target, mix, client count, repetition) loads its own database: nothing carries over. */
    TRIAL("trial", "a fresh database per trial"),

    /**
     * One load per target, mix and repetition; the client counts run on it one after the other, in the order given,
     * and the consistency checks run once, after the last. Saves a load per further client count (the load and the
     * checks are most of a short trial's time); each count sees the rows the counts before it wrote, as every target
     * does alike.
     */
    SWEEP("sweep", "one database per target, mix and repetition, client counts run on it in order, checked after "
            + "the last"),

    /**
     * One load per target for the whole run, every target's database held at once; every repetition, mix and client
     * count runs on it, the targets taking turns window by window, the first to go changing from one window's turn
     * to the next (A B, B A, ...); the checks run once per target, at the end, and the results come then. The two
     * windows of a pair are at most as many windows apart as there are targets, not a load and a JIT warm-up apart,
     * so a shared machine's slow drift and a load's luck (heap layout, the JIT's choices on a fresh database) reach
     * both alike: for ratios near 1. Each database grows by what the windows before wrote, every target's alike at
     * equal throughput; the retained heap of a target's load is read with the databases loaded before it still in the
     * heap, as the difference its load made.
     */
    ONCE("once", "one database per target for the whole run, all held at once, the targets taking turns window by "
            + "window (the first to go alternating), each checked at the end");

    private final String option;
    private final String description;

    LoadPolicy(String option, String description) {
        this.option = option;
        this.description = description;
    }

    /** A line for a report's environment header. */
    public String description() {
        return description;
    }

    /** The value of {@code --load} that selects this policy. */
    public String option() {
        return option;
    }

    /** The policy {@code --load value} selects. */
    public static LoadPolicy fromOption(String value) {
        for (LoadPolicy p : values()) {
            if (p.option.equals(value)) {
                return p;
            }
        }
        throw new IllegalArgumentException("--load must be trial, sweep or once, got '" + value + "'");
    }
}
