package io.macrodb.runtime.engine.h2;

import org.h2.engine.SessionLocal;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.tx.Transaction;
import org.h2.mvstore.tx.TransactionStore;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.sql.Connection;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link H2UndoLog#read} reads a transaction's records where they are: merged into the log's pages, still in its
 * append buffer (a page's worth, 48), or both, as H2's own public reading of the log ({@code Transaction.getChanges},
 * which merges the buffer first) finds them; and where it cannot reach the buffer, merging it first as that does.
 * Another thread may merge the buffer meanwhile, as a file database's background writer does: the reads must not
 * depend on it ("merging": a thread of the test's merges every open log's buffer in a loop, while the reads go on).
 */
class H2UndoLogTest {

    private record Change(String map, Object key, Object before) {
    }

    @TempDir
    Path dir;

    @ParameterizedTest(name = "buffer read in place: {0}, {1} database")
    @CsvSource({"true, mem", "false, mem", "true, file", "true, merging"})
    void readsARangesRecordsFromTheLogsPagesAndFromItsAppendBufferAlike(boolean inPlace, String kind)
            throws Exception {
        String url = kind.equals("file") ? "jdbc:h2:file:" + dir.resolve("undo_log_test") + ";WRITE_DELAY=1"
                : "jdbc:h2:mem:undo_log_test_" + inPlace + "_" + kind;
        AtomicBoolean done = new AtomicBoolean();
        try (Connection connection = DriverManager.getConnection(url)) {
            try (var s = connection.createStatement()) {
                s.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
                s.execute("INSERT INTO t SELECT x, 0 FROM SYSTEM_RANGE(1, 400)");
            }
            connection.setAutoCommit(false);
            SessionLocal session = H2Engine.session(connection);
            TransactionStore store = session.getDatabase().getStore().getTransactionStore();
            MVStore maps = session.getDatabase().getStore().getMvStore();
            Thread merger = new Thread(() -> {
                while (!done.get()) {
                    for (MVMap<Long, Object> log : H2UndoLog.logs(store)) {
                        if (log != null) {
                            log.flushAndGetRoot();
                        }
                    }
                }
            }, "undo-log-merger");
            merger.setDaemon(true);
            if (kind.equals("merging")) {
                merger.start();
            }
            var random = new Random(7);
            int compared = 0;
            int largest = 0;
            try (var update = connection.prepareStatement("UPDATE t SET v = v + 1 WHERE id BETWEEN ? AND ?")) {
                for (int round = 0; round < 60; round++) {
                    for (int statement = 0; statement < 10; statement++) {
                        // 1 to 60 rows: a statement's records fit in the buffer, fill it, or run past it
                        int rows = 1 + random.nextInt(random.nextBoolean() ? 5 : 60);
                        int first = 1 + random.nextInt(400 - rows);
                        update.setInt(1, first);
                        update.setInt(2, first + rows - 1);
                        assertEquals(rows, update.executeUpdate());
                        Transaction transaction = session.getTransaction();
                        if (random.nextInt(3) == 0) {
                            // from any record of this transaction's (in a statement before, or in this one) to now
                            long from = random.nextInt(Math.max(1, (int) transaction.setSavepoint()));
                            long to = transaction.setSavepoint();
                            List<Change> read = new ArrayList<>();
                            H2UndoLog.read(store, transaction, from, to,
                                    (mapId, key, before) -> read.add(new Change(maps.getMapName(mapId), key, before)),
                                    inPlace);
                            assertSameChanges(publicly(transaction, from), read);
                            largest = Math.max(largest, read.size());
                            compared++;
                        }
                    }
                    connection.commit();
                }
            }
            assertTrue(compared > 100 && largest > 100, "ranges read: " + compared + ", at most " + largest
                    + " records: some must span a merge of the buffer");
        } finally {
            done.set(true);
        }
    }

    /** The records from {@code from} on as H2 reads them (newest first; merging the buffer), oldest first. */
    private static List<Change> publicly(Transaction transaction, long from) {
        List<Change> changes = new ArrayList<>();
        Iterator<TransactionStore.Change> it = transaction.getChanges(from);
        while (it.hasNext()) {
            TransactionStore.Change c = it.next();
            changes.add(new Change(c.mapName, c.key, c.value));
        }
        Collections.reverse(changes);
        return changes;
    }

    private static void assertSameChanges(List<Change> expected, List<Change> actual) {
        assertEquals(expected.size(), actual.size(), "records read");
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i).map(), actual.get(i).map(), "map of record " + i);
            assertEquals(expected.get(i).key(), actual.get(i).key(), "key of record " + i);
            assertSame(expected.get(i).before(), actual.get(i).before(), "value before, record " + i);
        }
    }
}
