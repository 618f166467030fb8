package io.macrodb.tpcc;

import io.macrodb.bench.cli.BenchRunner;
import io.macrodb.bench.cli.CommandLine;
import io.macrodb.bench.cli.HarnessOptions;
import io.macrodb.bench.cli.Option;
import io.macrodb.bench.cli.UsageException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The TPC-C comparison command. With no arguments it runs the quick default comparison (about two minutes on two
 * cores): H2 alone, MacroDB over H2 with 2 replicas, HSQLDB alone, MacroDB over HSQLDB with 2 replicas; one
 * warehouse, 4 clients, the 80-20 mix, 5 s warm-up and 10 s measured per trial, one repetition; then prints the
 * tables and writes CSV, JSON and charts.
 */
public final class TpccMain {

    static final String DEFAULT_TARGETS = "h2,macrodb-h2-r2,hsqldb,macrodb-hsqldb-r2";
    static final String DEFAULT_MIX = "80-20";
    static final String DEFAULT_DURATION = "10s";

    static final Option WAREHOUSES = new Option("warehouses", "W", "1",
            "TPC-C warehouses (W); ITEM is fixed at 100,000 rows, each warehouse adds about 500,000 rows");
    static final Option SCALE = new Option("scale", "spec|small", "spec",
            "spec: TPC-C cardinalities; small: NOT TPC-C, 1,000 items and 30 customers per district, for smoke "
                    + "tests only");

    private TpccMain() {
    }

    static CommandLine commandLine() {
        var options = new ArrayList<Option>();
        for (Option o : HarnessOptions.all()) {
            if (o.equals(HarnessOptions.TARGETS)) {
                options.add(o.withDefault(DEFAULT_TARGETS));
            } else if (o.equals(HarnessOptions.DURATION)) {
                options.add(o.withDefault(DEFAULT_DURATION));
            } else if (o.equals(HarnessOptions.MIX)) {
                options.add(new Option(o.name(), o.valueName(), DEFAULT_MIX,
                        "comma-separated mixes: standard (NewOrder 45, Payment 43, OrderStatus 4, Delivery 4, "
                                + "StockLevel 4), 50-50, 80-20, 100-0 (read share split equally between OrderStatus "
                                + "and StockLevel, write share in the standard's 45:43:4)"));
            } else {
                options.add(o);
            }
        }
        options.add(1, WAREHOUSES);
        options.add(2, SCALE);
        return new CommandLine("java -jar tpcc-bench/target/tpcc-bench.jar [options]",
                "TPC-C (spec rev 5.11) on H2 and HSQLDB alone and through MacroDB, side by side. Each target loads a "
                        + "fresh database per trial; targets are interleaved; every run ends with TPC-C's consistency "
                        + "conditions on every replica and MacroDB's replica verification.",
                List.copyOf(options));
    }

    /** Runs the command; returns the exit status (0 ok, 1 failed run, 2 bad command line). */
    public static int run(String... args) throws IOException {
        return BenchRunner.main(commandLine(), args, TpccMain::workload, System.out, System.err);
    }

    static TpccWorkload workload(CommandLine.Values values) throws UsageException {
        int w = values.getInt(WAREHOUSES.name());
        if (w < 1) {
            throw new UsageException("--warehouses must be at least 1, got " + w);
        }
        TpccScale scale = switch (values.get(SCALE.name())) {
            case "spec" -> TpccScale.spec(w);
            case "small" -> TpccScale.small(w);
            default -> throw new UsageException("--scale must be spec or small, got '" + values.get(SCALE.name())
                    + "'");
        };
        return new TpccWorkload(scale);
    }

    public static void main(String[] args) throws IOException {
        System.exit(run(args));
    }
}
