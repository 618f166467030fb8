package io.macrodb.tpcw;

import io.macrodb.bench.cli.BenchRunner;
import io.macrodb.bench.cli.CommandLine;
import io.macrodb.bench.cli.HarnessOptions;
import io.macrodb.bench.cli.Option;
import io.macrodb.bench.cli.UsageException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;

/**
 * The TPC-W command line: {@code java -jar tpcw-bench.jar --targets h2,macrodb-h2-r3 --clients 128 ...}.
 * The harness's shared options (targets, clients, mixes, timing, repetitions, output) plus the database size.
 */
public final class TpcwMain {

    static final Option ITEMS = new Option("items", "N", "10000",
            "ITEM rows, the TPC-W scale factor (1000, 10000, 100000, ...); authors are a quarter of it");
    static final Option DB_BROWSERS = new Option("db-browsers", "N", null,
            "the emulated browsers the database is built for: 2880 customers each, 2 addresses per customer, "
                    + "0.9 orders per customer [default: the largest --clients value, as the spec sizes it]");
    /** The harness's --clients, described as what it is in TPC-W. */
    static final Option CLIENTS = new Option(HarnessOptions.CLIENTS.name(), "LIST", "128",
            "emulated browsers (EBs), comma-separated, e.g. 32,128; each count is a separate trial");

    private static final String USAGE = "java -jar tpcw-bench.jar [options]";
    private static final String DESCRIPTION = """
            TPC-W (an online bookstore) on engines alone and through MacroDB, side by side. Emulated browsers
            move between the 14 web interactions by the transition table of the chosen mix (browsing 95/5,
            shopping 80/20, ordering 50/50 browse/order interactions); interactions that only read run as
            read-only transactions. Throughput is in web interactions per second (WIPS = tx/s below). The
            defaults are the MacroDB paper's Figure 8 (H2 alone vs 3 H2 replicas, 128 browsers, no think time,
            browsing and shopping mixes); choose the database size with --items and --db-browsers.""";

    private TpcwMain() {
    }

    public static void main(String[] args) throws IOException {
        System.exit(run(args));
    }

    /** Parses, runs and reports; returns the exit status (0 ok, 1 failed run, 2 bad command line). */
    static int run(String[] args) throws IOException {
        return BenchRunner.main(commandLine(), args, TpcwMain::workload, System.out, System.err);
    }

    static CommandLine commandLine() {
        var options = new ArrayList<Option>();
        for (Option o : HarnessOptions.all()) {
            options.add(switch (o.name()) {
                case "targets" -> o.withDefault("h2,macrodb-h2-r3");
                case "mix" -> o.withDefault("browsing,shopping");
                case "clients" -> CLIENTS;
                default -> o;
            });
        }
        options.add(ITEMS);
        options.add(DB_BROWSERS);
        return new CommandLine(USAGE, DESCRIPTION, options);
    }

    static TpcwWorkload workload(CommandLine.Values values) throws UsageException {
        int items = values.getInt(ITEMS.name());
        int browsers = values.getOrNull(DB_BROWSERS.name()) == null
                ? Collections.max(values.getIntList(CLIENTS.name()))
                : values.getInt(DB_BROWSERS.name());
        try {
            return new TpcwWorkload(TpcwScale.of(items, browsers), values.getLong(HarnessOptions.SEED.name()));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
