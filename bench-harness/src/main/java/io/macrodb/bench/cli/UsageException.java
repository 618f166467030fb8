package io.macrodb.bench.cli;

/** A command line that cannot be run: an unknown option, a missing or malformed value. */
public class UsageException extends Exception {

    public UsageException(String message) {
        super(message);
    }
}
