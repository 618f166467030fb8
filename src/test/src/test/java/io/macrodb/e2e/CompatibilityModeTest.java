package io.macrodb.e2e;

import io.macrodb.api.MacroCluster;
import io.macrodb.api.ReplicaResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Applications tested against H2 or HSQLDB often run them in another database's compatibility mode (Spring Boot
 * projects that deploy on PostgreSQL test on {@code MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE}, say). Swapping the URL
 * for MacroDB's must keep working in those modes: each case creates its schema with the mode's own syntax (serial
 * and auto-increment keys, the mode's sequence calls and upserts), writes in auto-commit and in a transaction, reads
 * the rows back in a read-only transaction (on a slave), and ends with every replica proven identical.
 *
 * <p>H2's PostgreSQL mode made MacroDB fail to start: H2 creates {@code PG_CATALOG} tables in every database, which
 * MacroDB took for the application's and tried to copy to the slaves.
 */
class CompatibilityModeTest {

    private static final AtomicInteger DATABASES = new AtomicInteger();

    /** One compatibility mode: its URL settings, its DDL, its writes, and the query that reads the rows back. */
    record Mode(String engine, String settings, List<String> schema, List<String> writes, String readBack) {
        @Override
        public String toString() {
            return engine + settings;
        }
    }

    static Stream<Arguments> modes() {
        return Stream.of(
                new Mode("h2", ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH",
                        List.of("CREATE TABLE item (id SERIAL PRIMARY KEY, name TEXT NOT NULL UNIQUE, "
                                        + "price NUMERIC(10,2), added TIMESTAMP DEFAULT now())",
                                "CREATE SEQUENCE ticket"),
                        List.of("INSERT INTO item (name, price) VALUES ('pen', 1.50), ('ink', NULL)",
                                "INSERT INTO item (name, price) VALUES ('pen', 9.99) ON CONFLICT DO NOTHING",
                                "INSERT INTO item (name, price) VALUES ('ticket ' || nextval('ticket'), 2)",
                                "UPDATE item SET price = price * 2 WHERE name = 'pen'"),
                        "SELECT id, name, price FROM item ORDER BY price, id"),
                new Mode("h2", ";MODE=MySQL;DATABASE_TO_LOWER=TRUE",
                        List.of("CREATE TABLE `item` (`id` INT AUTO_INCREMENT PRIMARY KEY, "
                                + "`name` VARCHAR(20) NOT NULL UNIQUE, `qty` INT)"),
                        List.of("INSERT INTO `item` (`name`, `qty`) VALUES ('pen', 1), ('ink', 2)",
                                "INSERT INTO `item` (`name`, `qty`) VALUES ('pen', 5) "
                                        + "ON DUPLICATE KEY UPDATE `qty` = `qty` + 5",
                                "INSERT IGNORE INTO `item` (`name`, `qty`) VALUES ('ink', 99)",
                                "REPLACE INTO `item` (`id`, `name`, `qty`) VALUES (2, 'ink', 7)"),
                        "SELECT `id`, `name`, `qty` FROM `item` ORDER BY `id`"),
                new Mode("h2", ";MODE=MSSQLServer",
                        List.of("CREATE TABLE item (id INT IDENTITY(1,1) PRIMARY KEY, name VARCHAR(20), qty INT)"),
                        List.of("INSERT INTO item (name, qty) VALUES ('pen', 1), ('ink', 2), ('pad', 3)",
                                "DELETE FROM item WHERE id = (SELECT TOP 1 id FROM item ORDER BY qty DESC)"),
                        "SELECT id, name, qty FROM item ORDER BY id"),
                new Mode("h2", ";MODE=Oracle",
                        List.of("CREATE TABLE item (id NUMBER(10) PRIMARY KEY, name VARCHAR2(20), seen DATE)",
                                "CREATE SEQUENCE item_seq"),
                        List.of("INSERT INTO item VALUES (item_seq.NEXTVAL, 'pen', SYSDATE)",
                                "INSERT INTO item SELECT item_seq.NEXTVAL, 'ink', SYSDATE FROM DUAL"),
                        "SELECT id, name, seen FROM item ORDER BY id"),
                new Mode("hsqldb", ";sql.syntax_pgs=true",
                        List.of("CREATE TABLE item (id SERIAL PRIMARY KEY, name VARCHAR(20), price NUMERIC(10,2))",
                                "CREATE SEQUENCE ticket"),
                        List.of("INSERT INTO item (name, price) VALUES ('pen', 1.50), ('ink', NULL)",
                                "INSERT INTO item (name, price) VALUES ('ticket ' || nextval('ticket'), 2)"),
                        "SELECT id, name, price FROM item ORDER BY id"),
                new Mode("hsqldb", ";sql.syntax_mys=true",
                        List.of("CREATE TABLE item (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(20) UNIQUE, "
                                + "qty INT)"),
                        List.of("INSERT INTO item (name, qty) VALUES ('pen', 1), ('ink', 2)",
                                "INSERT INTO item (name, qty) VALUES ('pen', 5) ON DUPLICATE KEY UPDATE qty = qty + 5",
                                "REPLACE INTO item (id, name, qty) VALUES (2, 'ink', 7)"),
                        "SELECT id, name, qty FROM item ORDER BY id"),
                new Mode("hsqldb", ";sql.syntax_ora=true",
                        List.of("CREATE TABLE item (id NUMBER(10) PRIMARY KEY, name VARCHAR2(20))",
                                "CREATE SEQUENCE item_seq"),
                        List.of("INSERT INTO item VALUES (item_seq.NEXTVAL, 'pen')",
                                "INSERT INTO item SELECT item_seq.NEXTVAL, 'ink' FROM DUAL"),
                        "SELECT id, name FROM item ORDER BY id")
        ).map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modes")
    void applicationsInACompatibilityModeWorkUnchanged(Mode mode) throws SQLException {
        String database = mode.engine() + ":mem:compat" + DATABASES.incrementAndGet() + mode.settings();
        List<List<String>> alone = runOn("jdbc:" + database, mode);
        try (Connection macro = DriverManager.getConnection("jdbc:macrodb:" + database + ";macrodb.replicas=3")) {
            MacroCluster cluster = macro.unwrap(MacroCluster.class);
            List<List<String>> throughMacroDb = runOn(macro, mode);
            assertEquals(alone, throughMacroDb, "MacroDB gives the rows the engine alone gives");
            for (ReplicaResult<List<List<String>>> replica : cluster.queryEachReplica(c -> rows(c, mode.readBack()))) {
                assertEquals(throughMacroDb, replica.value(), "replica " + replica.replica() + " holds the same rows");
            }
            Engine.assertIdenticalAndShutdown(cluster);
        }
    }

    /**
     * {@code INSERT ... ON DUPLICATE KEY UPDATE} draws an identity value for the row it means to insert, then updates
     * the existing row instead: the master's counter moves, and the slaves see only an update. Alone in its
     * transaction, so nothing else of it carries the counter over. ({@code verify()} compares identity counters on
     * H2; HSQLDB does not expose them, see the README's Limits.)
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"h2:mem:upsert%d;MODE=MySQL",
            "hsqldb:mem:upsert%d;sql.syntax_mys=true"})
    void anUpsertThatUpdatedStillMovesTheIdentityCounterEverywhere(String database) throws SQLException {
        String url = "jdbc:macrodb:" + database.formatted(DATABASES.incrementAndGet()) + ";macrodb.replicas=2";
        try (Connection c = DriverManager.getConnection(url)) {
            Engine.execute(c, "CREATE TABLE item (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(20) UNIQUE, qty INT)",
                    "INSERT INTO item (name, qty) VALUES ('pen', 1)",
                    "INSERT INTO item (name, qty) VALUES ('pen', 5) ON DUPLICATE KEY UPDATE qty = qty + 5");
            Engine.assertIdenticalAndShutdown(c); // the counters too: the update's identity draw reached the slave
        }
    }

    /**
     * A compatibility mode switched on at run time ({@code SET MODE MySQL}, {@code SET DATABASE SQL SYNTAX ORA TRUE}:
     * a schema script may begin so) is the database's, not the session's. It used to stay on the master: the slaves
     * then failed at the first DDL written for it. It is now replicated as DDL is, and a slave copied later gets it.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Engine.class)
    void aModeSetAtRunTimeReachesEverySlave(Engine engine) throws Exception {
        try (Connection c = Engine.connect(engine.url(3))) {
            MacroCluster cluster = c.unwrap(MacroCluster.class);
            if (engine == Engine.H2) {
                Engine.execute(c, "SET MODE MySQL", "CREATE TABLE a (id INT PRIMARY KEY, v VARCHAR(10)) ENGINE=InnoDB");
            } else {
                Engine.execute(c, "SET DATABASE SQL SYNTAX ORA TRUE",
                        "CREATE TABLE a (id INT PRIMARY KEY, v VARCHAR2(10))");
            }
            Engine.execute(c, "INSERT INTO a VALUES (1, 'x')");
            cluster.rebuildReplica(2); // copied from slave 1: the mode must come with the copy
            Engine.execute(c, engine == Engine.H2
                    ? "CREATE TABLE b (id INT PRIMARY KEY) ENGINE=InnoDB"
                    : "CREATE TABLE b (id INT PRIMARY KEY, v VARCHAR2(5))");
            Engine.execute(c, "INSERT INTO b (id) VALUES (1)");
            if (engine == Engine.H2) { // later tables' text columns ignore case, on every replica, the copy included
                Engine.execute(c, "SET IGNORECASE TRUE");
                cluster.rebuildReplica(1);
                Engine.execute(c, "CREATE TABLE c (v VARCHAR(5))", "INSERT INTO c VALUES ('A')");
                for (ReplicaResult<List<List<String>>> replica : cluster.queryEachReplica(r -> rows(r,
                        "SELECT DATA_TYPE FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_NAME = 'C'"))) {
                    assertEquals(List.of(List.of("VARCHAR_IGNORECASE")), replica.value(),
                            "replica " + replica.replica());
                }
            }
            cluster.verify();
            assertEquals(engine == Engine.H2 ? 2 : 1, cluster.metrics().failures(),
                    "no slave failed (those counted are the slaves replaced)");
            Engine.assertIdenticalAndShutdown(c);
        }
    }

    /** Runs the mode's work on a fresh connection to {@code url} (the engine alone, for the expected rows). */
    private static List<List<String>> runOn(String url, Mode mode) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url)) {
            List<List<String>> rows = runOn(connection, mode);
            Engine.execute(connection, "SHUTDOWN");
            return rows;
        }
    }

    /**
     * Schema in auto-commit; the first write in auto-commit, the rest in one transaction; then the rows read in a
     * read-only transaction. Times read back only as present or null (they differ from the engine alone's run);
     * {@code verify()} compares them between replicas.
     */
    private static List<List<String>> runOn(Connection connection, Mode mode) throws SQLException {
        Engine.execute(connection, mode.schema().toArray(String[]::new));
        Engine.execute(connection, mode.writes().get(0));
        connection.setAutoCommit(false);
        Engine.execute(connection, mode.writes().subList(1, mode.writes().size()).toArray(String[]::new));
        connection.commit();
        connection.setReadOnly(true);
        List<List<String>> rows = rows(connection, mode.readBack());
        connection.commit();
        connection.setReadOnly(false);
        connection.setAutoCommit(true);
        assertTrue(rows.size() >= 2, "the writes left rows: " + rows);
        return rows;
    }

    private static List<List<String>> rows(Connection connection, String query) throws SQLException {
        List<List<String>> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(query)) {
            ResultSetMetaData columns = result.getMetaData();
            while (result.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= columns.getColumnCount(); i++) {
                    boolean timestamp = columns.getColumnType(i) == java.sql.Types.TIMESTAMP
                            || columns.getColumnType(i) == java.sql.Types.DATE;
                    row.add(timestamp ? (result.getObject(i) == null ? "null" : "a time") : result.getString(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }
}
