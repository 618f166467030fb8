package io.macrodb.bench.run;

import java.util.concurrent.atomic.LongAdder;

/** Counters every client bumps after each transaction, in every phase, read by the live progress line. */
final class LiveCounters {
    final LongAdder completed = new LongAdder();
    final LongAdder retries = new LongAdder();
    final LongAdder userAborts = new LongAdder();
    final LongAdder errors = new LongAdder();
}
