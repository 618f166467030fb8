package io.macrodb.bench.run;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The clock every client of a trial shares: warm-up, then the measured window, then stop. A transaction counts
 * when it ends inside the window. Clients pause (think times) through {@link #pause}, which returns early at stop.
 */
final class MeasurementWindow {

    private volatile long measureStart = Long.MAX_VALUE;
    private volatile long measureEnd = Long.MAX_VALUE;
    private final CountDownLatch stop = new CountDownLatch(1);

    void beginMeasuring() {
        measureStart = System.nanoTime();
    }

    void endMeasuringAndStop() {
        measureEnd = System.nanoTime();
        stop.countDown();
    }

    /** Stops without measuring (a failure while starting up). */
    void abort() {
        stop.countDown();
    }

    boolean stopped() {
        return stop.getCount() == 0;
    }

    boolean measuring() {
        return measureStart != Long.MAX_VALUE && measureEnd == Long.MAX_VALUE;
    }

    /** Whether a transaction that ended at {@code endNanos} counts. */
    boolean counts(long endNanos) {
        return endNanos >= measureStart && endNanos < measureEnd;
    }

    double measuredSeconds() {
        return (measureEnd - measureStart) / 1e9;
    }

    /** Sleeps for {@code d}, or until stop; returns false if stopped. */
    boolean pause(Duration d) throws InterruptedException {
        if (d.isZero() || d.isNegative()) {
            return !stopped();
        }
        return !stop.await(d.toNanos(), TimeUnit.NANOSECONDS);
    }
}
