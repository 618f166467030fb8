package io.macrodb.runtime.cluster;

import io.macrodb.api.MacroSqlState;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UpdateGateTest {

    @Test
    void closingWaitsForTheTransactionsInFlightAndHoldsNewOnesUntilOpen() throws Exception {
        UpdateGate gate = new UpdateGate();
        gate.enter(1000); // a transaction in flight
        CompletableFuture<Boolean> drained = CompletableFuture.supplyAsync(() -> gate.closeAndDrain(10_000));
        Thread.sleep(100);
        assertFalse(drained.isDone(), "closing waits while a transaction is in flight");

        CompletableFuture<Void> newcomer = CompletableFuture.runAsync(() -> {
            try {
                gate.enter(10_000);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
        gate.leave();
        assertTrue(drained.get(5, TimeUnit.SECONDS), "drained once the transaction in flight left");
        Thread.sleep(100);
        assertFalse(newcomer.isDone(), "a new transaction waits while the gate is closed");

        gate.open();
        newcomer.get(5, TimeUnit.SECONDS);
        gate.leave();
    }

    @Test
    void aTransactionHeldTooLongFailsRetryably() {
        UpdateGate gate = new UpdateGate();
        assertTrue(gate.closeAndDrain(1000));
        SQLException e = assertThrows(SQLException.class, () -> gate.enter(50));
        assertEquals(MacroSqlState.UPDATES_HELD, e.getSQLState());
        assertTrue(MacroSqlState.isRetryable(e));
        gate.open();
    }

    /** A promotion asked for while a copy of the master holds the gate: opening after the copy must not let go. */
    @Test
    void theGateOpensOnlyWhenEveryCloserHasLetGo() throws Exception {
        UpdateGate gate = new UpdateGate();
        gate.close(); // a promotion is pending
        assertTrue(gate.closeAndDrain(1000)); // a copy of the master
        gate.open(); // the copy is done
        assertThrows(SQLException.class, () -> gate.enter(50), "the promotion still holds the gate");
        gate.open(); // the promotion is done
        gate.enter(50);
        gate.leave();
    }

    @Test
    void drainingGivesUpAndReopensWhenATransactionStaysOpen() throws Exception {
        UpdateGate gate = new UpdateGate();
        gate.enter(1000);
        assertFalse(gate.closeAndDrain(50), "an open transaction outlasts the drain");
        gate.enter(50); // the gate is open again
        gate.leave();
        gate.leave();
    }
}
