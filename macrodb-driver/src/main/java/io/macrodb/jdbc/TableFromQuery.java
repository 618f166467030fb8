package io.macrodb.jdbc;

import io.macrodb.runtime.engine.Engine;
import io.macrodb.runtime.sql.SqlText;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code CREATE TABLE ... AS SELECT} whose query computes values that differ per evaluation, in the two steps
 * MacroDB runs it as ({@link SchemaChangeInSteps}):
 * <ol>
 *   <li>{@link #createEmpty}: the same statement {@code WITH NO DATA}, DDL that every replica replays alike (the same
 *       columns, no values computed);</li>
 *   <li>{@link #fill}: {@code INSERT INTO <table> <query>}, an update transaction whose rows reach every slave as the
 *       master stored them, like any insert. Null when the statement asked for no data.</li>
 * </ol>
 * Flyway creates its schema history table on H2 with such a statement (its first row carries CURRENT_TIMESTAMP).
 * Unlike the engine alone, the table is visible empty for a moment before its rows commit.
 *
 * @param table the table's name as written (quoted, qualified: whatever the statement said)
 */
record TableFromQuery(String table, String createEmpty, String fill) implements SchemaChangeInSteps {

    private static final Pattern HEAD = Pattern.compile(
            "^\\W*CREATE\\s+(?:\\w+\\s+)*?TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?", Pattern.CASE_INSENSITIVE);
    private static final Pattern DATA_CLAUSE = Pattern.compile("\\s+WITH\\s+(NO\\s+)?DATA$", Pattern.CASE_INSENSITIVE);

    /** Splits {@code sql}, a {@code CREATE TABLE ... AS SELECT} computing values that differ per evaluation. */
    static TableFromQuery parse(String sql) throws SQLException {
        // Without comments: a trailing "-- ..." swallowed the WITH NO DATA appended to the first step, which then
        // copied the rows, and the second step copied them again.
        String statement = SqlText.statementWithoutComments(sql);
        Matcher head = HEAD.matcher(statement);
        int as = SqlText.topLevelKeyword(statement, "AS", 0);
        if (!head.lookingAt() || as < 0) {
            throw SchemaChangeInSteps.cannotSplit(sql, "this CREATE TABLE ... AS SELECT");
        }
        String table = statement.substring(head.end(), SqlText.nameEnd(statement, head.end()));
        String query = statement.substring(as + 2).strip();
        Matcher data = DATA_CLAUSE.matcher(query);
        boolean withData = true;
        if (data.find()) {
            withData = data.group(1) == null;
            query = query.substring(0, data.start());
        }
        query = query.strip();
        String createEmpty = statement.substring(0, as) + "AS " + query + " WITH NO DATA";
        return new TableFromQuery(table, createEmpty, withData ? "INSERT INTO " + table + " " + unparenthesized(query)
                : null);
    }

    /**
     * A query without the parentheses around all of it (HSQLDB's {@code AS (WITH q AS (...) SELECT ...)}): HSQLDB
     * refuses {@code INSERT INTO t (WITH ...)}, and both engines take the bare query.
     */
    private static String unparenthesized(String query) {
        if (query.startsWith("(") && SqlText.closingParenthesis(query, 0) == query.length() - 1) {
            return query.substring(1, query.length() - 1).strip();
        }
        return query;
    }

    @Override
    public String firstStep() {
        return createEmpty;
    }

    /** The number of tables: one more after the first step means it created this one. */
    @Override
    public int schemaReading(Connection engine) throws SQLException {
        int tables = 0;
        try (ResultSet rows = engine.getMetaData().getTables(null, null, "%", null)) {
            while (rows.next()) {
                tables++;
            }
        }
        return tables;
    }

    /**
     * The new table's definition as the master's engine writes it: the query may read the writer's temporary tables,
     * which no slave has (replayed, it failed every slave, which was then rebuilt). Its text if the table cannot be
     * read back (then, as before, a slave that cannot run it is rebuilt from the master).
     */
    @Override
    public String replayedFirstStep(Connection master, Engine engine) {
        try (Statement statement = master.createStatement();
             ResultSet none = statement.executeQuery("SELECT * FROM " + table + " WHERE 1 = 0")) {
            ResultSetMetaData columns = none.getMetaData();
            String definition = engine.tableDefinition(master, columns.getSchemaName(1), columns.getTableName(1));
            return definition != null ? definition : createEmpty;
        } catch (SQLException unreadable) {
            return createEmpty;
        }
    }

    @Override
    public List<Step> laterSteps() {
        return fill == null ? List.of() : List.of(new Step(fill, false));
    }

    @Override
    public String undo() {
        return "DROP TABLE " + table;
    }
}
