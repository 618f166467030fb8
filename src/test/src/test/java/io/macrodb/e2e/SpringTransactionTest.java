package io.macrodb.e2e;

import com.zaxxer.hikari.HikariDataSource;
import io.macrodb.api.ClusterMetrics;
import io.macrodb.api.MacroCluster;
import io.macrodb.api.MacroSqlState;
import io.macrodb.api.ReplicaResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MacroDB under Spring's JDBC transactions, as a Spring application sets them up: a HikariCP pool by URL, a
 * {@link DataSourceTransactionManager}, {@link TransactionTemplate}s and a {@link JdbcTemplate}. Spring marks a
 * {@code readOnly} transaction with {@code Connection.setReadOnly(true)} before it begins, which is exactly what
 * routes it to a slave; read-write transactions commit and roll back on the master.
 */
class SpringTransactionTest {

    /** One Spring application over one cluster. */
    private record App(HikariDataSource pool, JdbcTemplate jdbc, TransactionTemplate writes, TransactionTemplate reads)
            implements AutoCloseable {

        static App over(String url, int poolSize) {
            HikariDataSource pool = Pools.hikari(url, poolSize);
            DataSourceTransactionManager transactions = new DataSourceTransactionManager(pool);
            TransactionTemplate reads = new TransactionTemplate(transactions);
            reads.setReadOnly(true);
            return new App(pool, new JdbcTemplate(pool), new TransactionTemplate(transactions), reads);
        }

        MacroCluster cluster() {
            return jdbc.execute((ConnectionCallback<MacroCluster>) c -> c.unwrap(MacroCluster.class));
        }

        long count(String table) {
            return jdbc.queryForObject("SELECT COUNT(*) FROM " + table, Long.class);
        }

        @Override
        public void close() {
            pool.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void readOnlyTransactionsRunOnSlavesAndSeeEveryEarlierCommit(Engine engine) throws SQLException {
        String url = engine.url(3);
        try (App app = App.over(url, 4); Connection busy = Engine.connect(url)) {
            app.jdbc.execute("CREATE TABLE note (id INT PRIMARY KEY, text VARCHAR(40))");
            app.jdbc.execute("CREATE TABLE other (id INT PRIMARY KEY)");
            MacroCluster cluster = app.cluster();
            // An update transaction left open on another table keeps the master busy, so the router never sends a
            // read there (it does when the master is idle and no slave is current yet): every read-only transaction
            // below must run on a slave, right after the commit it must see.
            busy.setAutoCommit(false);
            Engine.execute(busy, "INSERT INTO other VALUES (1)");
            ClusterMetrics before = cluster.metrics();
            int notes = 30;
            for (int i = 1; i <= notes; i++) {
                int id = i;
                app.writes.executeWithoutResult(
                        status -> app.jdbc.update("INSERT INTO note VALUES (?, ?)", id, "n" + id));
                long seen = app.reads.execute(status -> {
                    assertTrue(app.jdbc.execute((ConnectionCallback<Boolean>) Connection::isReadOnly),
                            "Spring marked the connection read-only before the transaction began");
                    return app.count("note");
                });
                assertEquals(id, seen, "a read-only transaction sees every commit made before it began");
            }
            ClusterMetrics after = cluster.metrics();
            assertEquals(Engine.routed(before, 0), Engine.routed(after, 0), "no read-only transaction ran on the busy master");
            assertEquals(notes, Engine.routed(after, 1) + Engine.routed(after, 2) - Engine.routed(before, 1) - Engine.routed(before, 2),
                    "every read-only transaction ran on a slave");
            busy.rollback();
            Engine.assertIdenticalAndShutdown(busy);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void rolledBackTransactionsLeaveNothingOnAnyReplica(Engine engine) throws SQLException {
        try (App app = App.over(engine.url(3), 2)) {
            app.jdbc.execute("CREATE TABLE item (id INT PRIMARY KEY, name VARCHAR(20))");
            app.writes.executeWithoutResult(status -> app.jdbc.update("INSERT INTO item VALUES (1, 'kept')"));
            MacroCluster cluster = app.cluster();
            long committed = cluster.committedVersion();

            assertThrows(IllegalStateException.class, () -> app.writes.executeWithoutResult(status -> {
                app.jdbc.update("INSERT INTO item VALUES (2, 'thrown')");
                app.jdbc.update("UPDATE item SET name = 'changed' WHERE id = 1");
                throw new IllegalStateException("a business rule fails after the writes");
            }));
            app.writes.executeWithoutResult(status -> {
                app.jdbc.update("INSERT INTO item VALUES (3, 'rollback-only')");
                status.setRollbackOnly();
            });
            assertThrows(DuplicateKeyException.class, () -> app.writes.executeWithoutResult(status -> {
                app.jdbc.update("INSERT INTO item VALUES (4, 'before the failure')");
                app.jdbc.update("INSERT INTO item VALUES (1, 'duplicate key')");
            }));
            DataAccessException writeInReadOnly = assertThrows(DataAccessException.class, () -> app.reads
                    .executeWithoutResult(status -> app.jdbc.update("INSERT INTO item VALUES (5, 'read-only')")));
            assertEquals(MacroSqlState.READ_ONLY_TRANSACTION, Engine.sqlState(writeInReadOnly));

            assertEquals(committed, cluster.committedVersion(), "no rolled-back transaction took a version");
            List<ReplicaResult<String>> items = cluster.queryEachReplica(SpringTransactionTest::items);
            assertEquals(3, items.size());
            for (ReplicaResult<String> replica : items) {
                assertEquals("1:kept", replica.value(), "replica " + replica.replica());
            }
            app.close(); // the pool's connections first: a pooled connection cannot be returned after shutdown
            Engine.assertIdenticalAndShutdown(cluster);
        }
    }

    /**
     * Writers move money between accounts through Spring while read-only readers check, on slaves, that the total
     * never changes (every state a slave shows is the master's at some version) and that no reader sees fewer
     * transfers than it saw before.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void concurrentWritersAndReadOnlyReaders(Engine engine) throws Exception {
        int accounts = 10;
        int writers = 4;
        int readers = 2;
        int transfersPerWriter = 50;
        try (App app = App.over(engine.rowLockingUrl(3), writers + readers)) {
            app.jdbc.execute("CREATE TABLE account (id INT PRIMARY KEY, balance BIGINT NOT NULL)");
            app.jdbc.execute("CREATE TABLE transfer (id INT PRIMARY KEY, amount BIGINT NOT NULL)");
            for (int id = 0; id < accounts; id++) {
                app.jdbc.update("INSERT INTO account VALUES (?, 100)", id);
            }
            AtomicInteger transferIds = new AtomicInteger();
            ExecutorService threads = Executors.newFixedThreadPool(writers + readers);
            List<Future<?>> work = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                Random random = new Random(w);
                work.add(threads.submit(() -> {
                    for (int i = 0; i < transfersPerWriter; i++) {
                        int from = random.nextInt(accounts);
                        int to = (from + 1 + random.nextInt(accounts - 1)) % accounts;
                        long amount = 1 + random.nextInt(20);
                        retryingConflicts(() -> app.writes.executeWithoutResult(status -> {
                            // Lower id first: writers lock rows in one order, so they wait for each other, never
                            // deadlock (and time out) on the engines' row locks.
                            String move = "UPDATE account SET balance = balance + ? WHERE id = ?";
                            app.jdbc.update(move, from < to ? -amount : amount, Math.min(from, to));
                            app.jdbc.update(move, from < to ? amount : -amount, Math.max(from, to));
                            app.jdbc.update("INSERT INTO transfer VALUES (?, ?)", transferIds.incrementAndGet(),
                                    amount);
                        }));
                    }
                    return null;
                }));
            }
            for (int r = 0; r < readers; r++) {
                work.add(threads.submit(() -> {
                    long transfersSeen = 0;
                    for (int i = 0; i < 50; i++) {
                        long[] read = app.reads.execute(status -> new long[]{
                                app.jdbc.queryForObject("SELECT SUM(balance) FROM account", Long.class),
                                app.count("transfer")});
                        assertEquals(100L * accounts, read[0], "a read-only transaction sees one consistent state");
                        assertTrue(read[1] >= transfersSeen, "never older than what this reader saw before");
                        transfersSeen = read[1];
                    }
                    return null;
                }));
            }
            for (Future<?> f : work) {
                f.get();
            }
            threads.shutdown();
            assertEquals(writers * transfersPerWriter, app.count("transfer"), "every transfer committed once");
            MacroCluster cluster = app.cluster();
            ClusterMetrics metrics = cluster.metrics();
            assertTrue(Engine.routed(metrics, 1) + Engine.routed(metrics, 2) > 0, "slaves served read-only transactions");
            app.close(); // the pool's connections first: a pooled connection cannot be returned after shutdown
            Engine.assertIdenticalAndShutdown(cluster);
        }
    }

    /** Runs a transaction again when the engine gave up on it for a lock conflict (Spring: a transient failure). */
    private static void retryingConflicts(Runnable transaction) {
        for (int attempt = 1; ; attempt++) {
            try {
                transaction.run();
                return;
            } catch (TransientDataAccessException e) {
                if (attempt == 100) {
                    throw e;
                }
            }
        }
    }

    private static String items(Connection replica) throws SQLException {
        List<String> items = new ArrayList<>();
        try (ResultSet rows = replica.createStatement().executeQuery("SELECT id, name FROM item ORDER BY id")) {
            while (rows.next()) {
                items.add(rows.getInt(1) + ":" + rows.getString(2));
            }
        }
        return String.join(",", items);
    }
}
