package io.macrodb.e2e;

import io.macrodb.api.MacroCluster;
import io.macrodb.api.MacroSqlState;
import io.macrodb.api.ReplicaResult;
import io.macrodb.api.VerificationReport;
import org.h2.api.Trigger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SQL text that MacroDB read otherwise than the engine does, each found by a review's failing probe (2026-11-23): a
 * comment before a statement's keywords, H2's nested block comments, its {@code $$} strings and backtick names, and
 * the names of a session's temporary tables. Read wrongly, a statement was replayed where it must not be (or not where
 * it must), ran on a slave, or hid a sequence draw; the replicas then differed. Each case ends with the cluster
 * verified identical and no replica failed.
 */
class SqlTextReadingTest {

    private static String one(Connection c, String query) throws SQLException {
        List<String> rows = Engine.rows(c, query);
        assertEquals(1, rows.size(), query);
        return rows.get(0);
    }

    /** What each replica answers to {@code query}, master first. */
    private static List<List<String>> each(Connection c, String query) throws SQLException {
        List<List<String>> answers = new ArrayList<>();
        for (ReplicaResult<List<String>> r : c.unwrap(MacroCluster.class).queryEachReplica(q -> Engine.rows(q, query))) {
            answers.add(r.value());
        }
        return answers;
    }

    private static void assertIdenticalAndShutdown(Connection c) throws SQLException {
        MacroCluster cluster = c.unwrap(MacroCluster.class);
        VerificationReport report = cluster.verify();
        assertTrue(report.identical(), () -> "replicas differ: " + report.differences());
        assertEquals(0, cluster.metrics().failures(), "no replica failed");
        cluster.shutdown();
    }

    private static void assertRefusedAsNotReplicable(Connection c, String sql) {
        SQLException refused = assertThrows(SQLException.class, () -> Engine.execute(c, sql));
        assertEquals(MacroSqlState.NOT_REPLICABLE, refused.getSQLState(), refused::getMessage);
    }

    /** H2 nests block comments, HSQLDB does not: MacroDB cannot tell which statement such a text is. */
    @Test
    void aNestedBlockCommentIsRefused() throws Exception {
        try (Connection c = Engine.connect(Engine.H2.url(2))) {
            Engine.execute(c, "CREATE TABLE t (a INT PRIMARY KEY)");
            c.setAutoCommit(false);
            Engine.execute(c, "INSERT INTO t VALUES (1)");
            assertRefusedAsNotReplicable(c, "/* /* */ */ SET AUTOCOMMIT TRUE");
            assertRefusedAsNotReplicable(c, "/* /* */ */ CREATE TABLE nt (a INT PRIMARY KEY)");
            c.rollback();
            c.setAutoCommit(true);
            assertEquals(List.of(List.of("0"), List.of("0")), each(c, "SELECT COUNT(*) FROM t"));
            assertIdenticalAndShutdown(c);
        }
    }

    /** {@code $$} inside a name ({@code t$$}) is no string: the text after it was a second statement, unseen. */
    @Test
    void dollarsInANameDoNotHideASecondStatement() throws Exception {
        try (Connection c = Engine.connect(Engine.H2.url(2))) {
            Engine.execute(c, "CREATE TABLE t$$ (a INT)");
            assertRefusedAsNotReplicable(c, "INSERT INTO t$$ VALUES (1); CREATE TABLE z (a INT)");
            assertIdenticalAndShutdown(c);
        }
    }

    public static final class Audit implements Trigger {
        @Override
        public void fire(Connection connection, Object[] oldRow, Object[] newRow) throws SQLException {
            try (PreparedStatement audit = connection.prepareStatement("INSERT INTO audit VALUES (?)")) {
                audit.setObject(1, newRow[0]);
                audit.executeUpdate();
            }
        }
    }

    /** The application's trigger stays on the master; behind a comment its DDL was replayed, and fired on slaves. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aTriggerCreatedBehindACommentStaysOnTheMaster(Engine engine) throws Exception {
        try (Connection c = Engine.connect(engine.url(2))) {
            Engine.execute(c, "CREATE TABLE account (id INT PRIMARY KEY)", "CREATE TABLE audit (account_id INT)");
            Engine.execute(c, engine == Engine.H2
                    ? "/* audit, v2 */ CREATE TRIGGER audit_i AFTER INSERT ON account FOR EACH ROW CALL \""
                    + Audit.class.getName() + "\""
                    : "/* audit, v2 */ CREATE TRIGGER audit_i AFTER INSERT ON account REFERENCING NEW ROW AS n "
                    + "FOR EACH ROW INSERT INTO audit VALUES (n.id)");
            Engine.execute(c, "INSERT INTO account VALUES (1)");
            assertEquals(List.of(List.of("1"), List.of("1")), each(c, "SELECT COUNT(*) FROM audit"));
            assertIdenticalAndShutdown(c);
        }
    }

    /** A variable's assignment is replayed with its value: behind a comment it was replayed as text, RAND() again. */
    @Test
    void aVariableSetBehindACommentHasItsValueOnSlaves() throws Exception {
        try (Connection c = Engine.connect(Engine.H2.url(2))) {
            Engine.execute(c, "/* tag */ SET @v = RAND()");
            String onMaster = one(c, "SELECT @v");
            c.setReadOnly(true);
            assertEquals(onMaster, one(c, "SELECT @v"));
            c.setReadOnly(false);
            try (PreparedStatement prepared = c.prepareStatement("/* tag */ SET @x = ?")) { // was refused
                prepared.setInt(1, 2);
                prepared.execute();
            }
            assertIdenticalAndShutdown(c);
        }
    }

    /** The connection keeps its schema itself; behind a comment SET SCHEMA was replayed over a later setSchema. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aSchemaSetBehindACommentYieldsToALaterSetSchema(Engine engine) throws Exception {
        try (Connection c = Engine.connect(engine.url(2))) {
            Engine.execute(c, "CREATE SCHEMA s2", "CREATE TABLE PUBLIC.t (x VARCHAR(10))",
                    "INSERT INTO PUBLIC.t VALUES ('public')", "CREATE TABLE s2.t (x VARCHAR(10))",
                    "INSERT INTO s2.t VALUES ('s2')", "/* tag */ SET SCHEMA s2");
            c.setSchema("PUBLIC");
            assertEquals("public", one(c, "SELECT x FROM t"));
            c.setAutoCommit(false);
            c.setReadOnly(true);
            for (int i = 0; i < 4; i++) {
                assertEquals("public", one(c, "SELECT x FROM t"), "read-only transaction " + i);
                c.commit();
            }
            c.setReadOnly(false);
            c.setAutoCommit(true);
            assertIdenticalAndShutdown(c);
        }
    }

    /** Slaves apply rows under the writer's time zone; behind a comment SET TIME ZONE did not count. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aTimeZoneSetBehindACommentReachesTheRowsSlavesWrite(Engine engine) throws Exception {
        boolean h2 = engine == Engine.H2;
        try (Connection c = Engine.connect(engine.url(2))) {
            Engine.execute(c, "CREATE TABLE z (id INT PRIMARY KEY, ts TIMESTAMP, tz TIMESTAMP WITH TIME ZONE "
                            + (h2 ? "" : "GENERATED ALWAYS ") + "AS (CAST(ts AS TIMESTAMP WITH TIME ZONE)))",
                    h2 ? "/* tz */ SET TIME ZONE '+05:00'" : "/* tz */ SET TIME ZONE INTERVAL '+05:00' HOUR TO MINUTE",
                    "INSERT INTO z (id, ts) VALUES (1, TIMESTAMP '2020-01-01 00:00:00')");
            assertIdenticalAndShutdown(c);
        }
    }

    /** H2's {@code $$...$$} strings and backtick names are text: a {@code --} inside one hid the rest. */
    @Test
    void aCommentMarkInsideADollarStringOrABacktickNameHidesNothing() throws Exception {
        try (Connection c = Engine.connect(Engine.H2.url(2))) {
            Engine.execute(c, "CREATE SEQUENCE s", "CREATE TABLE t (id INT PRIMARY KEY)");
            Engine.rows(c, "SELECT $$--$$, NEXT VALUE FOR s"); // a draw the slaves must get
            Engine.rows(c, "SELECT $$--$$, id FROM FINAL TABLE (INSERT INTO t VALUES (1))"); // a write
            c.setReadOnly(true);
            for (String write : List.of("SELECT 1 AS `x--`, NEXT VALUE FOR s",
                    "SELECT $$--$$, id FROM FINAL TABLE (INSERT INTO t VALUES (2))")) {
                SQLException refused = assertThrows(SQLException.class, () -> Engine.rows(c, write));
                assertEquals(MacroSqlState.READ_ONLY_TRANSACTION, refused.getSQLState(), refused::getMessage);
            }
            c.setReadOnly(false);
            assertEquals(List.of(List.of("1"), List.of("1")), each(c, "SELECT COUNT(*) FROM t"));
            assertIdenticalAndShutdown(c);
        }
    }

    /**
     * H2 takes an unqualified name for the schema's own table before the session's temporary one: MacroDB took it for
     * the temporary table and did not replay the statement, though it emptied a shared one.
     */
    @Test
    void aSharedTableNamedLikeATemporaryOneIsTheOneH2Changes() throws Exception {
        try (Connection alone = DriverManager.getConnection("jdbc:h2:mem:sql-text-alone")) {
            Engine.execute(alone, "CREATE SCHEMA s2", "CREATE TABLE s2.tt (a INT)", "INSERT INTO s2.tt VALUES (1)",
                    "CREATE LOCAL TEMPORARY TABLE tt (a INT)", "SET SCHEMA s2", "TRUNCATE TABLE tt");
            assertEquals(List.of("0"), Engine.rows(alone, "SELECT COUNT(*) FROM s2.tt"), "H2 alone empties S2.TT");
        }
        try (Connection c = Engine.connect(Engine.H2.url(2))) {
            Engine.execute(c, "CREATE SCHEMA s2", "CREATE TABLE s2.tt (a INT)", "INSERT INTO s2.tt VALUES (1)",
                    "CREATE LOCAL TEMPORARY TABLE tt (a INT)");
            c.setSchema("S2");
            Engine.execute(c, "TRUNCATE TABLE tt");
            c.setSchema("PUBLIC");
            assertEquals(List.of(List.of("0"), List.of("0")), each(c, "SELECT COUNT(*) FROM s2.tt"));
            try (Connection other = Engine.connect(c.unwrap(MacroCluster.class).url())) {
                Engine.execute(other, "CREATE TABLE tt (a INT)"); // a shared PUBLIC.TT beside the temporary one
            }
            Engine.execute(c, "DROP TABLE tt"); // H2 drops the shared one
            assertIdenticalAndShutdown(c);
        }
    }

    /** A temporary table named with Unicode escapes is still the session's: replayed, it failed the slave. */
    @Test
    void aTemporaryTableNamedWithUnicodeEscapesIsTheSessions() throws Exception {
        try (Connection c = Engine.connect(Engine.H2.url(2))) {
            Engine.execute(c, "CREATE TABLE r (a INT)", "CREATE LOCAL TEMPORARY TABLE tt (a INT)",
                    "DROP TABLE U&\"\\0054\\0054\"", "INSERT INTO r VALUES (1)");
            assertIdenticalAndShutdown(c);
        }
    }

    /** One statement on a temporary and a shared table is refused: only the shared one's change could be replayed. */
    @Test
    void aDropOfATemporaryAndASharedTableTogetherIsRefused() throws Exception {
        try (Connection c = Engine.connect(Engine.H2.url(2))) {
            Engine.execute(c, "CREATE TABLE r (a INT)", "CREATE LOCAL TEMPORARY TABLE tt (a INT)");
            assertRefusedAsNotReplicable(c, "DROP TABLE tt, r");
            Engine.execute(c, "DROP TABLE tt", "DROP TABLE r");
            assertIdenticalAndShutdown(c);
        }
    }

    /** A comment before RUNSCRIPT: it was refused as if it had options MacroDB does not read. */
    @Test
    void aScriptRunBehindACommentRuns() throws Exception {
        Path script = Files.createTempFile("sql-text-reading", ".sql");
        try (Connection c = Engine.connect(Engine.H2.url(2))) {
            Files.writeString(script, "CREATE TABLE rs (a INT);\nINSERT INTO rs VALUES (1);\n");
            Engine.execute(c, "/* load */ RUNSCRIPT FROM '" + script.toString().replace("'", "''") + "'");
            assertEquals(List.of(List.of("1"), List.of("1")), each(c, "SELECT COUNT(*) FROM rs"));
            assertIdenticalAndShutdown(c);
        } finally {
            Files.deleteIfExists(script);
        }
    }
}
