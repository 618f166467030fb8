package io.macrodb.runtime.engine;

import io.macrodb.runtime.capture.CapturedTable;

/**
 * How MacroDB names its capture triggers, for every engine: {@code MACRODB_<event>_<schema>.<table>}, quoted. The
 * trigger's own name then tells which table it captures for, whatever name the engine hands to the trigger (H2
 * hands a temporary table name after ALTER TABLE), and the same table name in two schemas cannot collide.
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

    public static boolean isCaptureTrigger(String triggerName) {
        return triggerName.startsWith(PREFIX) && triggerName.length() > PREFIX.length() + EVENT_AND_SEPARATOR;
    }

    /** The catalog key of the table a capture trigger with this name captures for, or null. */
    public static String tableKey(String triggerName) {
        return isCaptureTrigger(triggerName) ? triggerName.substring(PREFIX.length() + EVENT_AND_SEPARATOR) : null;
    }
}
