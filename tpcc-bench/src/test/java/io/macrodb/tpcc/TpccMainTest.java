package io.macrodb.tpcc;

import io.macrodb.bench.cli.BenchRunner;
import io.macrodb.bench.cli.Option;
import io.macrodb.bench.cli.HarnessOptions;
import io.macrodb.bench.targets.Engine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The command line, and a short end-to-end comparison through MacroDB (bare engines only while no MacroDB driver
 * is on the class path) that must produce the table, CSV, JSON and charts.
 */
class TpccMainTest {

    @TempDir
    Path dir;

    @Test
    void helpNamesEveryOptionAndTheQuickDefaults() throws Exception {
        var out = new ByteArrayOutputStream();
        int status = BenchRunner.main(TpccMain.commandLine(), new String[]{"--help"}, TpccMain::workload,
                new PrintStream(out, true, StandardCharsets.UTF_8), null);
        assertEquals(BenchRunner.OK, status);
        String help = out.toString(StandardCharsets.UTF_8);
        for (Option o : HarnessOptions.all()) {
            assertTrue(help.contains("--" + o.name()), o.name());
        }
        assertTrue(help.contains("--warehouses") && help.contains("--scale"), help);
        assertTrue(help.contains("[default: " + TpccMain.DEFAULT_TARGETS + "]"), help);
        assertTrue(help.contains("[default: 80-20]"), help);
    }

    @Test
    void refusesBadCommandLines() throws Exception {
        for (String[] args : List.of(new String[]{"--wharehouses", "2"}, new String[]{"--scale", "huge"},
                new String[]{"--mix", "90-10"}, new String[]{"--targets", "oracle"},
                new String[]{"--baseline", "hsqldb", "--targets", "h2"}, new String[]{"--warehouses", "0"})) {
            assertEquals(BenchRunner.USAGE, BenchRunner.main(TpccMain.commandLine(), args, TpccMain::workload,
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), null), List.of(args)
                    .toString());
        }
    }

    @Test
    void endToEndComparisonThroughMacroDbWritesTableCsvJsonAndCharts() throws Exception {
        boolean macro = TestTargets.macroDbAvailable();
        String targets = macro ? "h2,macrodb-h2-r2,hsqldb-mvcc,macrodb-hsqldb-mvcc-r2" : "h2,hsqldb-mvcc";
        var out = new ByteArrayOutputStream();
        int status = BenchRunner.main(TpccMain.commandLine(), new String[]{"--targets", targets, "--scale", "small",
            "--clients", "2", "--mix", "50-50", "--warmup", "300ms", "--duration", "1500ms", "--out", dir.toString()},
                TpccMain::workload, new PrintStream(out, true, StandardCharsets.UTF_8), null);
        String printed = out.toString(StandardCharsets.UTF_8);
        assertEquals(BenchRunner.OK, status, printed);

        assertTrue(printed.contains("== tpcc, mix 50-50 =="), printed);
        assertTrue(printed.contains("tpmC") && printed.contains("vs h2"), printed);
        assertTrue(printed.contains("H2 " + Engine.H2.version()), printed);
        for (String f : List.of("summary.txt", "trials.csv", "summary.csv", "results.json", "throughput-50-50.png",
                "memory.png")) {
            assertTrue(Files.size(dir.resolve(f)) > 100, f);
        }
        List<String> summary = Files.readAllLines(dir.resolve("summary.csv"));
        for (String t : targets.split(",")) {
            assertTrue(summary.stream().anyMatch(l -> l.startsWith("50-50," + t + ",2,1,TOTAL,")), t + " in " + summary);
        }
        String json = Files.readString(dir.resolve("results.json"));
        assertTrue(json.contains("\"status\": \"passed\""));
        if (macro) {
            assertTrue(json.contains("\"copiesChecked\": 2"), "consistency checked on both replicas");
            assertTrue(printed.contains("MacroDB replicas identical"), printed);
        }
    }
}
