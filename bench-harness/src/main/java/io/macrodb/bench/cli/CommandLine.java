package io.macrodb.bench.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A small parser for {@code --name value} and {@code --name=value} options, plus {@code --help}. Unknown options
 * are refused; nothing is guessed.
 */
public final class CommandLine {

    private static final Pattern DURATION = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(ms|s|m|min|h)?");

    private final String usage;
    private final String description;
    private final Map<String, Option> options = new LinkedHashMap<>();

    /** Parses {@code text} as a duration for option {@code --name}: {@code 30s}, {@code 2m}, {@code 500ms}, 5. */
    public static Duration parseDuration(String name, String text) throws UsageException {
        String v = text.trim().toLowerCase(Locale.ROOT);
        var m = DURATION.matcher(v);
        if (!m.matches()) {
            throw new UsageException("--" + name + " needs a duration such as 30s, 2m or 500ms, got '" + v + "'");
        }
        double n = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        double millis = switch (unit) {
            case "ms" -> n;
            case "s" -> n * 1000;
            case "m", "min" -> n * 60_000;
            case "h" -> n * 3_600_000;
            default -> throw new UsageException("--" + name + ": unknown unit " + unit);
        };
        return Duration.ofMillis(Math.round(millis));
    }

    public CommandLine(String usage, String description, List<Option> options) {
        this.usage = usage;
        this.description = description;
        for (Option o : options) {
            if (this.options.put(o.name(), o) != null) {
                throw new IllegalArgumentException("option --" + o.name() + " declared twice");
            }
        }
    }

    /** The parsed values: given ones, else defaults. */
    public final class Values {
        private final Map<String, String> given;
        private final boolean help;

        private Values(Map<String, String> given, boolean help) {
            this.given = given;
            this.help = help;
        }

        public boolean helpRequested() {
            return help;
        }

        /** The option's value, or its default; throws if neither exists. */
        public String get(String name) throws UsageException {
            Option o = option(name);
            String v = given.getOrDefault(name, o.defaultValue());
            if (v == null) {
                throw new UsageException("--" + name + " is required");
            }
            return v;
        }

        /** The option's value or default, or null when it has neither. */
        public String getOrNull(String name) {
            Option o = option(name);
            return given.getOrDefault(name, o.defaultValue());
        }

        public int getInt(String name) throws UsageException {
            String v = get(name);
            try {
                return Integer.parseInt(v.trim());
            } catch (NumberFormatException e) {
                throw new UsageException("--" + name + " needs a whole number, got '" + v + "'");
            }
        }

        public long getLong(String name) throws UsageException {
            String v = get(name);
            try {
                return Long.parseLong(v.trim());
            } catch (NumberFormatException e) {
                throw new UsageException("--" + name + " needs a whole number, got '" + v + "'");
            }
        }

        /** A comma-separated list of whole numbers, e.g. {@code 1,2,4,8}. */
        public List<Integer> getIntList(String name) throws UsageException {
            var out = new ArrayList<Integer>();
            for (String s : get(name).split(",")) {
                if (s.isBlank()) {
                    continue;
                }
                int value;
                try {
                    value = Integer.parseInt(s.trim());
                } catch (NumberFormatException e) {
                    throw new UsageException("--" + name + " needs comma-separated whole numbers, got '"
                            + get(name) + "'");
                }
                addOnce(name, out, value);
            }
            if (out.isEmpty()) {
                throw new UsageException("--" + name + " is empty");
            }
            return out;
        }

        /** A comma-separated list of words. */
        public List<String> getList(String name) throws UsageException {
            var out = new ArrayList<String>();
            for (String s : get(name).split(",")) {
                if (!s.isBlank()) {
                    addOnce(name, out, s.trim());
                }
            }
            if (out.isEmpty()) {
                throw new UsageException("--" + name + " is empty");
            }
            return out;
        }

        /** A list entry given twice would run twice and be reported as two results under one label. */
        private static <T> void addOnce(String name, List<T> list, T value) throws UsageException {
            if (list.contains(value)) {
                throw new UsageException("--" + name + " lists " + value + " twice; give each value once");
            }
            list.add(value);
        }

        /** A duration such as {@code 30s}, {@code 2m}, {@code 500ms}; a bare number means seconds. */
        public Duration getDuration(String name) throws UsageException {
            return parseDuration(name, get(name));
        }

        private Option option(String name) {
            Option o = options.get(name);
            if (o == null) {
                throw new IllegalArgumentException("no option --" + name + " is declared");
            }
            return o;
        }
    }

    public Values parse(String... args) throws UsageException {
        var given = new LinkedHashMap<String, String>();
        boolean help = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) {
                help = true;
                continue;
            }
            if (!a.startsWith("--")) {
                throw new UsageException("unexpected argument '" + a + "'; options start with -- (see --help)");
            }
            String name = a.substring(2);
            String value = null;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            if (!options.containsKey(name)) {
                throw new UsageException("unknown option --" + name + " (see --help)");
            }
            if (value == null) {
                if (i + 1 >= args.length) {
                    throw new UsageException("--" + name + " needs a value: " + options.get(name).valueName());
                }
                value = args[++i];
            }
            if (given.put(name, value) != null) {
                throw new UsageException("--" + name + " given twice");
            }
        }
        return new Values(given, help);
    }

    public String help() {
        var sb = new StringBuilder("Usage: ").append(usage).append("\n\n").append(description).append("\n\nOptions:\n");
        int width = 0;
        for (Option o : options.values()) {
            width = Math.max(width, o.name().length() + o.valueName().length() + 3);
        }
        for (Option o : options.values()) {
            String left = "--" + o.name() + " " + o.valueName();
            sb.append("  ").append(left).append(" ".repeat(width - left.length() + 2));
            String text = o.description() + (o.defaultValue() == null ? "" : " [default: " + o.defaultValue() + "]");
            sb.append(wrap(text, width + 4)).append('\n');
        }
        sb.append("  --help").append(" ".repeat(width - 6 + 2)).append("print this help and exit\n");
        return sb.toString();
    }

    private static String wrap(String text, int indent) {
        int max = Math.max(40, 110 - indent);
        var sb = new StringBuilder();
        int col = 0;
        for (String word : text.split(" ")) {
            if (col > 0 && col + 1 + word.length() > max) {
                sb.append('\n').append(" ".repeat(indent));
                col = 0;
            } else if (col > 0) {
                sb.append(' ');
                col++;
            }
            sb.append(word);
            col += word.length();
        }
        return sb.toString();
    }
}
