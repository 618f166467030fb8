package io.macrodb.runtime.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** JVM exit does not wait for good for a cluster whose engine's shutdown blocks. */
class ClusterRegistryExitTest {

    @Test
    @Timeout(10) // without the limit the call never returns
    void aShutdownThatNeverReturnsIsLeftAfterTheLimit() throws InterruptedException {
        CountDownLatch never = new CountDownLatch(1);
        long start = System.nanoTime();
        boolean finished = ClusterRegistry.shutDownWithin("a blocked cluster", () -> {
            try {
                never.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, 200);
        assertFalse(finished);
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "returned after the limit, not later");
        never.countDown();
    }

    @Test
    void aShutdownThatReturnsIsWaitedFor() {
        boolean[] ran = new boolean[1];
        assertTrue(ClusterRegistry.shutDownWithin("a cluster", () -> ran[0] = true, 5_000));
        assertTrue(ran[0]);
    }
}
