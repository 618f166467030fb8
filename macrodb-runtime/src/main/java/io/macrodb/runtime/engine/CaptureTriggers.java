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
