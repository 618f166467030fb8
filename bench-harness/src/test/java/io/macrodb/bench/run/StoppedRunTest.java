package io.macrodb.bench.run;

import io.macrodb.bench.cli.BenchRunner;
import io.macrodb.bench.targets.Presets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A comparison stopped from outside (Ctrl-C, {@code kill}, {@code timeout}) writes the report of the trials it
 * finished. Runs a toy comparison that would go on for hours in a child JVM, stops it with SIGTERM once two trials
 * are done, and reads the files it left.
 */
class StoppedRunTest {

    @TempDir
    Path dir;

    /** The child: a toy comparison of many short repetitions. */
    public static void main(String[] args) throws Exception {
        var w = new ToyWorkload();
        var config = new RunConfig(Presets.resolveAll("h2,hsqldb"), List.of(1), w.mixes(), 10_000,
                Duration.ofMillis(50), Duration.ofMillis(200), 7, "h2", ThinkTimes.NONE, RetryPolicy.standard(),
                Path.of(args[0]));
        System.exit(BenchRunner.run(w, config, System.out, null));
    }

    @Test
    void aStoppedRunWritesTheTrialsItFinished() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(java.toString(), "-Djava.awt.headless=true", "-cp",
                System.getProperty("java.class.path"), StoppedRunTest.class.getName(), dir.toString())
                .redirectErrorStream(true).start();
        var output = new StringBuilder();
        try (var lines = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            int trials = 0;
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                output.append(line).append('\n');
                if (line.contains(" tx/s, ") && ++trials == 2) {
                    child.toHandle().destroy(); // SIGTERM (the JVM runs its shutdown hooks); keeps our stream open
                }
            }
        } finally {
            child.destroyForcibly();
        }
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), output.toString());
        List<String> csv = Files.readAllLines(dir.resolve("trials.csv"));
        assertTrue(csv.size() > 1 + 4, "header and the finished trials' rows:\n" + csv + "\n" + output);
        String summary = Files.readString(dir.resolve("summary.txt"));
        assertTrue(summary.contains("interrupted: the process was stopped after"), summary);
        assertTrue(Files.size(dir.resolve("throughput-mostly-writes.png")) > 0);
    }
}
