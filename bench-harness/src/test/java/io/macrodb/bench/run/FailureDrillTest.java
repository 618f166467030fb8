package io.macrodb.bench.run;

import io.macrodb.bench.cli.UsageException;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FailureDrillTest {

    @Test
    void parsesReplicaAndTime() throws Exception {
        assertEquals(new FailureDrill(1, Duration.ofSeconds(5)), FailureDrill.parse("fail-replica", "1@5s"));
        assertEquals(new FailureDrill(0, Duration.ofMillis(500)), FailureDrill.parse("fail-replica", "0@500ms"));
        assertNull(FailureDrill.parse("fail-replica", null));
    }

    @Test
    void refusesWhatIsNotReplicaAtTime() {
        for (String bad : new String[]{"5s", "@5s", "x@5s", "1@soon", "-1@5s"}) {
            Exception e = assertThrows(Exception.class, () -> FailureDrill.parse("fail-replica", bad), bad);
            assertTrue(e instanceof UsageException || e instanceof IllegalArgumentException, bad + ": " + e);
            assertTrue(e.getMessage().contains("replica") || e.getMessage().contains("duration"), e.getMessage());
        }
    }

    @Test
    void aDrillMustFallInsideTheMeasuredWindow() {
        var e = assertThrows(IllegalArgumentException.class, () -> new RunConfig(
                io.macrodb.bench.targets.Presets.resolveAll("macrodb-h2-r2"), java.util.List.of(1),
                new ToyWorkload().mixes(), 1, Duration.ZERO,
                Duration.ofSeconds(10), 1, null, ThinkTimes.NONE, RetryPolicy.standard(), java.nio.file.Path.of("x"),
                LoadPolicy.TRIAL, new FailureDrill(1, Duration.ofSeconds(10))));
        assertTrue(e.getMessage().contains("outside"), e.getMessage());
    }

    /** A priming trial is all warm-up (at least a second) and fails no replica. */
    @Test
    void aPrimingTrialRunsTheWarmUpWithNoDrill() {
        var config = new RunConfig(io.macrodb.bench.targets.Presets.resolveAll("macrodb-h2-r2"), java.util.List.of(1),
                new ToyWorkload().mixes(), 1, Duration.ofSeconds(5), Duration.ofSeconds(10), 1, null, ThinkTimes.NONE,
                RetryPolicy.standard(), java.nio.file.Path.of("x"), LoadPolicy.TRIAL,
                new FailureDrill(1, Duration.ofSeconds(5)));
        RunConfig priming = config.forPriming();
        assertNull(priming.drill());
        assertEquals(Duration.ZERO, priming.warmup());
        assertEquals(Duration.ofSeconds(5), priming.duration());
        assertEquals(config.targets(), priming.targets());
        assertEquals(Duration.ofSeconds(1), new RunConfig(config.targets(), config.clients(), config.mixes(), 1,
                Duration.ZERO, Duration.ofSeconds(10), 1, null, ThinkTimes.NONE, RetryPolicy.standard(),
                java.nio.file.Path.of("x")).forPriming().duration());
    }
}
