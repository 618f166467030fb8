package io.macrodb.tpcw.interaction;

import io.macrodb.tpcw.TpcwScale;

import java.time.Clock;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;

/**
 * The bookstore as one emulated browser sees it: the database's scale, the browser's own key allocator for the
 * rows it creates, and the clock that stamps them. Timestamps are computed here and bound as parameters (never
 * {@code CURRENT_TIMESTAMP} in the SQL), so the statements are the same on both engines.
 */
public record Store(TpcwScale scale, IdAllocator ids, Clock clock) {

    /** The current time, to the second, as stored in TIMESTAMP columns. */
    public LocalDateTime now() {
        return LocalDateTime.now(clock).truncatedTo(ChronoUnit.SECONDS);
    }
}
