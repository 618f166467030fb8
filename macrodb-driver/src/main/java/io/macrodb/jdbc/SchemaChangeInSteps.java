package io.macrodb.jdbc;

import io.macrodb.api.MacroSqlState;
import io.macrodb.runtime.engine.Engine;
import io.macrodb.runtime.sql.SqlText;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * A DDL statement that computes row values with a function whose result differs per evaluation ({@code RAND()},
 * {@code CURRENT_TIMESTAMP}...). Slaves replay DDL as text, so replaying it as written would fill each slave with
 * values of its own. MacroDB runs it as steps that each replicate exactly: DDL that computes no value (every replica
 * replays it alike), then the values as an update transaction (its rows reach every slave as the master stored
 * them), then any DDL the statement still asked for. Each step is a state the master itself goes through, so every
 * replica shows each one at the same version; the engine alone would go through them in one statement.
 */
interface SchemaChangeInSteps {

    /** The DDL to run first, through the caller's engine statement (whose results are then the caller's). */
    String firstStep();

    /**
     * A reading of the schema taken just before and just after the first step, under the commit lock: a change means
     * the first step took effect (one with {@code IF NOT EXISTS} may do nothing, and then nothing follows).
     */
    int schemaReading(Connection engine) throws SQLException;

    /**
     * What the slaves replay for the first step, read from the master once it took effect: by default its text. A
     * statement that may read what the slaves cannot (the master session's temporary tables) gives what it made.
     */
    default String replayedFirstStep(Connection master, Engine engine) {
        return firstStep();
    }

    /** What runs after the first step took effect, in order. */
    List<Step> laterSteps();

    /** Undoes the first step when a later one fails: the engine would not have run the statement at all. */
    String undo();

    /** One later step: DDL (a version of its own at the master) or rows (an update transaction of its own). */
    record Step(String sql, boolean schemaChange) {
    }

    /** Splits {@code sql}, a statement {@link StatementKind} classified as {@code IN_STEPS}. */
    static SchemaChangeInSteps parse(String sql) throws SQLException {
        return SqlText.firstWord(sql).equals("CREATE") ? TableFromQuery.parse(sql)
                : ColumnWithComputedDefault.parse(sql);
    }

    /** The refusal for a statement of this kind whose form MacroDB does not know how to split. */
    static SQLException cannotSplit(String sql, String what) {
        return new SQLException("MacroDB refuses this DDL: it computes row values with a function whose result "
                + "differs per replica, and MacroDB cannot split " + what + " into steps that replicate exactly ("
                + sql + "). Create the table or column first, then fill it with INSERT/UPDATE, which MacroDB "
                + "replicates exactly.", MacroSqlState.NOT_REPLICABLE);
    }
}
