package io.macrodb.bench.cli;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CommandLineTest {

    private final CommandLine cli = new CommandLine("bench", "A test.", HarnessOptions.all());

    @Test
    void parsesBothFormsAndFallsBackToDefaults() throws Exception {
        var v = cli.parse("--clients", "1,2, 4", "--duration=2m", "--warmup", "500ms");
        assertEquals(List.of(1, 2, 4), v.getIntList("clients"));
        assertEquals(Duration.ofMinutes(2), v.getDuration("duration"));
        assertEquals(Duration.ofMillis(500), v.getDuration("warmup"));
        assertEquals(42, v.getLong("seed"));
        assertNull(v.getOrNull("baseline"));
        assertEquals(Duration.ofSeconds(3), cli.parse("--warmup", "3").getDuration("warmup"));
    }

    @Test
    void refusesUnknownOptionsMissingValuesAndBadNumbers() {
        assertThrows(UsageException.class, () -> cli.parse("--clientz", "4"));
        assertThrows(UsageException.class, () -> cli.parse("--clients"));
        assertThrows(UsageException.class, () -> cli.parse("stray"));
        assertThrows(UsageException.class, () -> cli.parse("--clients", "4", "--clients", "5"));
        assertThrows(UsageException.class, () -> cli.parse("--clients", "four").getIntList("clients"));
        assertThrows(UsageException.class, () -> cli.parse("--clients", "1,4,4").getIntList("clients"));
        assertThrows(UsageException.class, () -> cli.parse("--mix", "standard,standard").getList("mix"));
        assertThrows(UsageException.class, () -> cli.parse("--duration", "soon").getDuration("duration"));
        assertThrows(UsageException.class, () -> cli.parse().get("targets"));
    }

    @Test
    void helpListsEveryOptionWithItsDefault() throws Exception {
        assertTrue(cli.parse("--help").helpRequested());
        String help = cli.help();
        for (Option o : HarnessOptions.all()) {
            assertTrue(help.contains("--" + o.name()), o.name());
        }
        assertTrue(help.contains("[default: 15s]"), help);
    }
}
