package io.macrodb.jdbc;

import io.macrodb.runtime.sql.SqlText;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ALTER TABLE t ADD [COLUMN] c <type> DEFAULT <expr> [NOT NULL]} whose default differs per evaluation
 * ({@code CURRENT_TIMESTAMP}, {@code RAND()}, {@code NEXT VALUE FOR s}...): the engine fills the rows already there with
 * it, which each slave replaying the statement would do with values of its own. Migration tools emit it (Liquibase's
 * {@code addColumn} with {@code defaultValueComputed}). MacroDB runs it in steps ({@link SchemaChangeInSteps}):
 * <ol>
 *   <li>the column added with no default (DDL every replica replays alike: the rows hold null);</li>
 *   <li>{@code ALTER COLUMN c SET DEFAULT <expr>} (DDL: the default is computed at the master for each later
 *       insert, whose rows carry the value);</li>
 *   <li>{@code UPDATE t SET c = <expr> WHERE c IS NULL}: an update transaction, whose values reach every slave as the
 *       master computed them;</li>
 *   <li>{@code SET NOT NULL} if the statement asked for it.</li>
 * </ol>
 * Only this form is split: a type followed by the default and at most a nullability. Anything more (other
 * constraints, a position, several columns) is refused as before: add the column plainly, then fill it.
 *
 * @param table   the table's name as written
 * @param column  the column's name as written
 * @param addNull the first step: the statement up to its {@code DEFAULT}
 */
record ColumnWithComputedDefault(String table, String column, String addNull, String defaultValue, boolean notNull)
        implements SchemaChangeInSteps {

    /** {@code ALTER TABLE [IF EXISTS] }: the table's name begins where it ends (also read by IdentityColumnAdded). */
    static final Pattern ALTER = Pattern.compile("^\\W*ALTER\\s+TABLE\\s+(?:IF\\s+EXISTS\\s+)?",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern ADD = Pattern.compile("\\s+ADD\\s+(?:COLUMN\\s+)?(?:IF\\s+NOT\\s+EXISTS\\s+)?",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern NULLABILITY = Pattern.compile("\\s+(NOT\\s+)?NULL$", Pattern.CASE_INSENSITIVE);
    /** Words that would make the type or the default more than a type and an expression. */
    private static final List<String> CLAUSES = List.of("NOT", "NULL", "PRIMARY", "UNIQUE", "CHECK", "REFERENCES",
            "CONSTRAINT", "GENERATED", "IDENTITY", "AUTO_INCREMENT", "AS", "ON", "BEFORE", "AFTER", "FIRST",
            "DEFAULT", "ADD", "INVISIBLE", "SELECTIVITY", "COMMENT");
    private static final List<String> NOT_COLUMNS = List.of("CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN",
            "INDEX", "KEY");

    /** Splits {@code sql}, an {@code ALTER TABLE ... ADD} computing values that differ per evaluation. */
    static ColumnWithComputedDefault parse(String sql) throws SQLException {
        String statement = SqlText.statementWithoutComments(sql);
        Matcher alter = ALTER.matcher(statement);
        if (!alter.lookingAt()) {
            throw SchemaChangeInSteps.cannotSplit(sql, "this ALTER TABLE");
        }
        int tableEnd = SqlText.nameEnd(statement, alter.end());
        Matcher add = ADD.matcher(statement).region(tableEnd, statement.length());
        if (tableEnd == alter.end() || !add.lookingAt()) {
            throw SchemaChangeInSteps.cannotSplit(sql, "this ALTER TABLE");
        }
        int columnEnd = SqlText.nameEnd(statement, add.end());
        String column = statement.substring(add.end(), columnEnd);
        String rest = statement.substring(columnEnd);
        int defaultAt = SqlText.topLevelKeyword(rest, "DEFAULT", 0);
        if (column.isEmpty() || NOT_COLUMNS.contains(column.toUpperCase(java.util.Locale.ROOT)) || defaultAt < 0
                || SqlText.hasTopLevel(rest, ',')) {
            throw SchemaChangeInSteps.cannotSplit(sql, "anything but one column with its default");
        }
        String type = rest.substring(0, defaultAt).strip();
        String expression = rest.substring(defaultAt + "DEFAULT".length()).strip();
        Matcher nullability = NULLABILITY.matcher(expression);
        boolean notNull = false;
        if (nullability.find()) {
            notNull = nullability.group(1) != null;
            expression = expression.substring(0, nullability.start()).strip();
        }
        if (type.isEmpty() || expression.isEmpty() || hasClause(type) || hasClause(expression)) {
            throw SchemaChangeInSteps.cannotSplit(sql, "a column with more than a type, a default and a nullability");
        }
        String table = statement.substring(alter.end(), tableEnd);
        String addNull = statement.substring(0, columnEnd + defaultAt).stripTrailing();
        return new ColumnWithComputedDefault(table, column, addNull, expression, notNull);
    }

    private static boolean hasClause(String part) {
        for (String clause : CLAUSES) {
            if (SqlText.topLevelKeyword(part, clause, 0) >= 0) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String firstStep() {
        return addNull;
    }

    /** The table's number of columns (-1 when there is no such table): one more means the column was added. */
    @Override
    public int schemaReading(Connection engine) throws SQLException {
        try (Statement statement = engine.createStatement();
             ResultSet none = statement.executeQuery("SELECT * FROM " + table + " WHERE 1 = 0")) {
            return none.getMetaData().getColumnCount();
        } catch (SQLException noSuchTable) {
            return -1; // ALTER TABLE IF EXISTS then does nothing; anything else fails the first step itself
        }
    }

    /**
     * The default comes before the values: a row another session inserts between the steps then gets the default, as
     * with the engine alone (until 2026-11-23 one inserted before the default was set held null, and the NOT NULL step
     * failed the whole statement). The values fill every row still null, those inserted before the default included.
     */
    @Override
    public List<Step> laterSteps() {
        List<Step> steps = new ArrayList<>();
        steps.add(new Step(alterColumn() + " SET DEFAULT " + defaultValue, true));
        steps.add(new Step("UPDATE " + table + " SET " + column + " = " + defaultValue + " WHERE " + column
                + " IS NULL", false));
        if (notNull) {
            steps.add(new Step(alterColumn() + " SET NOT NULL", true));
        }
        return steps;
    }

    private String alterColumn() {
        return "ALTER TABLE " + table + " ALTER COLUMN " + column;
    }

    @Override
    public String undo() {
        return "ALTER TABLE " + table + " DROP COLUMN " + column;
    }
}
