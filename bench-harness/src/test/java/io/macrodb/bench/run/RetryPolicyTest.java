package io.macrodb.bench.run;

import io.macrodb.api.MacroSqlState;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RetryPolicyTest {

    private final RetryPolicy policy = RetryPolicy.standard();

    @Test
    void retriesEngineAndMacroDbStatesWhereverTheyAppearInTheChain() {
        assertTrue(policy.isRetryable(new SQLException("deadlock", "40001")));
        assertTrue(policy.isRetryable(new SQLException("lock timeout", "HYT00")));
        assertTrue(policy.isRetryable(new SQLException("concurrent update", "90131")));
        assertTrue(policy.isRetryable(new SQLException("General error: \"org.h2.mvstore.MVStoreException: Transaction "
                + "was illegally transitioned from ROLLED_BACK to ROLLING_BACK\"", "HY000", 50000)));
        assertTrue(policy.isRetryable(new SQLException("wrapped", "HY000", new SQLException("x", "40P01"))));
        for (String s : MacroSqlState.RETRYABLE) {
            assertTrue(policy.isRetryable(new SQLException("macrodb", s)), s);
        }
        var chained = new SQLException("batch", "HY000");
        chained.setNextException(new SQLException("replica lost", MacroSqlState.REPLICA_LOST));
        assertTrue(policy.isRetryable(chained));
    }

    @Test
    void doesNotRetryOtherStates() {
        assertFalse(policy.isRetryable(new SQLException("syntax", "42000")));
        assertFalse(policy.isRetryable(new SQLException("read-only", MacroSqlState.READ_ONLY_TRANSACTION)));
        assertFalse(policy.isRetryable(new SQLException("no state")));
        assertFalse(policy.isRetryable(new SQLException("General error: out of disk", "HY000", 50000)));
    }
}
