package io.macrodb.bench.run;

import java.util.ArrayList;
import java.util.List;

/** The first few non-retryable failures of a trial, kept with their stack traces for the failure report. */
final class ErrorLog {

    private static final int KEEP = 5;

    private final List<Throwable> first = new ArrayList<>();
    private long total;

    synchronized void add(String what, Throwable t) {
        total++;
        if (first.size() < KEEP) {
            var wrapped = new RuntimeException(what + ": " + t, t);
            first.add(wrapped);
        }
    }

    synchronized long total() {
        return total;
    }

    synchronized List<Throwable> first() {
        return List.copyOf(first);
    }
}
