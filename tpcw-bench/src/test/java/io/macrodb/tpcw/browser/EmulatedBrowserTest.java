package io.macrodb.tpcw.browser;

import io.macrodb.bench.ClientContext;
import io.macrodb.bench.ConsistencyCheck;
import io.macrodb.bench.TransactionType;
import io.macrodb.bench.WorkloadClient;
import io.macrodb.bench.targets.Database;
import io.macrodb.tpcw.TinyDatabase;
import io.macrodb.tpcw.TpcwWorkload;
import io.macrodb.tpcw.interaction.Interaction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Browsers walk through their sessions on a real database, the way the harness's worker drives them (next,
 * read-only flag, execute, commit, committed), taking turns on one thread: every interaction of every mix
 * occurs, each finds the state its page needs (one browser's connection replaced now and then), and the database
 * passes the checks afterwards.
 */
class EmulatedBrowserTest {

    private static final int BROWSERS = 3;
    private static final int STEPS = 600;

    @ParameterizedTest
    @ValueSource(strings = {"h2", "hsqldb"})
    void browsersWalkEveryMixAndLeaveTheDatabaseConsistent(String target) throws Exception {
        Database database = TinyDatabase.load(target);
        var workload = new TpcwWorkload(TinyDatabase.SCALE, TinyDatabase.SEED);
        var seen = new EnumMap<Interaction, Integer>(Interaction.class);
        try {
            for (TpcwMix mix : TpcwMix.values()) {
                var connections = new ArrayList<Connection>();
                var browsers = new ArrayList<WorkloadClient>();
                for (int i = 0; i < BROWSERS; i++) {
                    Connection c = database.connect();
                    connections.add(c);
                    browsers.add(workload.newClient(new ClientContext(i, BROWSERS, c, new SplittableRandom(i)), 1));
                }
                for (int step = 0; step < STEPS; step++) {
                    if (step % 100 == 99) {
                        // The first browser's connection breaks: it goes on over a new one, its session and cart kept.
                        connections.get(0).close();
                        connections.set(0, database.connect());
                        browsers.get(0).reconnect(connections.get(0));
                    }
                    for (int i = 0; i < BROWSERS; i++) {
                        TransactionType type = browsers.get(i).next(mix.harnessMix(), null);
                        seen.merge((Interaction) type, 1, Integer::sum);
                        runLikeTheHarness(connections.get(i), browsers.get(i), type);
                    }
                }
                for (Connection c : connections) {
                    c.close();
                }
            }
            for (Interaction i : Interaction.values()) {
                assertTrue(seen.getOrDefault(i, 0) > 0, i + " never ran: " + seen);
            }
            try (Connection c = database.connect()) {
                List<String> violations = new ArrayList<>();
                for (ConsistencyCheck check : workload.consistencyChecks()) {
                    violations.addAll(check.violations(c));
                }
                c.rollback();
                assertEquals(List.of(), violations);
            }
        } finally {
            database.shutdown();
        }
    }

    private static void runLikeTheHarness(Connection c, WorkloadClient browser, TransactionType type)
            throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                c.setReadOnly(type.readOnly());
                browser.execute(type);
                c.commit();
                c.setReadOnly(false);
                browser.committed(type);
                return;
            } catch (SQLException e) {
                c.rollback();
                c.setReadOnly(false);
                if (attempt == 3) {
                    throw e;
                }
            }
        }
    }
}
