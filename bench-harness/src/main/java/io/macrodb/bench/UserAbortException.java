package io.macrodb.bench;

/**
 * Thrown by a transaction that rolls back as part of its own profile, such as TPC-C's New-Order with an unused
 * item number. The harness rolls back and counts the transaction as completed (and as a user abort), not as an
 * error, and never retries it.
 */
public class UserAbortException extends Exception {

    public UserAbortException(String message) {
        super(message, null, false, false);
    }
}
