package io.macrodb.bench.run;

import io.macrodb.bench.LoadProgress;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Draws a status line that keeps changing: on a terminal it is redrawn in place ({@code \r}) at most 5 times a
 * second; otherwise (a log file, a test) it prints a new line at most every 5 seconds. {@link #finish} always
 * prints the final state on its own line.
 */
public final class ProgressPrinter {

    private static final long TERMINAL_INTERVAL = 200_000_000L;
    private static final long LOG_INTERVAL = 5_000_000_000L;

    private final PrintStream sink;
    private final boolean terminal;
    private long lastPrint;
    private int lastLength;

    /** @param sink where to draw; null draws nothing */
    public ProgressPrinter(PrintStream sink) {
        this(sink, System.console() != null);
    }

    ProgressPrinter(PrintStream sink, boolean terminal) {
        this.sink = sink;
        this.terminal = terminal;
        this.lastPrint = System.nanoTime() - LOG_INTERVAL;
    }

    /** Shows {@code line} if enough time passed since the last one. */
    public synchronized void update(String line) {
        long now = System.nanoTime();
        if (sink == null || now - lastPrint < (terminal ? TERMINAL_INTERVAL : LOG_INTERVAL)) {
            return;
        }
        lastPrint = now;
        draw(line);
    }

    /** Shows {@code line} and ends it. */
    public synchronized void finish(String line) {
        if (sink == null) {
            return;
        }
        draw(line);
        if (terminal) {
            sink.println();
        }
        lastLength = 0;
        lastPrint = System.nanoTime() - LOG_INTERVAL;
    }

    private void draw(String line) {
        if (terminal) {
            String pad = line.length() < lastLength ? " ".repeat(lastLength - line.length()) : "";
            sink.print("\r" + line + pad);
            lastLength = line.length();
        } else {
            sink.println(line);
        }
        sink.flush();
    }

    /** A loader's progress bar, {@code label [#####-----] 52% 312,000/600,000 rows 2.1 s}. */
    public LoadProgress loadBar(String label) {
        long start = System.nanoTime();
        return new LoadProgress() {
            private long total;
            private long done;

            @Override
            public void expect(long totalRows) {
                total = totalRows;
                update(render());
            }

            @Override
            public void advance(long rows) {
                done += rows;
                update(render());
            }

            private String render() {
                double fraction = total <= 0 ? 0 : Math.min(1.0, (double) done / total);
                int width = 30;
                int filled = (int) Math.round(fraction * width);
                return String.format(Locale.ROOT, "%s [%s%s] %3d%% %,d/%,d rows %.1f s", label,
                        "#".repeat(filled), "-".repeat(width - filled), Math.round(fraction * 100), done, total,
                        (System.nanoTime() - start) / 1e9);
            }

            @Override
            public String toString() {
                return render();
            }
        };
    }
}
