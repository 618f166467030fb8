package io.macrodb.e2e;

import io.macrodb.api.MacroCluster;
import io.macrodb.api.ReplicaStatus;
import org.h2.engine.SessionLocal;
import org.h2.index.Cursor;
import org.h2.index.Index;
import org.h2.jdbc.JdbcConnection;
import org.h2.result.Row;
import org.h2.result.SearchRow;
import org.h2.table.Table;
import org.h2.value.Value;
import org.h2.value.ValueInteger;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * On H2 every slave stores the rows the master stores, the same objects: the row object itself (with its value array
 * and its key) for an inserted or updated row, and the index entries of an inserted row, which the slaves share among
 * themselves. This is what keeps a cluster's memory well under one copy per replica; a change that made slaves build
 * their own rows or entries again (SQL instead of H2's table API, a converted capture) fails here.
 */
class H2SharedRowsTest {

    private static final int REPLICAS = 3;

    @Test
    void everySlaveStoresTheMastersRowsAndTheSlavesShareIndexEntries() throws Exception {
        try (Connection c = Engine.connect(Engine.H2.url(REPLICAS))) {
            Engine.execute(c, "CREATE TABLE item (id INT PRIMARY KEY, name VARCHAR(20), price DECIMAL(8, 2), "
                            + "added TIMESTAMP)",
                    "CREATE TABLE stock (w INT, i INT, qty INT, info CHAR(10), PRIMARY KEY (w, i))",
                    "CREATE INDEX stock_qty ON stock (qty)");
            c.setAutoCommit(false);
            try (PreparedStatement item = c.prepareStatement("INSERT INTO item VALUES (?, ?, ?, LOCALTIMESTAMP)");
                 PreparedStatement stock = c.prepareStatement("INSERT INTO stock VALUES (?, ?, ?, ?)")) {
                for (int i = 1; i <= 50; i++) {
                    item.setInt(1, i);
                    item.setString(2, "item " + i);
                    item.setBigDecimal(3, java.math.BigDecimal.valueOf(i, 2));
                    item.addBatch();
                    stock.setInt(1, i % 2);
                    stock.setInt(2, i);
                    stock.setInt(3, i * 10);
                    stock.setString(4, "s" + i);
                    stock.addBatch();
                }
                item.executeBatch();
                stock.executeBatch();
            }
            c.commit();
            Engine.execute(c, "UPDATE stock SET qty = qty - 1 WHERE i <= 10", "DELETE FROM item WHERE id = 50");
            c.commit();
            MacroCluster cluster = c.unwrap(MacroCluster.class);
            Engine.assertIdenticalAndNoneFailed(cluster); // every slave has applied all of it

            Map<List<Value>, Row> masterItems = rows(cluster, 0, "ITEM");
            Map<List<Value>, Row> masterStock = rows(cluster, 0, "STOCK");
            assertEquals(49, masterItems.size());
            for (int replica = 1; replica < REPLICAS; replica++) {
                Map<List<Value>, Row> items = rows(cluster, replica, "ITEM");
                assertEquals(masterItems.keySet(), items.keySet());
                masterItems.forEach((key, row) -> assertSame(row, items.get(key),
                        "an inserted row is the master's own row object"));
                Map<List<Value>, Row> stock = rows(cluster, replica, "STOCK");
                assertEquals(masterStock.keySet(), stock.keySet());
                masterStock.forEach((key, row) -> assertSame(row, stock.get(key),
                        "an updated row is the master's own row object, and keeps its key"));
            }
            // STOCK's key is two columns: H2 keeps it in a secondary index, as STOCK_QTY. The slaves store the same
            // entries, but for STOCK_QTY's of the rows the update changed (updated through H2's own updateRow).
            for (String index : List.of(PRIMARY_KEY, "STOCK_QTY")) {
                Map<Long, SearchRow> first = indexEntries(cluster, 1, "STOCK", index);
                Map<Long, SearchRow> second = indexEntries(cluster, 2, "STOCK", index);
                assertEquals(50, first.size(), index);
                assertEquals(first.keySet(), second.keySet(), index);
                first.forEach((rowKey, entry) -> {
                    boolean updated = index.equals("STOCK_QTY") && entry.getValue(2).getInt() % 10 != 0; // QTY
                    if (!updated) {
                        assertSame(entry, second.get(rowKey), index + ": the slaves share an inserted row's entry");
                    }
                });
            }
            Engine.assertIdenticalAndShutdown(c);
        }
    }

    /**
     * H2 takes 'abc' and 'ABC' for equal in a VARCHAR_IGNORECASE column; an update from one to the other still
     * changes what the row holds, and every slave must hold it too, whether it writes the row through H2's table API
     * or with SQL, which sets only the columns that changed (a table with a LOB column).
     */
    @Test
    void anUpdateOfLetterCaseAloneReachesEverySlave() throws Exception {
        try (Connection c = Engine.connect(Engine.H2.url(REPLICAS))) {
            for (String table : List.of("person", "person_with_photo")) {
                Engine.execute(c, "CREATE TABLE " + table + " (id INT PRIMARY KEY, name VARCHAR_IGNORECASE(20)"
                                + (table.endsWith("photo") ? ", photo BLOB)" : ")"),
                        "INSERT INTO " + table + " (id, name) VALUES (1, 'ada lovelace')",
                        "UPDATE " + table + " SET name = 'Ada Lovelace' WHERE id = 1");
            }
            MacroCluster cluster = c.unwrap(MacroCluster.class);
            Engine.assertIdenticalAndNoneFailed(cluster);
            for (int replica = 1; replica < REPLICAS; replica++) {
                try (Connection slave = DriverManager.getConnection(cluster.replicas().get(replica).database())) {
                    assertEquals(List.of("1 Ada Lovelace"), Engine.rows(slave, "SELECT id, name FROM person"));
                    assertEquals(List.of("1 Ada Lovelace"),
                            Engine.rows(slave, "SELECT id, name FROM person_with_photo"));
                }
            }
            Engine.assertIdenticalAndShutdown(c);
        }
    }

    /**
     * A rebuilt slave is copied from a replica that stands still and shares that replica's stored rows and index
     * entries, instead of holding a copy of every value (as it did when the copy went through JDBC). A keyed table's
     * rows are the master's own, on every slave; a keyless table is applied through SQL, so each slave that applied it
     * holds its own rows, and a slave copied from it shares those. A table with a LOB column is still copied through
     * JDBC, and writes after the rebuilds reach every replica alike.
     *
     * <p>Objects are compared with their copy source, not with equal values found elsewhere: H2 caches small values
     * (Value.cache), so two replicas that built "the same" value apart may still hold one object, by chance. The
     * first version of this test compared a keyless table's values with the master's, and passed only while that
     * cache held them (it failed in CI, 2026-11-23).
     */
    @Test
    void aRebuiltSlaveSharesTheRowsItIsCopiedWith() throws Exception {
        try (Connection c = Engine.connect(Engine.H2.url(REPLICAS))) {
            Engine.execute(c, "CREATE TABLE item (id INT PRIMARY KEY, name VARCHAR(20), added TIMESTAMP)",
                    "CREATE INDEX item_name ON item (name)",
                    "CREATE TABLE note (id INT GENERATED BY DEFAULT AS IDENTITY, txt VARCHAR_IGNORECASE(20))",
                    "CREATE TABLE photo (id INT PRIMARY KEY, img BLOB)",
                    "INSERT INTO item SELECT X, 'item ' || X, LOCALTIMESTAMP FROM SYSTEM_RANGE(1, 30)",
                    "INSERT INTO note (txt) SELECT 'note ' || X FROM SYSTEM_RANGE(1, 20)",
                    "INSERT INTO photo VALUES (1, X'CAFE')",
                    "UPDATE item SET name = 'changed' WHERE id <= 5");
            MacroCluster cluster = c.unwrap(MacroCluster.class);
            Engine.assertIdenticalAndNoneFailed(cluster);
            cluster.rebuildReplica(1); // copied from slave 2, the only healthy slave
            assertSharesStoredRows(cluster, 1, 2, "ITEM", "NOTE");
            assertSharesIndexEntries(cluster, 1, 2, "ITEM", "ITEM_NAME");
            cluster.rebuildReplica(2); // copied from the rebuilt slave 1
            assertSharesStoredRows(cluster, 2, 1, "ITEM", "NOTE");
            assertSharesIndexEntries(cluster, 2, 1, "ITEM", "ITEM_NAME");
            assertSharesStoredRows(cluster, 1, 0, "ITEM");
            assertSharesStoredRows(cluster, 2, 0, "ITEM");
            Engine.execute(c, "INSERT INTO note (txt) VALUES ('after')", "UPDATE item SET name = 'again'",
                    "INSERT INTO photo VALUES (2, X'BEEF')");
            assertEquals(List.of("21 after"), Engine.rows(c, "SELECT id, txt FROM note WHERE id > 20"));
            Engine.assertIdenticalAndShutdown(c);
        }
    }

    /** Replica {@code copy} stores, in each of {@code tables}, the very row objects replica {@code source} does. */
    private static void assertSharesStoredRows(MacroCluster cluster, int copy, int source, String... tables)
            throws SQLException {
        for (String table : tables) {
            Map<List<Value>, Row> expected = storedRows(cluster, source, table);
            Map<List<Value>, Row> actual = storedRows(cluster, copy, table);
            assertEquals(expected.keySet(), actual.keySet(), table);
            expected.forEach((values, row) -> assertSame(row, actual.get(values),
                    table + ": replica " + copy + " holds replica " + source + "'s own row objects"));
        }
    }

    /** Replica {@code copy} stores, in {@code table}'s {@code index}, the very entries replica {@code source} does. */
    private static void assertSharesIndexEntries(MacroCluster cluster, int copy, int source, String table,
                                                 String index) throws SQLException {
        Map<Long, SearchRow> expected = indexEntries(cluster, source, table, index);
        Map<Long, SearchRow> actual = indexEntries(cluster, copy, table, index);
        assertEquals(expected.keySet(), actual.keySet(), index);
        expected.forEach((key, entry) -> assertSame(entry, actual.get(key),
                index + ": replica " + copy + " holds replica " + source + "'s own index entries"));
    }

    /** A replica's stored rows of {@code table} (schema PUBLIC; no two alike), by their values. */
    private static Map<List<Value>, Row> storedRows(MacroCluster cluster, int replica, String table)
            throws SQLException {
        try (Connection connection = DriverManager.getConnection(cluster.replicas().get(replica).database())) {
            SessionLocal session = (SessionLocal) connection.unwrap(JdbcConnection.class).getSession();
            Table found = session.getDatabase().getSchema("PUBLIC").findTableOrView(session, table);
            assertNotNull(found, table);
            Map<List<Value>, Row> rows = new HashMap<>();
            Cursor cursor = found.getScanIndex(session).find(session, null, null, false);
            while (cursor.next()) {
                rows.put(List.of(cursor.get().getValueList()), cursor.get());
            }
            return rows;
        }
    }

    record Point(int x, int y) implements java.io.Serializable {
    }

    /**
     * A table without a key is left to SQL, matched on its old values as plain Java values, which its capture makes
     * of H2's own without a connection at hand: a serialized Java object among them too.
     */
    @Test
    void aTableWithoutAKeyGoesThroughSqlWithEveryKindOfValue() throws Exception {
        try (Connection c = Engine.connect(Engine.H2.url(REPLICAS))) {
            Engine.execute(c, "CREATE TABLE loose (id INT, obj JAVA_OBJECT, tags VARCHAR(10) ARRAY, doc JSON, "
                    + "at TIMESTAMP WITH TIME ZONE)");
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO loose VALUES (?, ?, ?, ? FORMAT JSON, "
                    + "TIMESTAMP WITH TIME ZONE '2026-11-23 10:00:00+02:00')")) {
                for (int i = 1; i <= 3; i++) {
                    insert.setInt(1, i);
                    insert.setObject(2, i == 2 ? null : new Point(i, -i)); // a NULL is matched with IS NULL
                    insert.setArray(3, c.createArrayOf("VARCHAR", new Object[]{"t" + i, "x"}));
                    insert.setString(4, "{\"n\":" + i + "}");
                    insert.executeUpdate();
                }
            }
            Engine.execute(c, "UPDATE loose SET id = 20 WHERE id = 2", "DELETE FROM loose WHERE id = 3");
            MacroCluster cluster = c.unwrap(MacroCluster.class);
            Engine.assertIdenticalAndNoneFailed(cluster);
            assertEquals(List.of("1", "20"), Engine.rows(c, "SELECT id FROM loose ORDER BY id"));
            Engine.assertIdenticalAndShutdown(c);
        }
    }

    /**
     * A slave whose table gave a row another key than the master's stores its own row object there, and finds the
     * row to update by its primary key, not by the master's key for it; and an insert whose key is already taken on
     * a slave stores a row of the slave's own with a key of its own, instead of failing the slave; the master's rows
     * keep their keys. Keys differ here because a test connection wrote to a
     * slave behind MacroDB's back (which {@code verify()} would report until that row is gone again).
     */
    @Test
    void aSlaveWhoseKeysDifferStoresRowsOfItsOwn() throws Exception {
        try (Connection c = Engine.connect(Engine.H2.url(REPLICAS))) {
            Engine.execute(c, "CREATE TABLE pair (a INT, b INT, v INT, PRIMARY KEY (a, b))",
                    "INSERT INTO pair VALUES (1, 1, 0)");
            MacroCluster cluster = c.unwrap(MacroCluster.class);
            Engine.assertIdenticalAndNoneFailed(cluster);
            try (Connection slave = DriverManager.getConnection(cluster.replicas().get(1).database())) {
                Engine.execute(slave, "INSERT INTO pair VALUES (9, 9, 0)"); // takes key 2 on slave 1
                Engine.execute(c, "INSERT INTO pair VALUES (2, 2, 0)"); // key 2 on the master and slave 2
                // Slave 1 looks up the row the master has at key 2 and finds (9, 9) there, not (2, 2): by its key.
                Engine.execute(c, "UPDATE pair SET v = 1 WHERE a = 2");
                awaitCaughtUp(cluster);
                Engine.execute(slave, "DELETE FROM pair WHERE a = 9");
            }
            Engine.assertIdenticalAndNoneFailed(cluster);
            assertEquals(List.of("1 1", "2 2"), Engine.rows(c, "SELECT a, _ROWID_ FROM pair ORDER BY a"));
            Row master = rows(cluster, 0, "PAIR").get(List.of(ValueInteger.get(2), ValueInteger.get(2)));
            assertSame(master, rows(cluster, 2, "PAIR").get(List.of(ValueInteger.get(2), ValueInteger.get(2))));
            Row own = rows(cluster, 1, "PAIR").get(List.of(ValueInteger.get(2), ValueInteger.get(2)));
            assertNotSame(master, own, "slave 1 gave the row key 3: a row object of its own");
            assertEquals(List.of(master.getValueList()), List.of(own.getValueList()));
            Engine.assertIdenticalAndShutdown(c);
        }
    }

    /** Waits until every slave has applied all the master committed. */
    private static void awaitCaughtUp(MacroCluster cluster) throws InterruptedException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (cluster.replicas().stream().mapToLong(ReplicaStatus::version).distinct().count() > 1) {
            assertTrue(System.nanoTime() < deadline, () -> "slaves not caught up: " + cluster.replicas());
            Thread.sleep(5);
        }
    }

    private static final String PRIMARY_KEY = "primary key";

    /**
     * A replica's entries of {@code table}'s index {@code index} ({@link #PRIMARY_KEY} for its primary key's; schema
     * PUBLIC), as stored, by their row's key.
     */
    private static Map<Long, SearchRow> indexEntries(MacroCluster cluster, int replica, String table, String index)
            throws SQLException {
        try (Connection connection = DriverManager.getConnection(cluster.replicas().get(replica).database())) {
            SessionLocal session = (SessionLocal) connection.unwrap(JdbcConnection.class).getSession();
            Table owner = session.getDatabase().getSchema("PUBLIC").findTableOrView(session, table);
            Index found = index.equals(PRIMARY_KEY) ? owner.getPrimaryKey() : owner.getIndex(index);
            Map<Long, SearchRow> entries = new HashMap<>();
            Cursor cursor = found.find(session, null, null, false);
            while (cursor.next()) {
                entries.put(cursor.getSearchRow().getKey(), cursor.getSearchRow());
            }
            return entries;
        }
    }

    /** A replica's rows of {@code table} (schema PUBLIC), as stored, by their primary key values. */
    private static Map<List<Value>, Row> rows(MacroCluster cluster, int replica, String table) throws SQLException {
        try (Connection connection = DriverManager.getConnection(cluster.replicas().get(replica).database())) {
            SessionLocal session = (SessionLocal) connection.unwrap(JdbcConnection.class).getSession();
            Table found = session.getDatabase().getSchema("PUBLIC").findTableOrView(session, table);
            assertNotNull(found, table);
            int[] key = java.util.Arrays.stream(found.getPrimaryKey().getColumns())
                    .mapToInt(org.h2.table.Column::getColumnId).toArray();
            Map<List<Value>, Row> rows = new HashMap<>();
            Cursor cursor = found.getScanIndex(session).find(session, null, null, false);
            while (cursor.next()) {
                Row row = cursor.get();
                rows.put(java.util.Arrays.stream(key).mapToObj(row::getValue).toList(), row);
            }
            return rows;
        }
    }
}
