package io.macrodb.tpcw.browser;

import io.macrodb.bench.Mix;
import io.macrodb.bench.TransactionType;
import io.macrodb.bench.WorkloadClient;
import io.macrodb.tpcw.TpcwRandom;
import io.macrodb.tpcw.interaction.Interaction;
import io.macrodb.tpcw.interaction.Page;
import io.macrodb.tpcw.interaction.Store;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.SplittableRandom;

/**
 * One TPC-W emulated browser (clause 5): a harness client that chooses its own next interaction from the
 * transition table of the mix being run, runs it on its connection, and carries its session from page to page.
 *
 * <p>The harness asks {@link #next} for the interaction, sets the read-only flag, calls {@link #execute},
 * commits (retrying on a retryable SQLState, which calls {@code execute} again with fresh inputs from the same
 * session state), then reports {@link #committed}: only then does the browser move to the page it loaded. Think
 * time, when on, is the harness's (negative exponential, mean 7 s, at most 70 s: {@link Interaction#meanThinkTime}).
 */
public final class EmulatedBrowser implements WorkloadClient {

    private Connection connection;
    private final Store store;
    private final TpcwRandom random;
    private final Clock clock;
    private BrowserSession session;
    private Interaction attempted;
    private Page loaded;

    public EmulatedBrowser(Connection connection, Store store, SplittableRandom random) {
        this.connection = connection;
        this.store = store;
        this.random = new TpcwRandom(random);
        this.clock = store.clock();
        this.session = BrowserSession.start(store, this.random, clock.instant());
    }

    /**
     * The next interaction by the transition table of {@code mix} (one of {@link TpcwMix}'s); the first of a
     * session is Home, and a transition to Home after the session's minimum duration starts a new session.
     */
    @Override
    public TransactionType next(Mix mix, SplittableRandom ignored) {
        return next(TpcwMix.of(mix.name()));
    }

    /** As {@link #next(Mix, SplittableRandom)}, for a TPC-W mix. */
    public Interaction next(TpcwMix mix) {
        if (session.page().isEmpty()) {
            return Interaction.HOME;
        }
        Interaction next = mix.table().next(session.page().get(), random.uniform(1, TransitionTable.MAX));
        if (next == Interaction.HOME && session.expired(clock.instant())) {
            session = BrowserSession.start(store, random, clock.instant());
        }
        return next;
    }

    @Override
    public void execute(TransactionType type) throws SQLException {
        if (!(type instanceof Interaction interaction)) {
            throw new IllegalArgumentException("not a TPC-W interaction: " + type.displayName());
        }
        loaded = null;
        attempted = interaction;
        loaded = interaction.work().run(connection, session.visit(store, random));
    }

    @Override
    public void committed(TransactionType type) {
        if (type != attempted || loaded == null) {
            throw new IllegalStateException("committed " + type.displayName() + " but the last attempt was "
                    + (attempted == null ? "none" : attempted.displayName()));
        }
        session.adopt(attempted, loaded);
        loaded = null;
    }

    /** The session (its page, customer and cart) goes on over {@code replacement}; interactions prepare per call. */
    @Override
    public void reconnect(Connection replacement) {
        connection = replacement;
    }

    @Override
    public void close() {
        // Statements are closed by each interaction; the harness closes the connection.
    }
}
