package io.macrodb.e2e;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * For tests whose failure is a hang: their work runs on daemon threads and is waited for with a time limit, so that a
 * hang fails the test instead of the build, and their connections are closed on a thread of their own (when the test
 * fails, they are stuck in the hang it found).
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
}
