package io.macrodb.bench.run;

/**
 * A run that must not be trusted: a consistency check failed, replicas differ, a transaction failed with an error
 * that is not retryable, or a client hung. The comparison stops at once, writes what it has, and the CLI exits
 * with a non-zero status.
 */
public class BenchmarkFailure extends Exception {

    public BenchmarkFailure(String message) {
        super(message);
    }

    public BenchmarkFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
