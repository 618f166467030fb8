package io.macrodb.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.SQLException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** How a table created from a non-deterministic query is split into replayable DDL and a replicated insert. */
class TableFromQueryTest {

    /** Flyway's schema history table on H2: column definitions, a quoted qualified name, AS inside quotes. */
    @Test
    void flywaysHistoryTableOnH2() throws SQLException {
        String sql = """
                CREATE TABLE IF NOT EXISTS "PUBLIC"."flyway_schema_history" (
                    "installed_rank" INT NOT NULL,
                    "installed_on" TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
                    CONSTRAINT "flyway_schema_history_pk" PRIMARY KEY ("installed_rank")
                ) AS SELECT -1, CURRENT_TIMESTAMP;
                """;
        assertEquals(StatementKind.Type.IN_STEPS, StatementKind.of(sql).type());
        TableFromQuery table = TableFromQuery.parse(sql);
        assertEquals("\"PUBLIC\".\"flyway_schema_history\"", table.table());
        assertEquals(sql.strip().replace(";", "").replace("AS SELECT -1, CURRENT_TIMESTAMP",
                "AS SELECT -1, CURRENT_TIMESTAMP WITH NO DATA"), table.createEmpty());
        assertEquals("INSERT INTO \"PUBLIC\".\"flyway_schema_history\" SELECT -1, CURRENT_TIMESTAMP", table.fill());
    }

    @Test
    void parenthesisedQueryWithDataClause() throws SQLException {
        TableFromQuery table =
                TableFromQuery.parse("create cached table r as (select id, rand() as x from t) with data");
        assertEquals("r", table.table());
        assertEquals("create cached table r AS (select id, rand() as x from t) WITH NO DATA", table.createEmpty());
        assertEquals("INSERT INTO r select id, rand() as x from t", table.fill());
    }

    /** A trailing comment swallowed the WITH NO DATA appended to the first step, which then copied the rows. */
    @Test
    void commentsAreNotPartOfTheSteps() throws SQLException {
        TableFromQuery table = TableFromQuery.parse("CREATE TABLE t AS SELECT x FROM s -- copy of s\n;");
        assertEquals("CREATE TABLE t AS SELECT x FROM s WITH NO DATA", table.createEmpty());
        assertEquals("INSERT INTO t SELECT x FROM s", table.fill());
        table = TableFromQuery.parse("CREATE TABLE t AS (SELECT x FROM s) WITH DATA /* done */");
        assertEquals("CREATE TABLE t AS (SELECT x FROM s) WITH NO DATA", table.createEmpty());
    }

    /** HSQLDB refuses INSERT INTO t (WITH ...): the query is inserted without its outer parentheses. */
    @Test
    void aParenthesisedQueryIsInsertedBare() throws SQLException {
        TableFromQuery table = TableFromQuery.parse(
                "CREATE TABLE t AS (WITH q AS (SELECT x FROM s) SELECT x FROM q) WITH DATA");
        assertEquals("INSERT INTO t WITH q AS (SELECT x FROM s) SELECT x FROM q", table.fill());
        table = TableFromQuery.parse("CREATE TABLE u AS (SELECT 1) UNION (SELECT 2) WITH DATA");
        assertEquals("INSERT INTO u (SELECT 1) UNION (SELECT 2)", table.fill());
    }

    @Test
    void noDataAskedForMeansNothingToInsert() throws SQLException {
        TableFromQuery table = TableFromQuery.parse("CREATE TABLE \"AS\" AS (SELECT NOW() AS made) WITH NO DATA");
        assertEquals("\"AS\"", table.table());
        assertEquals("CREATE TABLE \"AS\" AS (SELECT NOW() AS made) WITH NO DATA", table.createEmpty());
        assertNull(table.fill());
    }

    @Test
    void otherDdlWithNondeterministicValuesIsNotATableFromAQuery() throws SQLException {
        assertEquals(StatementKind.Type.SCHEMA_CHANGE,
                StatementKind.of("CREATE TABLE t (at TIMESTAMP DEFAULT CURRENT_TIMESTAMP)").type());
    }

    /**
     * Any table created from a query runs in steps: replayed, even a query of no random function reads the slave's
     * own session and row order (see StatementKind). A temporary table's rows are the session's, computed by the
     * master alone, whatever its query calls (in steps, an H2 local temporary table came out empty).
     */
    @Test
    void everyTableFromAQueryRunsInStepsButATemporaryOne() throws SQLException {
        assertEquals(StatementKind.Type.IN_STEPS,
                StatementKind.of("CREATE TABLE c AS (SELECT id FROM t) WITH DATA").type());
        assertEquals(StatementKind.Type.SCHEMA_CHANGE,
                StatementKind.of("CREATE LOCAL TEMPORARY TABLE c AS SELECT id FROM t").type());
        assertEquals(StatementKind.Type.SCHEMA_CHANGE,
                StatementKind.of("CREATE LOCAL TEMPORARY TABLE c AS SELECT id, RAND() FROM t").type());
    }
}
