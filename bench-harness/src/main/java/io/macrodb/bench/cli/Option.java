package io.macrodb.bench.cli;

import java.util.Objects;

/**
 * One command-line option, declared once: its name (without the leading dashes), the word shown for its value,
 * its default (null: no default) and a description. Help text is generated from these declarations.
 */
public record Option(String name, String valueName, String defaultValue, String description) {

    public Option {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(valueName, "valueName");
        Objects.requireNonNull(description, "description");
    }

    /** The same option with another default, for a workload whose sensible default differs. */
    public Option withDefault(String newDefault) {
        return new Option(name, valueName, newDefault, description);
    }
}
