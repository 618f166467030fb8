package io.macrodb.runtime.engine.hsqldb;

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
 * ({@code TransactionManagerMVCC.addDeleteAction}). If the holder's change was undone meanwhile (a rollback to a
 * savepoint, or of the whole transaction) and its transaction then ended, the waiter enters itself after the holder's
 * last wake-up ({@code countDownLatches}) and waits until the holder ends another transaction: for ever if the holder's
 * connection is closed, as long as it sits idle in a pool otherwise. Seen with HSQLDB alone: writers that roll back to
 * a savepoint, each connection closed after a few transactions, stall within seconds (README, Engines).
 *
 * <p>What this does, under the transaction manager's lock: every session waiting for a session that is in no
 * transaction, nor beginning one, stops waiting for it, as the holder's end would have made it. Any wait HSQLDB
 * itself sets up is for a session in a transaction (a row's uncommitted change) or beginning one (the sessions a
 * schema change in MVCC waits for), and every end of a transaction wakes its waiters under that lock, so such a wait
 * is stale and nothing else can end it. A session woken runs its statement again, as after any wait, and waits again
 * if it meets a change still uncommitted.
 *
 * <p>The transaction manager's lock and the session's flag of a transaction beginning are package-private: they are
 * read by reflection, which works where HSQLDB is on the class path. Where it cannot (HSQLDB a named module on the
 * module path that does not open {@code org.hsqldb}), nothing is done, and one message says so.
 */
final class HsqldbStaleLockWaits {

    private static final Logger LOG = Logger.getLogger(HsqldbStaleLockWaits.class.getName());
    private static final Field WRITE_LOCK;
    private static final Field PRE_TRANSACTION;

    static {
        Field writeLock = null;
        Field preTransaction = null;
        try {
            writeLock = Class.forName("org.hsqldb.TransactionManagerCommon").getDeclaredField("writeLock");
            writeLock.setAccessible(true);
            preTransaction = Session.class.getDeclaredField("isPreTransaction");
            preTransaction.setAccessible(true);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.log(Level.WARNING, "MacroDB: cannot reach HSQLDB's transaction manager lock; sessions HSQLDB leaves "
                    + "waiting for a lock nobody holds (MVCC mode) will not be woken", e);
            writeLock = null;
        }
        WRITE_LOCK = writeLock;
        PRE_TRANSACTION = preTransaction;
    }

    private HsqldbStaleLockWaits() {
    }

    /**
     * Wakes every session of {@code database}'s sessions waiting for a session in no transaction.
     *
     * @param anySession a session of the database, for its transaction manager and its list of sessions
     * @return how many waits were ended
     */
    static int release(Session anySession) {
        TransactionManager manager = anySession.getDatabase().txManager;
        if (WRITE_LOCK == null || !(manager instanceof TransactionManagerMVCC)) {
            return 0; // the lock-based modes take a lock and enter the waiter in one step under the manager's lock
        }
        Lock lock = writeLock(manager);
        int released = 0;
        lock.lock();
        try {
            for (Session waiter : anySession.getDatabase().sessionManager.getAllSessions()) {
                released += releaseStale(waiter);
            }
        } finally {
            lock.unlock();
        }
        return released;
    }

    /** Called under the transaction manager's lock: the sets and flags read here change only under it. */
    private static int releaseStale(Session waiter) {
        int released = 0;
        for (int i = waiter.waitedSessions.size() - 1; i >= 0; i--) {
            Session holder = waiter.waitedSessions.get(i);
            if (!holder.isInMidTransaction() && !isBeginningTransaction(holder)) {
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

    private static boolean isBeginningTransaction(Session session) {
        try {
            return PRE_TRANSACTION.getBoolean(session);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("made accessible above", e);
        }
    }

    private static Lock writeLock(TransactionManager manager) {
        try {
            return (Lock) WRITE_LOCK.get(manager);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("made accessible above", e);
        }
    }
}
