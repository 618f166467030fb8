package io.macrodb.bench.run;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * Retained heap: used heap right after full collections, so that what is left is what something still references.
 * Taken as the smallest of a few readings, each after {@code System.gc()} and a short pause, which irons out
 * allocation by background threads. Meaningful only while no client runs.
 */
public final class HeapMeter {

    private static final int ROUNDS = 4;
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    private HeapMeter() {
    }

    /** Used heap in bytes after garbage collection. */
    public static long retainedHeapBytes() {
        long least = Long.MAX_VALUE;
        for (int i = 0; i < ROUNDS; i++) {
            System.gc();
            try {
                Thread.sleep(60);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            least = Math.min(least, MEMORY.getHeapMemoryUsage().getUsed());
        }
        return least;
    }
}
