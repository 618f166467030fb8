package io.macrodb.runtime.engine;

import java.util.Locale;

/**
 * How MacroDB named its capture triggers ({@code MACRODB_<event>_<schema>.<table>}), which captured H2 until
 * 2026-11-29 and HSQLDB until 2026-11-27: a file database or a {@code SCRIPT} backup an older MacroDB left may still
 * hold some, which the catalog drops and a restore leaves out, so the names stay MacroDB's. H2's ALTER TABLE renamed
 * such a trigger with a prefix ({@code T_COPY_3_0_MACRODB_A_PUBLIC.T}), so the marker is looked for anywhere in a name.
 */
public final class CaptureTriggers {

    private static final String PREFIX = "MACRODB_";
    private static final java.util.regex.Pattern DEFINITION = java.util.regex.Pattern.compile(
            "^\\s*CREATE\\s+(FORCE\\s+)?TRIGGER\\b", java.util.regex.Pattern.CASE_INSENSITIVE);
    /** MacroDB's capture triggers call its own classes ({@code io.macrodb.runtime.engine.*CaptureTrigger}). */
    private static final java.util.regex.Pattern CAPTURE_CLASS =
            java.util.regex.Pattern.compile("io\\.macrodb\\.runtime\\.engine\\.\\S*CaptureTrigger");

    private CaptureTriggers() {
    }

    /**
     * Whether {@code name} (a trigger's name as written in SQL, quoted or not, qualified or not, or as the engine lists
     * it) is one MacroDB kept for its capture triggers. Any case: an unquoted name is upper-cased by the engine.
     */
    public static boolean isReserved(String name) {
        return name.toUpperCase(Locale.ROOT).contains(PREFIX);
    }

    /** Whether a statement of an engine's script (its {@code SCRIPT} output) creates a trigger. */
    public static boolean isTriggerDefinition(String scriptLine) {
        return DEFINITION.matcher(scriptLine).find();
    }

    /**
     * Whether a statement of an engine's script creates one of MacroDB's capture triggers: a backup an older MacroDB
     * made with H2's {@code SCRIPT} holds them.
     */
    public static boolean isCaptureTriggerDefinition(String scriptLine) {
        return isTriggerDefinition(scriptLine) && CAPTURE_CLASS.matcher(scriptLine).find();
    }
}
