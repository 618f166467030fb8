package io.macrodb.jdbc;

import io.macrodb.api.MacroSqlState;
import io.macrodb.runtime.sql.SqlText;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ALTER TABLE t ADD ... <identity column>}: the engine numbers the rows already in the table in the order it
 * stores them, which is not the same on every replica (a slave stores rows in commit order, the master in the order
 * they were inserted, and H2 orders a table without an integer key by a row id of each replica's own). Replayed, the
 * statement gave the same row different numbers on different replicas (found by a review). Adding such a column to
 * an empty table numbers nothing and runs; to a table that holds rows it is refused, under the commit lock, before
 * it runs.
 *
 * @param table the table's name as written
 */
record IdentityColumnAdded(String table) {

    private static final Pattern ADD = Pattern.compile("\\s+ADD\\b", Pattern.CASE_INSENSITIVE);
    /** The engines' ways of asking for a column numbered by the engine. */
    private static final Pattern IDENTITY = Pattern.compile(
            "\\b(IDENTITY|AUTO_INCREMENT|AUTOINCREMENT|SERIAL|BIGSERIAL|SMALLSERIAL)\\b", Pattern.CASE_INSENSITIVE);
    /**
     * Where a name stands in an {@code ADD} clause (quoted ones are blanked already, but for SQL Server's {@code [n]}):
     * the new column's (after {@code ADD [COLUMN] [IF NOT EXISTS] [(]}, a comma or an opening parenthesis), a
     * constraint's, and the table a foreign key references. A column or table may be named {@code serial} or
     * {@code identity}.
     */
    private static final Pattern NAME = Pattern.compile("(\\bADD\\s+(?:COLUMN\\s+)?(?:IF\\s+NOT\\s+EXISTS\\s+)?\\(?\\s*"
            + "|[(,]\\s*|\\bREFERENCES\\s+|\\bCONSTRAINT\\s+)(?:\\[[^]]*]|[\\w$.])+", Pattern.CASE_INSENSITIVE);

    /** The statement's table when {@code sql} adds an identity column to it; null for anything else. */
    static IdentityColumnAdded of(String sql) {
        String statement = SqlText.statementWithoutComments(sql);
        Matcher alter = ColumnWithComputedDefault.ALTER.matcher(statement);
        if (!alter.lookingAt()) {
            return null;
        }
        int tableEnd = SqlText.nameEnd(statement, alter.end());
        if (tableEnd == alter.end() || !ADD.matcher(statement).region(tableEnd, statement.length()).lookingAt()) {
            return null;
        }
        String definitions = NAME.matcher(SqlText.withoutQuotedText(statement.substring(tableEnd)))
                .replaceAll(name -> Matcher.quoteReplacement(name.group(1)));
        if (!IDENTITY.matcher(definitions).find()) {
            return null;
        }
        return new IdentityColumnAdded(statement.substring(alter.end(), tableEnd));
    }

    /** Refuses {@code sql} if the table holds rows (run on the master, under the commit lock, just before it). */
    void refuseIfRows(Connection master, String sql) throws SQLException {
        boolean rows;
        try (Statement statement = master.createStatement();
             ResultSet any = statement.executeQuery("SELECT 1 FROM " + table + " FETCH FIRST 1 ROWS ONLY")) {
            rows = any.next();
        } catch (SQLException noSuchTable) {
            return; // the statement itself then fails, or does nothing (IF EXISTS)
        }
        if (rows) {
            throw new SQLException("MacroDB refuses to add an identity column to " + table + ", which holds rows: the "
                    + "engine would number them in the order it stores them, which differs between replicas (" + sql
                    + "). Add a plain column, number the rows with UPDATE (in an order of your choosing, such as a "
                    + "key's), then make it an identity column with ALTER TABLE ... ALTER COLUMN, restarting after "
                    + "the highest number.", MacroSqlState.NOT_REPLICABLE);
        }
    }
}
