package io.macrodb.bench;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.SplittableRandom;

/**
 * One emulated client of a workload, bound to one connection (auto-commit off), or to the one that replaces it
 * when it breaks ({@link #reconnect}).
 *
 * <p>The harness owns the transaction boundary: before {@link #execute} it sets the connection's read-only
 * flag from {@link TransactionType#readOnly()}; after it returns, the harness commits; if it throws it rolls
 * back, and runs the transaction again when the SQLState is on the retry list. So {@code execute} only runs
 * statements: it must never commit, roll back or change the read-only flag itself. Whether a retried attempt
 * runs the failed attempt's inputs or draws new ones is the client's choice (TPC-C's keeps them, as a terminal
 * resubmits the same transaction); {@link #next} is called once per transaction, never for a retry.
 */
public interface WorkloadClient extends AutoCloseable {

    /**
     * Runs one attempt of a transaction of {@code type}.
     *
     * @throws UserAbortException when the transaction's profile asks for a rollback (counted, not retried)
     * @throws SQLException       anything the database raised; retried if its SQLState is on the retry list
     */
    void execute(TransactionType type) throws SQLException, UserAbortException;

    /**
     * Chooses this client's next transaction. The default draws it from {@code mix}, independently each time (TPC-C's
     * client deals from a deck instead, {@link Mix.Deck}). A client that moves from one transaction to the next by its
     * own rules (TPC-W's emulated browser following its mix's transition table) overrides it; the mix's weights then
     * only document the long-run frequencies.
     */
    default TransactionType next(Mix mix, SplittableRandom random) {
        return mix.next(random);
    }

    /**
     * Tells the client that the transaction of {@code type} it last executed has committed (after any retries),
     * so that it may adopt what that transaction returned. Not called after a rollback or an error.
     */
    default void committed(TransactionType type) {
    }

    /**
     * The client's connection broke (rolling it back failed), and the harness opened {@code replacement}: the client
     * prepares on it what it had prepared on the old one and goes on with everything else it holds (a TPC-W
     * browser's session and cart, a TPC-C terminal's inputs for the transaction it retries), as a user whose network
     * dropped goes on where they were. A fresh client would draw fresh inputs and start a fresh session, whose next
     * interaction might need a cart it never had. The harness closes the old connection afterwards.
     */
    void reconnect(Connection replacement) throws SQLException;

    /** Closes the client's statements; the harness closes the connection itself. */
    @Override
    void close() throws SQLException;
}
