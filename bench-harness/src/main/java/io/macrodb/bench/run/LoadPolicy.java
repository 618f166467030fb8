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
            + "the last");

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
        throw new IllegalArgumentException("--load must be trial or sweep, got '" + value + "'");
    }
}
