package io.macrodb.e2e;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * For tests whose failure is a hang: their work runs on daemon threads and is waited for with a time limit, so that a
 * hang fails the test instead of the build, and their connections are closed on a thread of their own (when the test
 * fails, they are stuck in the hang it found). Its dumps of threads and of HSQLDB's sessions go into a hang's failure
 * message, for its diagnosis.
 */
final class HangWatch {

    private final ExecutorService threads;
    private final List<Connection> opened = new ArrayList<>();

    HangWatch(String threadName) {
        threads = Executors.newCachedThreadPool(r -> {
            Thread thread = new Thread(r, threadName);
            thread.setDaemon(true);
            return thread;
        });
    }

    Connection open(String url) throws SQLException {
        Connection connection = Engine.connect(url);
        opened.add(connection);
        return connection;
    }

    <T> Future<T> start(Callable<T> work) {
        return threads.submit(work);
    }

    /** {@code work}'s result, on a thread of its own; a failure if it is not done within {@code seconds}. */
    <T> T within(long seconds, Callable<T> work) throws Exception {
        return within(start(work), seconds);
    }

    static <T> T within(Future<T> running, long seconds) throws Exception {
        try {
            return running.get(seconds, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } catch (TimeoutException e) {
            throw new AssertionError("hung: still waiting after " + seconds + " s", e);
        }
    }

    /** Closes the connections opened, waiting a few seconds at most. */
    void close() throws InterruptedException {
        threads.submit(() -> {
            for (Connection connection : opened) {
                connection.close();
            }
            return null;
        });
        threads.shutdown();
        threads.awaitTermination(5, TimeUnit.SECONDS);
    }

    /**
     * The stacks of the threads in MacroDB code now, for a hang's diagnosis, each with the monitor or lock it waits
     * for and the thread that holds it (which may be outside MacroDB's code: its stack follows too).
     */
    static String threadDump() {
        StringBuilder dump = new StringBuilder();
        ThreadInfo[] threads = ManagementFactory.getThreadMXBean().dumpAllThreads(true, true);
        Set<Long> owners = new HashSet<>();
        for (ThreadInfo thread : threads) {
            if (inMacroDb(thread)) {
                owners.add(thread.getLockOwnerId());
            }
        }
        for (ThreadInfo thread : threads) {
            if (inMacroDb(thread) || owners.contains(thread.getThreadId())) {
                dump.append(thread.getThreadName()).append(' ').append(thread.getThreadState());
                if (thread.getLockName() != null) {
                    dump.append(" on ").append(thread.getLockName()).append(" held by ")
                            .append(thread.getLockOwnerName());
                }
                Stream.of(thread.getLockedMonitors()).forEach(m -> dump.append(" holding ").append(m));
                dump.append('\n');
                Stream.of(thread.getStackTrace()).limit(40).forEach(f -> dump.append("    ").append(f).append('\n'));
            }
        }
        return dump.toString();
    }

    /**
     * Every session of every HSQLDB database still open: whether it is in a transaction, how many row actions it has,
     * whether it waits (its latch) and for which sessions, and its current statement; for a hang's diagnosis (which
     * transaction holds the lock a thread waits for). Read by reflection: HSQLDB has no public view of it.
     */
    static String hsqldbSessions() {
        StringBuilder out = new StringBuilder();
        try {
            java.lang.reflect.Field ids = org.hsqldb.DatabaseManager.class.getDeclaredField("databaseIDMap");
            ids.setAccessible(true);
            java.lang.reflect.Field inTransaction = org.hsqldb.Session.class.getDeclaredField("isTransaction");
            inTransaction.setAccessible(true);
            java.lang.reflect.Field actions = org.hsqldb.Session.class.getDeclaredField("rowActionList");
            actions.setAccessible(true);
            var databases = (org.hsqldb.lib.IntKeyHashMap<?>) ids.get(null);
            for (var values = databases.values().iterator(); values.hasNext(); ) {
                org.hsqldb.Database database = (org.hsqldb.Database) values.next();
                out.append(database.getURI()).append('\n');
                for (org.hsqldb.Session session : database.sessionManager.getAllSessions()) {
                    StringBuilder waitsFor = new StringBuilder();
                    for (int i = 0; i < session.waitedSessions.size(); i++) {
                        waitsFor.append(session.waitedSessions.get(i).getId()).append(' ');
                    }
                    org.hsqldb.Statement current = session.sessionContext == null ? null
                            : session.sessionContext.currentStatement;
                    out.append("  session ").append(session.getId()).append(session.isClosed() ? " closed" : "")
                            .append(" inTx=").append(inTransaction.get(session))
                            .append(" actions=").append(((org.hsqldb.lib.HsqlArrayList<?>) actions.get(session)).size())
                            .append(" latch=").append(session.latch.getCount()).append(" waitsFor=[").append(waitsFor)
                            .append("] ").append(current == null ? "" : current.getSQL()).append('\n');
                }
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            out.append("(HSQLDB sessions not readable: ").append(e).append(')');
        }
        return out.toString();
    }

    private static boolean inMacroDb(ThreadInfo thread) {
        return Stream.of(thread.getStackTrace()).anyMatch(f -> f.getClassName().startsWith("io.macrodb.runtime")
                || f.getClassName().startsWith("io.macrodb.jdbc"));
    }
}
