package io.macrodb.runtime.cluster;

import io.macrodb.api.ReplicaHealth;
import io.macrodb.api.ReplicaRole;
import io.macrodb.runtime.engine.Engine;
import io.macrodb.runtime.engine.Engines;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A slave paused to copy a new slave from it comes back far behind; it must stay out of routing and flow control
 * until it has caught up with where the master was when the copy ended, or every commit would wait for its backlog.
 */
class ApplierPauseTest {

    @Test
    void aResumedSlaveRejoinsRoutingOnlyOnceItReachesTheVersionItWasGiven() throws Exception {
        String url = "jdbc:h2:mem:applier_pause;DB_CLOSE_DELAY=-1";
        Engine engine = Engines.forUrl("h2:mem:applier_pause");
        Replica slave = new Replica(1, url, ReplicaRole.SLAVE, ReplicaHealth.HEALTHY);
        slave.advanceTo(5);
        try (Connection connection = DriverManager.getConnection(url)) {
            Applier applier = new Applier(slave, connection, () -> DriverManager.getConnection(url),
                    new TableCatalog(engine), engine, 16, failed -> { });
            applier.start();
            assertTrue(slave.isRoutable());

            assertEquals(5, applier.pause(10_000), "paused between commits, at the version it holds");
            assertFalse(slave.isRoutable(), "a paused slave leaves routing");

            applier.resume(8); // the master reached 8 while the copy ran; the slave holds 5
            assertStaysOut(slave, 300);
            slave.advanceTo(7);
            assertStaysOut(slave, 300);

            slave.advanceTo(8); // as the applier's last write set would
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!slave.isRoutable()) {
                assertTrue(System.nanoTime() < deadline, "caught up, yet not back in routing");
                Thread.sleep(5);
            }
            slave.fail(); // ends the applier's thread
        }
    }

    private static void assertStaysOut(Replica slave, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() < deadline) {
            assertFalse(slave.isRoutable(), () -> "back in routing at version " + slave.version()
                    + ", behind the master's version at the end of the copy");
            Thread.sleep(5);
        }
    }
}
