package io.macrodb.bench.targets;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * One configuration under test: a name and a JDBC URL template whose {@value #DB} placeholder is replaced by a
 * fresh database name for every load, so no trial ever sees another's data.
 *
 * <p>Targets come from {@link Presets#resolve}: a preset name ({@code h2}, {@code macrodb-hsqldb-r2}, ...), a JDBC
 * URL, or {@code name=URL}. For a URL without the placeholder, an in-memory database name ({@code mem:NAME}) is
 * made fresh by appending a suffix; any other URL without the placeholder is refused, because reloading it would
 * find the previous trial's tables.
 */
public record Target(String name, String urlTemplate) {

    /** The placeholder for the database name in a URL template. */
    public static final String DB = "{db}";

    private static final Pattern MEM_NAME = Pattern.compile("(?i)(:mem:)([A-Za-z0-9_]+)");
    private static final AtomicLong FRESH = new AtomicLong();

    public Target {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(urlTemplate, "urlTemplate");
        if (!urlTemplate.contains(DB)) {
            var m = MEM_NAME.matcher(urlTemplate);
            if (!m.find()) {
                throw new IllegalArgumentException("target " + name + ": the URL " + urlTemplate + " must contain "
                        + DB + " where each trial's fresh database name goes (only in-memory URLs, mem:NAME, get"
                        + " one automatically)");
            }
            urlTemplate = urlTemplate.substring(0, m.start(2)) + m.group(2) + "_" + DB + urlTemplate.substring(m.end(2));
        }
        Engine.ofUrl(urlTemplate); // refuses unknown engines now, not at the first load
    }

    /** The engine behind this target. */
    public Engine engine() {
        return Engine.ofUrl(urlTemplate);
    }

    /** Whether this target runs through MacroDB. */
    public boolean isMacroDb() {
        return Engine.isMacroDb(urlTemplate);
    }

    /** A database with a name never used before in this JVM: {@code <workload>_<target>_<n>}. */
    public Database freshDatabase(String workloadName) {
        String dbName = (workloadName + "_" + name).replaceAll("[^A-Za-z0-9]", "_") + "_" + FRESH.incrementAndGet();
        return new Database(this, urlTemplate.replace(DB, dbName));
    }
}
