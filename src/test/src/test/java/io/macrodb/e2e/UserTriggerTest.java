package io.macrodb.e2e;

import io.macrodb.api.MacroCluster;
import org.h2.api.Trigger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The application's own triggers run on the master only, and their effects reach the slaves with the transaction
 * that fired them: a value a BEFORE trigger puts into the new row (one that differs per call, so a slave computing it
 * again would differ), the rows an AFTER trigger writes into another table (with an identity column and a sequence
 * draw, whose counters must follow). If a slave ran the triggers too, every audit row would be there twice and the
 * stamps would differ: {@code verify()} and the row counts would fail. A slave promoted to master fires them from
 * then on; a slave copied from the master does not get them; a dropped trigger stays dropped, through a promotion.
 */
class UserTriggerTest {

    /** H2: the BEFORE trigger, stamping each new or changed row with a value no other replica could compute. */
    public static final class Stamp implements Trigger {
        @Override
        public void fire(Connection connection, Object[] oldRow, Object[] newRow) {
            newRow[2] = "stamp-" + System.nanoTime();
        }
    }

    /** H2: the AFTER trigger, writing an audit row per change through the session's own connection. */
    public static final class Audit implements Trigger {
        @Override
        public void fire(Connection connection, Object[] oldRow, Object[] newRow) throws SQLException {
            String what = oldRow == null ? "insert" : newRow == null ? "delete" : "update";
            Object account = newRow == null ? oldRow[0] : newRow[0];
            try (PreparedStatement audit = connection.prepareStatement(
                    "INSERT INTO audit (account_id, seq, what) VALUES (?, NEXT VALUE FOR audit_seq, ?)")) {
                audit.setObject(1, account);
                audit.setString(2, what);
                audit.executeUpdate();
            }
        }
    }

    private static final List<String> AUDIT_TRIGGERS_H2 = List.of(
            "CREATE TRIGGER audit_all AFTER INSERT, UPDATE, DELETE ON account FOR EACH ROW CALL \""
                    + Audit.class.getName() + "\"");
    private static final List<String> AUDIT_TRIGGERS_HSQLDB = List.of(
            "CREATE TRIGGER audit_i AFTER INSERT ON account REFERENCING NEW ROW AS n FOR EACH ROW "
                    + "INSERT INTO audit (account_id, seq, what) VALUES (n.id, NEXT VALUE FOR audit_seq, 'insert')",
            "CREATE TRIGGER audit_u AFTER UPDATE ON account REFERENCING NEW ROW AS n FOR EACH ROW "
                    + "INSERT INTO audit (account_id, seq, what) VALUES (n.id, NEXT VALUE FOR audit_seq, 'update')",
            "CREATE TRIGGER audit_d AFTER DELETE ON account REFERENCING OLD ROW AS o FOR EACH ROW "
                    + "INSERT INTO audit (account_id, seq, what) VALUES (o.id, NEXT VALUE FOR audit_seq, 'delete')");

    private static void createSchema(Connection c, Engine engine) throws SQLException {
        Engine.execute(c, "CREATE TABLE account (id INT PRIMARY KEY, balance INT, touched VARCHAR(40))",
                "CREATE SEQUENCE audit_seq",
                "CREATE TABLE audit (id " + engine.identityType + " PRIMARY KEY, account_id INT, seq BIGINT, "
                        + "what VARCHAR(10))");
        if (engine == Engine.H2) {
            Engine.execute(c, "CREATE TRIGGER stamp BEFORE INSERT, UPDATE ON account FOR EACH ROW CALL \""
                    + Stamp.class.getName() + "\"");
        } else {
            for (String event : List.of("INSERT", "UPDATE")) {
                Engine.execute(c, "CREATE TRIGGER stamp_" + event.charAt(0) + " BEFORE " + event + " ON account "
                        + "REFERENCING NEW ROW AS n FOR EACH ROW "
                        + "SET n.touched = 'stamp-' || CAST(RAND() AS VARCHAR(30))");
            }
        }
        for (String audit : auditTriggers(engine)) {
            Engine.execute(c, audit);
        }
    }

    private static List<String> auditTriggers(Engine engine) {
        return engine == Engine.H2 ? AUDIT_TRIGGERS_H2 : AUDIT_TRIGGERS_HSQLDB;
    }

    /**
     * Inserts {@code count} accounts from {@code first}, updates the first half of them and deletes a fifth, in a
     * few transactions, with a statement that fails halfway (its trigger's rows go with it); returns the number of
     * row changes, one audit row each.
     */
    private static int changeAccounts(Connection c, int first, int count) throws SQLException {
        c.setAutoCommit(false);
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO account (id, balance) VALUES (?, ?)")) {
            for (int i = first; i < first + count; i++) {
                insert.setInt(1, i);
                insert.setInt(2, 100);
                insert.executeUpdate();
            }
        }
        c.commit();
        try (Statement s = c.createStatement()) {
            int updated = s.executeUpdate("UPDATE account SET balance = balance + 1 WHERE id < " + (first + count / 2)
                    + " AND id >= " + first);
            // A duplicate key after the first row of a multi-row insert: the statement fails as a whole.
            String duplicate = "INSERT INTO account (id, balance) VALUES (" + (first + count + 1000) + ", 1), ("
                    + first + ", 1)";
            assertThrows(SQLException.class, () -> s.executeUpdate(duplicate));
            c.commit();
            int deleted = s.executeUpdate("DELETE FROM account WHERE id >= " + first + " AND id < "
                    + (first + count / 5));
            c.commit();
            c.setAutoCommit(true);
            return count + updated + deleted;
        }
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rows = s.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    /** The audit rows, read on the master and in a read-only transaction (on a slave): both {@code expected}. */
    private static void assertAudited(Connection c, long expected) throws SQLException {
        c.unwrap(MacroCluster.class).verify(); // every slave caught up, so a read-only transaction is not kept waiting
        assertEquals(expected, count(c, "SELECT COUNT(*) FROM audit"), "audit rows on the master");
        c.setReadOnly(true);
        try {
            assertEquals(expected, count(c, "SELECT COUNT(*) FROM audit"), "audit rows on a slave");
            assertEquals(0, count(c, "SELECT COUNT(*) FROM account WHERE touched IS NULL"), "every row stamped");
        } finally {
            c.setReadOnly(false);
        }
    }

    /** The triggers in a replica's own database: the application's (MacroDB has none). */
    private static long userTriggersOn(MacroCluster cluster, int replica) throws SQLException {
        String database = cluster.replicas().stream().filter(r -> r.index() == replica).findFirst().orElseThrow()
                .database();
        try (Connection raw = DriverManager.getConnection(database)) {
            return count(raw, "SELECT COUNT(DISTINCT TRIGGER_NAME) FROM INFORMATION_SCHEMA.TRIGGERS");
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void triggersRunOnTheMasterAndTheirEffectsReplicate(Engine engine) throws Exception {
        try (Connection c = Engine.connect(engine.url(3))) {
            MacroCluster cluster = c.unwrap(MacroCluster.class);
            createSchema(c, engine);
            long triggers = userTriggersOn(cluster, 0);
            assertEquals(engine == Engine.H2 ? 2 : 5, triggers, "the master has the triggers");
            assertEquals(0, userTriggersOn(cluster, 1), "a slave has none");
            if (engine == Engine.H2) {
                Engine.execute(c, "COMMENT ON TRIGGER stamp IS 'stamps rows'"); // master only, as the trigger
            }

            long audited = changeAccounts(c, 0, 40);
            assertAudited(c, audited);
            Engine.assertIdentical(cluster);

            cluster.failReplica(0); // a slave takes over, and must fire the triggers from now on
            // The failed master's replacement is copied from a slave meanwhile; verify() would wait for that paused
            // slave while holding commits, which the copy's hand-over needs (README, Limits): let it finish first.
            Engine.awaitAllHealthy(cluster, 3);
            assertEquals(triggers, userTriggersOn(cluster, cluster.replicas().stream()
                    .filter(r -> r.role() == io.macrodb.api.ReplicaRole.MASTER).findFirst().orElseThrow().index()));
            audited += changeAccounts(c, 100, 40);
            assertAudited(c, audited);
            Engine.assertIdentical(cluster);

            for (String audit : engine == Engine.H2 ? List.of("audit_all") : List.of("audit_i", "audit_u", "audit_d")) {
                Engine.execute(c, "DROP TRIGGER " + audit);
            }
            changeAccounts(c, 200, 10); // not audited any more, but still stamped
            assertAudited(c, audited);
            Engine.assertIdenticalAndShutdown(c);
        }
    }

    /** With no other slave, a slave is copied from the master, whose triggers it must leave behind. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aSlaveCopiedFromTheMasterGetsNoTriggers(Engine engine) throws Exception {
        try (Connection c = Engine.connect(engine.url(2))) {
            MacroCluster cluster = c.unwrap(MacroCluster.class);
            createSchema(c, engine);
            long audited = changeAccounts(c, 0, 20);
            cluster.rebuildReplica(1);
            long failures = cluster.metrics().failures(); // the slave replaced counts as one
            assertEquals(0, userTriggersOn(cluster, 1), "the copy has no trigger of the application's");
            audited += changeAccounts(c, 100, 20);
            assertAudited(c, audited);
            assertEquals(failures, cluster.metrics().failures(), "no slave failed to apply what the triggers did");
            Engine.assertIdenticalAndShutdown(c);
        }
    }

    /**
     * MacroDB's trigger names are not the application's. MacroDB once captured writes with triggers of those names
     * (H2 until 2026-11-29, HSQLDB until 2026-11-27); a cluster starting on a file database that still holds some
     * drops them, so an application's trigger named like one would be dropped too: trigger DDL naming one is refused.
     * Neither engine has capture triggers now (both are captured from the engine's own record of the transaction).
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void triggersNamedLikeMacroDbsAreRefused(Engine engine) throws Exception {
        try (Connection c = Engine.connect(engine.url(2))) {
            Engine.execute(c, "CREATE TABLE t (id INT PRIMARY KEY, v INT, touched VARCHAR(40))",
                    "INSERT INTO t VALUES (1, 1, NULL)");
            assertEquals(List.of("0"), Engine.rows(c, "SELECT COUNT(*) FROM INFORMATION_SCHEMA.TRIGGERS"));
            String imitation = engine == Engine.H2
                    ? "CREATE TRIGGER macrodb_stamp BEFORE INSERT ON t FOR EACH ROW CALL \"" + Stamp.class.getName()
                    + "\""
                    : "CREATE TRIGGER macrodb_stamp BEFORE INSERT ON t REFERENCING NEW ROW AS n FOR EACH ROW "
                    + "SET n.touched = 'stamped'";
            for (String name : List.of("macrodb_stamp", "U&\"\\006Dacrodb_stamp\"")) {
                SQLException refused = assertThrows(SQLException.class,
                        () -> Engine.execute(c, imitation.replace("macrodb_stamp", name)));
                assertEquals("0AM01", refused.getSQLState(), refused::getMessage);
            }
            Engine.execute(c, imitation.replace("macrodb_stamp", "stamp"), "INSERT INTO t VALUES (2, 2, NULL)",
                    "UPDATE t SET v = 4 WHERE id = 1", "DELETE FROM t WHERE id = 2");
            Engine.assertIdenticalAndShutdown(c);
        }
    }
}
