package io.macrodb.tpcw;

import io.macrodb.bench.cli.UsageException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TpcwMainTest {

    @Test
    void helpListsTheSharedAndTheTpcwOptions() {
        String help = TpcwMain.commandLine().help();
        for (String option : new String[] {"--targets", "--clients", "--mix", "--warmup", "--duration",
                "--repetitions", "--think-time", "--items", "--db-browsers", "--help"}) {
            assertTrue(help.contains(option), option + " missing from:\n" + help);
        }
        assertTrue(help.contains("h2,macrodb-h2-r3"), "Figure 8's targets are the default");
    }

    @Test
    void theDatabaseIsBuiltForTheLargestBrowserCountUnlessTold() throws UsageException {
        var values = TpcwMain.commandLine().parse("--clients", "8,32", "--items", "1000");
        assertEquals(TpcwScale.of(1000, 32), TpcwMain.workload(values).scale());
        values = TpcwMain.commandLine().parse("--clients", "128", "--db-browsers", "2");
        assertEquals(TpcwScale.of(10_000, 2), TpcwMain.workload(values).scale());
    }

    @Test
    void mixesAndBadValuesAreCheckedUpFront() throws UsageException {
        var values = TpcwMain.commandLine().parse("--items", "5");
        assertThrows(UsageException.class, () -> TpcwMain.workload(values));
        assertThrows(UsageException.class, () -> TpcwMain.commandLine().parse("--bogus", "1"));
        var workload = TpcwMain.workload(TpcwMain.commandLine().parse());
        for (String mix : new String[] {"browsing", "shopping", "ordering"}) {
            assertEquals(mix, workload.mix(mix).name());
        }
    }
}
