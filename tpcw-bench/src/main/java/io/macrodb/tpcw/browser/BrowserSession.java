package io.macrodb.tpcw.browser;

import io.macrodb.tpcw.TpcwRandom;
import io.macrodb.tpcw.interaction.CartLine;
import io.macrodb.tpcw.interaction.Interaction;
import io.macrodb.tpcw.interaction.Page;
import io.macrodb.tpcw.interaction.Store;
import io.macrodb.tpcw.interaction.Visit;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One user session of an emulated browser (clause 5.3.1): the page it is on and what it has learnt there. A
 * session starts at Home, as a returning customer 80% of the time (C_ID by NURand, clause 5.3.1.2) or as an
 * anonymous visitor, and lasts at least its user session minimum duration (negative exponential, mean 15
 * minutes, at most 60; clause 6.1.9.2); once that has passed, the next transition to Home starts a new session.
 *
 * <p>State changes only through {@link #adopt}, which the browser calls after the interaction committed: a
 * failed or retried attempt leaves the session as it was.
 */
final class BrowserSession {

    private static final Duration MEAN_DURATION = Duration.ofMinutes(15);
    private static final Duration MAX_DURATION = Duration.ofMinutes(60);
    private static final int RETURNING_PERCENT = 80;

    private final Instant ends;
    private Optional<Interaction> page = Optional.empty();
    private OptionalInt customerId;
    private OptionalInt cartId = OptionalInt.empty();
    private OptionalInt itemId = OptionalInt.empty();
    private List<Integer> itemLinks = List.of();
    private List<CartLine> cartLines = List.of();
    private Optional<String> customerName = Optional.empty();

    private BrowserSession(Instant ends, OptionalInt customerId) {
        this.ends = ends;
        this.customerId = customerId;
    }

    /** A new session beginning at {@code now}. */
    static BrowserSession start(Store store, TpcwRandom random, Instant now) {
        OptionalInt customer = random.percent(RETURNING_PERCENT)
                ? OptionalInt.of(random.nuRand(store.scale().customerNuRandA(), 1, store.scale().customers()))
                : OptionalInt.empty();
        double u = 1.0 - random.nextDouble();
        long millis = (long) Math.min(-Math.log(u) * MEAN_DURATION.toMillis(), MAX_DURATION.toMillis());
        return new BrowserSession(now.plusMillis(millis), customer);
    }

    /** The page the browser is on; empty before the session's first interaction. */
    Optional<Interaction> page() {
        return page;
    }

    /** Whether the session has lasted its minimum duration, so that going Home starts a new one. */
    boolean expired(Instant now) {
        return !now.isBefore(ends);
    }

    /** What the browser brings to its next interaction. */
    Visit visit(Store store, TpcwRandom random) {
        return new Visit(store, random, page, customerId, cartId, itemLinks, itemId, cartLines, customerName);
    }

    /** The browser is now on {@code interaction}'s page, which showed {@code shown}. */
    void adopt(Interaction interaction, Page shown) {
        page = Optional.of(interaction);
        itemLinks = shown.itemLinks();
        itemId = shown.itemId();
        if (shown.customerId().isPresent()) {
            customerId = shown.customerId();
        }
        if (shown.cartId().isPresent()) {
            cartId = shown.cartId();
        }
        shown.cartLines().ifPresent(lines -> cartLines = lines);
        shown.customerName().ifPresent(name -> customerName = Optional.of(name));
    }
}
