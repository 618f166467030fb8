package io.macrodb.runtime.capture;

import java.sql.SQLException;

/**
 * The rows an update transaction has written, as the engine itself records them (for its own rollback and commit),
 * read after each statement: how MacroDB captures, on both engines (their row triggers cost more than the rest of
 * MacroDB together; H2's undo log, HSQLDB's session row actions). One per engine connection to the master; its statements run one at a time, so the log keeps where the
 * current statement began.
 *
 * <p>The record stays exact when a statement fails: the engine takes the statement's rows out of it again as it undoes
 * them, so {@link #statementEnded} is called only for a statement that succeeded. A rollback to a savepoint, or of the
 * whole transaction, takes its rows out the same way.
 */
public interface RowLog {

    /** Called before each statement of an update transaction runs on the master. */
    void statementBegins();

    /**
     * Called once that statement has succeeded: hands every row it wrote to {@code capture}, in the engine's order,
     * an updated row as one change (its old and new values). If a row cannot be captured (a table the catalog does not
     * have, a value no slave can take), the statement is undone in the engine, as an engine undoes a failed statement, and
     * the error thrown: no row of it may commit unless every slave gets it.
     */
    void statementEnded(TransactionCapture capture) throws SQLException;

    /**
     * Called when that statement failed instead: whether the engine rolled the whole transaction back with it, so that
     * the rows captured before the statement go too, read from the record itself. The error's SQLState does not say:
     * HSQLDB's serialization failure (40501) rolls the transaction back, or only the statement when the database's
     * conflict rollback is off ({@code hsqldb.tx_conflict_rollback=false}). A transaction that had written no row
     * before the statement counts as not rolled back: nothing of it was captured.
     */
    boolean transactionRolledBack();
}
