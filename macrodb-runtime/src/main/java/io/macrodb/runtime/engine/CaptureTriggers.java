package io.macrodb.runtime.engine;

import io.macrodb.runtime.capture.CapturedTable;

import java.util.Locale;

/**
 * How MacroDB names its capture triggers, for every engine: {@code MACRODB_<event>_<schema>.<table>}, quoted. The
 * trigger's own name then tells which table it captures for, whatever table name the engine hands to the trigger, and
 * the same table name in two schemas cannot collide. H2's ALTER TABLE renames the trigger too, with a prefix
 * ({@code T_COPY_3_0_MACRODB_A_PUBLIC.T}), so the marker is looked for anywhere in the name.
 */
public final class CaptureTriggers {

    private static final String PREFIX = "MACRODB_";
    private static final int EVENT_AND_SEPARATOR = 2;
    private static final java.util.regex.Pattern DEFINITION = java.util.regex.Pattern.compile(
            "^\\s*CREATE\\s+(FORCE\\s+)?TRIGGER\\b", java.util.regex.Pattern.CASE_INSENSITIVE);
    /** MacroDB's capture triggers call its own classes ({@code io.macrodb.runtime.engine.*CaptureTrigger}). */
    private static final java.util.regex.Pattern CAPTURE_CLASS =
            java.util.regex.Pattern.compile("io\\.macrodb\\.runtime\\.engine\\.\\S*CaptureTrigger");

    private CaptureTriggers() {
    }

    /** @param event one letter: A (all events), I, U or D */
    public static String name(char event, CapturedTable.Name table) {
        return PREFIX + event + "_" + table.key();
    }

    /**
     * Whether {@code name} (a trigger's name as written in SQL, quoted or not, qualified or not) is one MacroDB keeps
     * for its capture triggers. Any case: an unquoted name is upper-cased by the engine.
     */
    public static boolean isReserved(String name) {
        return name.toUpperCase(Locale.ROOT).contains(PREFIX);
    }

    /** Whether a statement of an engine's script (its {@code SCRIPT} output) creates a trigger. */
    public static boolean isTriggerDefinition(String scriptLine) {
        return DEFINITION.matcher(scriptLine).find();
    }

    /**
     * Whether a statement of an engine's script creates one of MacroDB's capture triggers: a backup made with H2's
     * {@code SCRIPT} holds them, and MacroDB makes its own for every table it captures.
     */
    public static boolean isCaptureTriggerDefinition(String scriptLine) {
        return isTriggerDefinition(scriptLine) && CAPTURE_CLASS.matcher(scriptLine).find();
    }

    /** A capture trigger's name from MacroDB's marker on, as {@link #name} gave it, whatever H2 put before it. */
    public static String nameOf(String triggerName) {
        int marker = triggerName.indexOf(PREFIX);
        return marker < 0 ? null : triggerName.substring(marker);
    }

    /** The catalog key of the table a capture trigger with this name captures for, or null. */
    public static String tableKey(String triggerName) {
        int marker = triggerName.indexOf(PREFIX);
        int key = marker + PREFIX.length() + EVENT_AND_SEPARATOR;
        return marker < 0 || key >= triggerName.length() ? null : triggerName.substring(key);
    }
}
