package io.macrodb.runtime.engine.hsqldb;

import org.hsqldb.Database;
import org.hsqldb.Session;
import org.hsqldb.TransactionManager;
import org.hsqldb.TransactionManagerMVCC;

import java.lang.reflect.Field;
import java.util.concurrent.locks.Lock;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Wakes HSQLDB sessions left waiting for a row lock that nobody holds: a wake-up HSQLDB 2.7.4 loses in MVCC mode.
 *
 * <p>How it is lost. A statement that meets a row another transaction changed notes that transaction's session
 * ({@code RowAction.addDeleteAction}, under the row action's monitor only), then takes the transaction manager's lock
 * and enters itself among the sessions the holder wakes when its transaction ends
 * ({@code TransactionManagerMVCC.addDeleteAction}, {@code addInsertAction}). If the holder's change was undone
 * meanwhile (a rollback to a savepoint, or of the whole transaction) and its transaction then ended, the waiter enters
 * itself after the holder's last wake-up ({@code countDownLatches}) and waits until the holder ends another
 * transaction: for ever if the holder's connection is closed, as long as it sits idle in a pool otherwise, and for
 * ever too if the holder's next statement waits behind a schema change that waits for the waiter's open
 * transaction. Seen with HSQLDB alone: writers that roll back to a savepoint, each connection closed after a few
 * transactions, stall within seconds (README, Engines).
 *
 * <p>What this does, under the transaction manager's lock: a session in a transaction that waits for a session in
 * none stops waiting for it, as the end of that session's transaction would have made it. A session in a transaction
 * waits only for rows (HSQLDB's waits for a schema change's catalog lock are taken when a statement begins a
 * transaction, {@code beginAction}, by a session in none), and only for a session whose change of the row is not
 * committed; every end of a transaction wakes its waiters under that lock; so a wait of a session in a transaction
 * for one in none was entered after that end, and is stale, whatever that session does next. A session woken from
 * a row wait runs its statement again (HSQLDB's redo, as after any row wait), and waits again if the row is still
 * locked. Waits of sessions in no transaction (for a schema change, or a schema change's for open transactions) are
 * left alone: HSQLDB runs the statement without looking again once they end. Until a stale wait is ended, HSQLDB's
 * deadlock check can follow a cycle it closes until its stack overflows: a statement meeting it fails with "General
 * error" (HSQLDB's own behaviour, with or without this).
 *
 * <p>The transaction manager's lock is package-private: it is reached by reflection, which works where HSQLDB is on
 * the class path. Where it cannot be (HSQLDB a named module on the module path that does not open {@code
 * org.hsqldb}), nothing is done, and one message says so.
 */
final class HsqldbStaleLockWaits {

    private static final Logger LOG = Logger.getLogger(HsqldbStaleLockWaits.class.getName());
    private static final Field WRITE_LOCK = writeLockField();

    private HsqldbStaleLockWaits() {
    }

    /**
     * Wakes every session of {@code anySession}'s database in a transaction that waits for a session in none.
     *
     * @param anySession a session of the database, for its transaction manager and its list of sessions
     * @return how many waits were ended
     */
    static int release(Session anySession) {
        Database database = anySession.getDatabase();
        if (WRITE_LOCK == null || database == null) {
            return 0; // the database is closed, or the lock out of reach
        }
        TransactionManager manager = database.txManager;
        if (!(manager instanceof TransactionManagerMVCC)) {
            return 0; // the lock-based modes take a lock and enter the waiter in one step under the manager's lock
        }
        // Read before the lock is taken: the probe never holds the lock while it waits for the session list's
        // monitor (HSQLDB's own code takes the lock first). A session opened after it waits for the next call.
        Session[] sessions = database.sessionManager.getAllSessions();
        Lock lock = writeLock(manager);
        int released = 0;
        lock.lock();
        try {
            if (database.txManager != manager) {
                return 0; // the transaction mode was switched meanwhile, under the old manager's lock
            }
            for (Session waiter : sessions) {
                released += releaseStale(waiter);
            }
        } finally {
            lock.unlock();
        }
        return released;
    }

    /** Called under the transaction manager's lock: the sets and flags read here change only under it. */
    private static int releaseStale(Session waiter) {
        if (!waiter.isInMidTransaction()) {
            return 0;
        }
        int released = 0;
        for (int i = waiter.waitedSessions.size() - 1; i >= 0; i--) {
            Session holder = waiter.waitedSessions.get(i);
            if (!holder.isInMidTransaction()) {
                waiter.waitedSessions.remove(holder);
                holder.waitingSessions.remove(waiter);
                released++;
            }
        }
        if (released > 0) {
            // what TransactionManagerMVCC.countDownLatches sets: one count per session still waited for
            waiter.latch.setCount(waiter.waitedSessions.size());
        }
        return released;
    }

    private static Field writeLockField() {
        try {
            Field field = Class.forName("org.hsqldb.TransactionManagerCommon").getDeclaredField("writeLock");
            field.setAccessible(true);
            return field;
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.log(Level.WARNING, "MacroDB: cannot reach HSQLDB's transaction manager lock; sessions HSQLDB leaves "
                    + "waiting for a lock nobody holds (MVCC mode) will not be woken", e);
            return null;
        }
    }

    private static Lock writeLock(TransactionManager manager) {
        try {
            return (Lock) WRITE_LOCK.get(manager);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("made accessible when the field was found", e);
        }
    }
}
