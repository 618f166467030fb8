package io.macrodb.bench.targets;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Named targets, so that a comparison is one short command line.
 *
 * <table>
 *   <tr><th>preset</th><th>URL template</th></tr>
 *   <tr><td>{@code h2}</td><td>{@code jdbc:h2:mem:{db};DB_CLOSE_DELAY=-1}</td></tr>
 *   <tr><td>{@code hsqldb}</td><td>{@code jdbc:hsqldb:mem:{db}} (default LOCKS transaction model)</td></tr>
 *   <tr><td>{@code hsqldb-mvcc}</td><td>{@code jdbc:hsqldb:mem:{db};hsqldb.tx=mvcc}</td></tr>
 *   <tr><td>{@code macrodb-<engine>-r<N>}</td><td>{@code jdbc:macrodb:} + the engine preset's URL +
 *       {@code ;macrodb.replicas=N}, for engine h2, hsqldb or hsqldb-mvcc</td></tr>
 * </table>
 * Anything else must be a JDBC URL ({@code jdbc:...}) or {@code name=jdbc:...}.
 */
public final class Presets {

    private static final Pattern MACRO = Pattern.compile("macrodb-(h2|hsqldb|hsqldb-mvcc)-r([1-9][0-9]*)");

    private Presets() {
    }

    /** The engine-alone presets, by name. */
    public static List<String> enginePresets() {
        return List.of("h2", "hsqldb", "hsqldb-mvcc");
    }

    /**
     * Resolves one target specification.
     *
     * @throws IllegalArgumentException naming the specification and what is allowed
     */
    public static Target resolve(String spec) {
        String s = spec.trim();
        int eq = s.indexOf('=');
        if (eq > 0 && s.substring(eq + 1).startsWith("jdbc:") && !s.startsWith("jdbc:")) {
            return new Target(s.substring(0, eq), s.substring(eq + 1));
        }
        if (s.startsWith("jdbc:")) {
            return new Target(s, s);
        }
        String engineUrl = engineUrl(s);
        if (engineUrl != null) {
            return new Target(s, "jdbc:" + engineUrl);
        }
        var m = MACRO.matcher(s);
        if (m.matches()) {
            return new Target(s, "jdbc:macrodb:" + engineUrl(m.group(1)) + ";macrodb.replicas=" + m.group(2));
        }
        throw new IllegalArgumentException("unknown target '" + spec + "'; use a preset (" + String.join(", ",
                enginePresets()) + ", macrodb-<h2|hsqldb|hsqldb-mvcc>-r<N>), a JDBC URL, or name=URL");
    }

    /**
     * The engine-alone preset a MacroDB preset runs over ({@code macrodb-hsqldb-r2} gives {@code hsqldb}); empty for
     * any other name. Reports use it to compare MacroDB with its own engine alone, as the paper does.
     */
    public static Optional<String> standaloneOf(String targetName) {
        var m = MACRO.matcher(targetName);
        return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
    }

    /** Resolves a comma-separated list ({@link io.macrodb.bench.run.RunConfig} refuses a name given twice). */
    public static List<Target> resolveAll(String commaList) {
        var targets = new ArrayList<Target>();
        for (String spec : commaList.split(",")) {
            if (!spec.isBlank()) {
                targets.add(resolve(spec));
            }
        }
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("no targets given");
        }
        return targets;
    }

    private static String engineUrl(String preset) {
        return switch (preset) {
            case "h2" -> "h2:mem:" + Target.DB + ";DB_CLOSE_DELAY=-1";
            case "hsqldb" -> "hsqldb:mem:" + Target.DB;
            case "hsqldb-mvcc" -> "hsqldb:mem:" + Target.DB + ";hsqldb.tx=mvcc";
            default -> null;
        };
    }
}
