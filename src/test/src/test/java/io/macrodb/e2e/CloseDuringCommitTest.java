package io.macrodb.e2e;

import io.macrodb.api.MacroCluster;
import io.macrodb.api.ReplicaStatus;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A connection's commit racing its close (or abort) from another thread, as a pool's eviction, a container's timeout
 * or a shutdown hook does it. With the engine alone a commit that returns has committed, and the close either rolls
 * back first (the commit then fails) or comes after. Through MacroDB both ended the one transaction (found by a
 * stress review, 2026-11-23): a commit returned as if it had committed after the close had rolled it back, or the
 * master rolled back what the slaves then applied; and the replica kept counting the transaction as running.
 */
class CloseDuringCommitTest {

    private static final int ROUNDS = 400;

    @ParameterizedTest
    @ValueSource(strings = {"h2", "hsqldb", "hsqldb-mvcc"})
    void aCommitThatReturnedHasCommittedAndEveryReplicaHoldsIt(String mode) throws Exception {
        String url = switch (mode) {
            case "h2" -> Engine.H2.url(2);
            case "hsqldb" -> Engine.HSQLDB.url(2);
            default -> Engine.HSQLDB.rowLockingUrl(2);
        };
        try (Connection admin = Engine.connect(url)) {
            MacroCluster cluster = admin.unwrap(MacroCluster.class);
            Engine.execute(admin, "CREATE TABLE t (id INT PRIMARY KEY)");
            List<String> problems = new ArrayList<>();
            for (int i = 0; i < ROUNDS && problems.isEmpty(); i++) {
                Connection c = Engine.connect(url);
                c.setAutoCommit(false);
                Engine.execute(c, "INSERT INTO t VALUES (" + i + ")");
                CountDownLatch go = new CountDownLatch(1);
                int spin = ThreadLocalRandom.current().nextInt(3000);
                CompletableFuture<Boolean> committed = CompletableFuture.supplyAsync(() -> {
                    await(go);
                    try {
                        c.commit();
                        return true;
                    } catch (SQLException closedFirst) {
                        return false;
                    }
                });
                CompletableFuture<Void> closing = CompletableFuture.runAsync(() -> {
                    await(go);
                    for (int s = 0; s < spin; s++) {
                        Thread.onSpinWait();
                    }
                    try {
                        if (spin % 2 == 0) {
                            c.close();
                        } else {
                            c.abort(Runnable::run);
                        }
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                });
                go.countDown();
                boolean returned = committed.get(30, TimeUnit.SECONDS);
                closing.get(30, TimeUnit.SECONDS);
                boolean there = Engine.rows(admin, "SELECT COUNT(*) FROM t WHERE id = " + i).get(0).equals("1");
                if (returned && !there) {
                    problems.add("round " + i + ": commit() returned, and the row is not there");
                }
            }
            assertEquals(List.of(), problems);
            for (ReplicaStatus replica : cluster.replicas()) {
                assertEquals(0, replica.activeTransactions(), "every connection closed: " + replica);
            }
            Engine.assertIdenticalAndNoneFailed(cluster);
            cluster.shutdown();
        }
    }

    private static void await(CountDownLatch go) {
        try {
            assertTrue(go.await(30, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
