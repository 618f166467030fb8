package io.macrodb.runtime.engine.h2;

import io.macrodb.api.MacroSqlState;
import io.macrodb.runtime.capture.CapturedTable;
import io.macrodb.runtime.capture.RowLog;
import io.macrodb.runtime.capture.TransactionCapture;
import org.h2.engine.SessionLocal;
import org.h2.mvstore.tx.Transaction;
import org.h2.result.Row;

import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Captures the rows an update transaction writes on an H2 master from its transaction's undo log ({@link H2UndoLog}),
 * read after each statement from where the statement began: each row of a captured table the statement changed, as
 * it was before the statement and as it is now, both the very {@code Value[]} arrays H2 stores (which it never
 * changes in place), and the row object now stored, so that slaves store the master's own rows ({@link
 * H2DirectWriter}).
 *
 * <p>Why not triggers, as before 2026-11-29. H2 calls a row trigger with a new JDBC connection object and, for a
 * trigger that takes H2's own values ({@code TriggerAdapter}), a result set built afresh for the old and for the new
 * row, their column list included: 8.6% of the client's CPU samples under TPC-C at {@code replicas=1} (JFR), most of
 * what MacroDB cost there; this log, 3.2% in the same profile.
 *
 * <p>A statement's changes are folded by row: a row it changed several times (locked first, then written, or written
 * again by a trigger of the application's) is one change from what it was before the statement to what it is after,
 * in the place of its first change; so however H2 orders a statement's writes (keys moving over each other included),
 * only each row's state before and after it counts. A row locked and not changed is no change. Rows of tables the
 * catalog does not capture (temporary tables, H2's own) are left out; a table of a user schema it does not know is
 * refused.
 */
final class H2RowLog implements RowLog {

    private final SessionLocal session;
    private final H2TableMaps tables = new H2TableMaps();
    /** The engine transaction the current statement began in (H2 opens one for every statement), or null. */
    private Transaction transaction;
    /** Its log id when the statement began: every change of the statement has this one or a later one. */
    private long statementStart;
    /** The statement's changes of captured tables' rows, in H2's order (emptied after each statement). */
    private List<Change> changes = new ArrayList<>();

    /** One change from the undo log: the table's rows, the row's key there, and the row before the change. */
    private record Change(H2TableMaps.Rows rows, Object key, Object before) {
    }

    /** A row of a captured table, for the statement's first change of each row. */
    private record RowRef(H2TableMaps.Rows rows, Object key) {
    }

    /**
     * Up to this many changes in a statement are matched by row by looking through them, without a hash set: H2
     * records two for a one-row UPDATE (the row locked, then written), and most statements change a row or a few.
     */
    private static final int FEW_CHANGES = 16;

    /** A statement that changed more rows than this leaves a new list behind, not a large one kept for good. */
    private static final int LARGE_STATEMENT = 1024;

    H2RowLog(SessionLocal session) throws SQLException {
        H2UndoLog.requireReadable();
        this.session = session;
    }

    @Override
    public void statementBegins() {
        session.lock();
        try {
            transaction = session.isClosed() ? null : session.getTransaction();
            statementStart = transaction == null ? 0 : transaction.setSavepoint();
        } catch (RuntimeException closedMeanwhile) {
            transaction = null; // the statement fails on its own
        } finally {
            session.unlock();
        }
    }

    @Override
    public void statementEnded(TransactionCapture capture) throws SQLException {
        Transaction written = transaction;
        if (written == null) {
            throw transactionEnded();
        }
        session.lock();
        try {
            long end = written.setSavepoint(); // its log id, which H2 keeps when the transaction ends
            if (written.getStatus() != Transaction.STATUS_OPEN
                    && (end != statementStart || session.hasPendingTransaction())) {
                // Ended while the statement wrote (a close, a shutdown), or it went on writing in a new transaction
                // (a routine that committed): what it wrote cannot be read.
                throw session.isClosed() ? transactionEnded() : committedInside();
            }
            if (end == statementStart) {
                // Wrote nothing: a query of an update transaction, or a statement before which H2 commits by itself
                // (SCRIPT, SET: MacroDB committed first), or a query run with the engine in auto-commit mode.
                return;
            }
            readStatement(written, end);
            capture(capture);
        } catch (SQLException | RuntimeException e) {
            if (!session.isClosed() && written.getStatus() == Transaction.STATUS_OPEN) {
                written.rollbackToSavepoint(statementStart); // undone as H2 undoes a failed statement
            }
            throw e;
        } finally {
            session.unlock();
            if (changes.size() > LARGE_STATEMENT) {
                changes = new ArrayList<>();
            } else {
                changes.clear();
            }
        }
    }

    private void readStatement(Transaction written, long end) throws SQLException {
        tables.refresh(session);
        H2UndoLog.read(session.getDatabase().getStore().getTransactionStore(), written, statementStart, end,
                collectChange);
    }

    /** Keeps a change of a captured table's rows; made once (a lambda reading {@link #changes} would be per call). */
    private final H2UndoLog.Visitor collectChange = (mapId, key, before) -> {
        H2TableMaps.Rows rows = tables.rows(mapId);
        if (rows != null) {
            changes.add(new Change(rows, key, before));
        }
    };

    /** Each row's first change of the statement, from its row then to its row now, in the order of those changes. */
    private void capture(TransactionCapture capture) throws SQLException {
        Set<RowRef> seen = changes.size() > FEW_CHANGES ? new HashSet<>() : null;
        H2TableMaps.Rows lastRows = null;
        CapturedTable lastTable = null;
        for (int i = 0; i < changes.size(); i++) {
            Change change = changes.get(i);
            if (seen != null ? !seen.add(new RowRef(change.rows(), change.key())) : changedBefore(i)) {
                continue;
            }
            Object after = change.rows().current(change.key());
            if (change.before() == after) {
                continue; // locked, or changed back to the very row it was
            }
            if (change.rows() != lastRows) {
                lastRows = change.rows();
                lastTable = capture.table(lastRows.tableKey());
            }
            capture.storedRowChanged(lastTable, values(change.before()), values(after),
                    after != null ? after : change.before());
        }
    }

    /** Whether a change before the {@code i}th changed the same row. */
    private boolean changedBefore(int i) {
        Change change = changes.get(i);
        for (int j = 0; j < i; j++) {
            Change earlier = changes.get(j);
            if (earlier.rows() == change.rows() && earlier.key().equals(change.key())) {
                return true;
            }
        }
        return false;
    }

    private static Object[] values(Object row) {
        return row == null ? null : ((Row) row).getValueList();
    }

    /**
     * H2 ended the transaction while the statement that wrote rows ran (its session was closed, its database shut
     * down): its undo log went with it, and so did its rows.
     */
    private static SQLException transactionEnded() {
        return new SQLTransactionRollbackException("H2 ended this transaction while its statement ran (its session "
                + "was closed, or its database shut down), before MacroDB could capture its rows. Run it again.",
                MacroSqlState.SERIALIZATION_FAILURE);
    }

    /**
     * A routine the statement called committed on its own connection: H2 committed on the master what the transaction
     * had written so far, outside MacroDB's commit, and those rows' undo log is gone. No slave gets them: the slaves
     * now differ from the master, which {@code verify()} reports (and mends by copying them again).
     */
    private static SQLException committedInside() {
        return new SQLException("A routine called by this statement committed the transaction inside it, which "
                + "MacroDB cannot replicate: what it committed is on the master only, and verify() will find the "
                + "slaves different (and copy them again). Do not commit inside a routine.",
                MacroSqlState.NOT_REPLICABLE);
    }

    /**
     * Whether H2 rolled the whole transaction back with the failed statement (a deadlock's victim), not only the
     * statement: its transaction is over, or its log shorter than when the statement began.
     */
    @Override
    public boolean transactionRolledBack() {
        Transaction t = transaction;
        return t != null && (t.getStatus() != Transaction.STATUS_OPEN || t.setSavepoint() < statementStart);
    }
}
