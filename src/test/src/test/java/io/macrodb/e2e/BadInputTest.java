package io.macrodb.e2e;

import io.macrodb.api.MacroCluster;
import io.macrodb.api.MacroSqlState;
import io.macrodb.api.VerificationReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bad input gets a clear SQLException with a documented SQLState and a message that says what to do; the cluster
 * stays healthy and exact afterwards.
 */
class BadInputTest {

    private static SQLException refused(String url) {
        return assertThrows(SQLException.class, () -> DriverManager.getConnection(url));
    }

    @Test
    void malformedUrlsAndOptionsAreRefusedNamingKeyValueAndWhatIsAllowed() {
        SQLException noEngine = refused("jdbc:macrodb:");
        assertEquals(MacroSqlState.INVALID_URL, noEngine.getSQLState());

        SQLException noValue = refused("jdbc:macrodb:h2:mem:bad1;macrodb.replicas");
        assertEquals(MacroSqlState.INVALID_URL, noValue.getSQLState());
        assertTrue(noValue.getMessage().contains("key=value"), noValue.getMessage());

        SQLException unknown = refused("jdbc:macrodb:h2:mem:bad2;macrodb.replica=2");
        assertEquals(MacroSqlState.INVALID_OPTION, unknown.getSQLState());
        assertTrue(unknown.getMessage().contains("macrodb.replica") && unknown.getMessage().contains("macrodb.replicas"),
                unknown.getMessage());

        for (String value : new String[] {"0", "abc", "-1", "65"}) {
            SQLException bad = refused("jdbc:macrodb:h2:mem:bad3;macrodb.replicas=" + value);
            assertEquals(MacroSqlState.INVALID_OPTION, bad.getSQLState());
            assertTrue(bad.getMessage().contains("macrodb.replicas=" + value)
                    && bad.getMessage().contains("from 1 to 64"), bad.getMessage());
        }

        SQLException engine = refused("jdbc:macrodb:derby:memory:shop");
        assertEquals(MacroSqlState.INVALID_URL, engine.getSQLState());
        assertTrue(engine.getMessage().contains("h2:") && engine.getMessage().contains("hsqldb:"), engine.getMessage());

        SQLException remote = refused("jdbc:macrodb:h2:tcp://localhost/shop");
        assertEquals(MacroSqlState.INVALID_URL, remote.getSQLState());

        SQLException unnamed = refused("jdbc:macrodb:h2:mem:");
        assertEquals(MacroSqlState.INVALID_URL, unnamed.getSQLState());
    }

    @Test
    void optionsMayComeAsPropertiesAndTheUrlWins() throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("macrodb.replicas", "3");
        try (Connection c = DriverManager.getConnection("jdbc:macrodb:h2:mem:props1", properties)) {
            assertEquals(3, c.unwrap(MacroCluster.class).replicas().size());
            c.unwrap(MacroCluster.class).shutdown();
        }
        try (Connection c = DriverManager.getConnection("jdbc:macrodb:h2:mem:props2;macrodb.replicas=2", properties)) {
            assertEquals(2, c.unwrap(MacroCluster.class).replicas().size());
            // The same database with other options is refused, not silently given a second set of engines.
            SQLException clash = assertThrows(SQLException.class,
                    () -> DriverManager.getConnection("jdbc:macrodb:h2:mem:props2;macrodb.replicas=4"));
            assertEquals(MacroSqlState.INVALID_OPTION, clash.getSQLState());
            c.unwrap(MacroCluster.class).shutdown();
        }
        properties.setProperty("macrodb.replicas", "zero");
        assertEquals(MacroSqlState.INVALID_OPTION, assertThrows(SQLException.class,
                () -> DriverManager.getConnection("jdbc:macrodb:h2:mem:props3", properties)).getSQLState());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void writesInReadOnlyTransactionsReachNoEngine(Engine engine) throws SQLException {
        try (Connection c = Engine.connect(engine.url(3))) {
            Engine.execute(c, "CREATE TABLE t (id INT PRIMARY KEY)", "CREATE SEQUENCE s", "INSERT INTO t VALUES (1)");
            c.setReadOnly(true);
            for (String write : new String[] {"INSERT INTO t VALUES (2)", "UPDATE t SET id = 3",
                    "DELETE FROM t", "CREATE TABLE u (id INT)", "DROP TABLE t", engine.nextValue("s"),
                    "MERGE INTO t USING (VALUES (5)) AS s(id) ON t.id = s.id WHEN NOT MATCHED THEN INSERT VALUES (5)"}) {
                SQLException e = assertThrows(SQLException.class, () -> Engine.execute(c, write), write);
                assertEquals(MacroSqlState.READ_ONLY_TRANSACTION, e.getSQLState(), write);
            }
            try (PreparedStatement p = c.prepareStatement("INSERT INTO t VALUES (?)")) {
                p.setInt(1, 9);
                assertEquals(MacroSqlState.READ_ONLY_TRANSACTION,
                        assertThrows(SQLException.class, p::executeUpdate).getSQLState());
            }
            c.setAutoCommit(false);
            try (ResultSet rows = c.createStatement().executeQuery("SELECT COUNT(*) FROM t")) {
                rows.next();
                assertEquals(1, rows.getInt(1));
            }
            // Changing read-only mid-transaction is refused; after commit it is fine.
            assertEquals(MacroSqlState.INVALID_TRANSACTION_STATE,
                    assertThrows(SQLException.class, () -> c.setReadOnly(false)).getSQLState());
            c.commit();
            c.setReadOnly(false);
            Engine.execute(c, "INSERT INTO t VALUES (2)");
            c.commit();
            Engine.assertIdenticalAndShutdown(c);
        }
    }

    /**
     * A connection opened straight to a replica's database (bypassing MacroDB) writes rows no slave gets: both engines
     * are captured from the MacroDB session's own record of its rows, with no trigger to refuse anything. Then
     * {@code verify()} says the replicas differ (README, Limits). The slaves are written only by MacroDB's own
     * connections, which are read-only engine connections everywhere else.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aWriteStraightToTheMasterIsFoundByVerify(Engine engine) throws SQLException {
        try (Connection c = Engine.connect(engine.url(2))) {
            Engine.execute(c, "CREATE TABLE t (id INT PRIMARY KEY)");
            MacroCluster cluster = c.unwrap(MacroCluster.class);
            cluster.verify(); // the slave has the table too
            try (Connection direct = DriverManager.getConnection(cluster.replicas().get(0).database())) {
                Engine.execute(direct, "INSERT INTO t VALUES (1)");
            }
            VerificationReport report = cluster.verify();
            assertEquals(java.util.Set.of(1), report.differingReplicas(), report::toString);
            cluster.shutdown();
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void useAfterCloseAndAfterShutdownFailsWith08003(Engine engine) throws SQLException {
        String url = engine.url(2);
        Connection keep = Engine.connect(url);
        Connection c = Engine.connect(url);
        Statement statement = c.createStatement();
        PreparedStatement prepared = c.prepareStatement("VALUES 1".replace("VALUES 1",
                engine == Engine.H2 ? "VALUES 1" : "VALUES (1)"));
        c.close();
        assertTrue(c.isClosed() && statement.isClosed() && prepared.isClosed(), "parents close their children");
        assertEquals(MacroSqlState.CONNECTION_CLOSED,
                assertThrows(SQLException.class, c::createStatement).getSQLState());
        assertEquals(MacroSqlState.CONNECTION_CLOSED,
                assertThrows(SQLException.class, () -> c.setAutoCommit(false)).getSQLState());
        assertEquals(MacroSqlState.OBJECT_CLOSED,
                assertThrows(SQLException.class, () -> statement.executeQuery("SELECT 1")).getSQLState());
        c.close(); // closing twice is harmless

        Engine.execute(keep, "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES (1)");
        Engine.execute(keep, "SHUTDOWN"); // the engine's own SHUTDOWN shuts the whole cluster down
        assertTrue(keep.isClosed());
        assertEquals(MacroSqlState.CONNECTION_CLOSED,
                assertThrows(SQLException.class, keep::createStatement).getSQLState());
        keep.close();
        // The URL starts a fresh cluster afterwards.
        try (Connection again = Engine.connect(url)) {
            assertTrue(again.isValid(1));
            again.unwrap(MacroCluster.class).shutdown();
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void failedStatementsLeaveTheClusterHealthyAndExact(Engine engine) throws SQLException {
        try (Connection c = Engine.connect(engine.url(3))) {
            Engine.execute(c, "CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL)", "INSERT INTO t VALUES (1, 1)");
            for (String bad : new String[] {"INSERT INTO t VALUES (1, 1)", "INSERT INTO t VALUES (2, NULL)",
                    "SELEC 1", "INSERT INTO missing VALUES (1)", "CREATE TABLE t (id INT)"}) {
                assertThrows(SQLException.class, () -> Engine.execute(c, bad), bad);
            }
            assertEquals(MacroSqlState.FEATURE_NOT_SUPPORTED,
                    assertThrows(SQLException.class, () -> Engine.execute(c, "SAVEPOINT x")).getSQLState());
            Engine.execute(c, "INSERT INTO t VALUES (2, 2)");
            c.unwrap(MacroCluster.class).replicas().forEach(r ->
                    assertEquals(io.macrodb.api.ReplicaHealth.HEALTHY, r.health(), r::toString));
            Engine.assertIdenticalAndShutdown(c);
        }
    }

    /**
     * Both engines run a text of several statements separated by semicolons. MacroDB used to classify it by its first
     * statement: a write followed by DDL left the slaves without the table, DDL followed by a write replayed the
     * write's text on them (RAND() and all). Such a text is refused before it runs; one statement with a trailing
     * semicolon or comment, semicolons in strings, quoted names and comments, and a compound trigger body are not.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aTextOfSeveralStatementsIsRefusedBeforeItRuns(Engine engine) throws SQLException {
        try (Connection c = Engine.connect(engine.url(2)); Statement s = c.createStatement()) {
            Engine.execute(c, "CREATE TABLE t (id INT PRIMARY KEY, d DOUBLE, note VARCHAR(20))");
            for (String several : new String[] {"INSERT INTO t VALUES (1, RAND(), 'a'); CREATE TABLE u (id INT)",
                    "CREATE TABLE v (id INT); INSERT INTO t VALUES (2, RAND(), 'b')",
                    "SELECT 1 FROM t; DELETE FROM t",
                    "INSERT INTO t VALUES (3, 0, 'x');INSERT INTO t VALUES (4, 0, 'y')"}) {
                SQLException refused = assertThrows(SQLException.class, () -> s.execute(several), several);
                assertEquals(MacroSqlState.NOT_REPLICABLE, refused.getSQLState(), refused::getMessage);
                assertThrows(SQLException.class, () -> c.prepareStatement(several), several);
            }
            s.execute("INSERT INTO t VALUES (5, 0, 'a;b');");
            s.execute("INSERT INTO t VALUES (6, 0, 'c') ; -- done; really");
            s.execute("INSERT INTO t /* ; */ VALUES (7, 0, 'd') /* the end; */ ;");
            s.execute("INSERT INTO t (id, d, \"NOTE\") VALUES (8, 0, 'e')");
            if (engine == Engine.HSQLDB) {
                s.execute("CREATE TRIGGER twice AFTER INSERT ON t REFERENCING NEW ROW AS n FOR EACH ROW "
                        + "BEGIN ATOMIC UPDATE t SET note = 'x' WHERE id = -1; UPDATE t SET note = 'y' WHERE id = -2; "
                        + "END");
                s.execute("INSERT INTO t VALUES (9, 0, 'f')");
            }
            try (ResultSet rows = s.executeQuery("SELECT COUNT(*) FROM t")) {
                rows.next();
                assertEquals(engine == Engine.HSQLDB ? 5 : 4, rows.getInt(1), "no refused text left a row");
            }
            Engine.assertIdenticalAndShutdown(c);
        }
    }
}
