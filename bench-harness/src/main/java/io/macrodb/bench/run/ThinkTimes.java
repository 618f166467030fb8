package io.macrodb.bench.run;

/** Whether clients pause between transactions. */
public enum ThinkTimes {
    /** No keying or think time: every client runs transactions back to back (the paper's setting, the default). */
    NONE,
    /**
     * The spec's keying time before each transaction and a negative-exponential think time after it (mean from
     * the type, capped at 10 times the mean), as TPC-C 5.2.5 describes.
     */
    SPEC
}
