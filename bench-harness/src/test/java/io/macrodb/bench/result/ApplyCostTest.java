package io.macrodb.bench.result;

import io.macrodb.api.ClusterMetrics;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ApplyCostTest {

    /** @param slaveWriteSetsAndNanos per slave: write sets, wall nanoseconds (its CPU nanoseconds are half) */
    private static ClusterMetrics metrics(long masterNanos, long... slaveWriteSetsAndNanos) {
        var replicas = new ArrayList<ClusterMetrics.Replica>();
        replicas.add(new ClusterMetrics.Replica(0, 5, 0, masterNanos, masterNanos));
        for (int i = 0; i < slaveWriteSetsAndNanos.length; i += 2) {
            replicas.add(new ClusterMetrics.Replica(1 + i / 2, 7, slaveWriteSetsAndNanos[i],
                    slaveWriteSetsAndNanos[i + 1], slaveWriteSetsAndNanos[i + 1] / 2));
        }
        return new ClusterMetrics(0, 0, 0, 0, 0, 0, List.copyOf(replicas));
    }

    @Test
    void aIsTheSlavesMeanApplyCpuTimePerWriteSetOverTheMeanUpdateCpuTime() {
        ClusterMetrics start = metrics(0, 100, 1_000_000, 90, 900_000);
        ClusterMetrics end = metrics(999_999, 300, 3_000_000, 290, 2_900_000); // the master's figures do not count
        ApplyCost cost = ApplyCost.between(start, end, 40_000, 20_000);

        assertEquals(3, cost.replicas());
        assertEquals(400, cost.writeSets());
        assertEquals(4_000_000, cost.applyNanos());
        assertEquals(2_000_000, cost.applyCpuNanos());
        assertEquals(10_000, cost.applyNanosPerWriteSet(), 1e-9);
        assertEquals(5_000, cost.applyCpuNanosPerWriteSet(), 1e-9);
        assertEquals(0.25, cost.a(), 1e-12);
        assertEquals(0.25, cost.wallA(), 1e-12);
        assertEquals(1 / (1 + 2 * 0.25), cost.writeBound(), 1e-12); // 2/3 of the master's own rate at most
    }

    @Test
    void theBoundFallsWithMoreReplicasAndCostlierApplies() {
        assertEquals(0.5, ApplyCost.bound(2, 1.0), 1e-12);
        assertEquals(1 / 1.2, ApplyCost.bound(3, 0.1), 1e-12);
        assertEquals(1.0, ApplyCost.bound(4, 0.0), 1e-12);
        assertEquals(1.0, ApplyCost.bound(1, Double.NaN), 1e-12, "no slaves, nothing to replay");
        assertTrue(ApplyCost.bound(5, 0.3) < ApplyCost.bound(3, 0.3));
    }

    @Test
    void unknownWithoutAppliedWriteSetsOrUpdates() {
        ClusterMetrics same = metrics(0, 10, 1_000);
        assertTrue(Double.isNaN(ApplyCost.between(same, same, 40_000, 20_000).a()), "nothing applied");
        assertTrue(Double.isNaN(ApplyCost.between(same, same, 40_000, 20_000).writeBound()));
        ApplyCost noUpdates = new ApplyCost(2, 10, 1_000, 500, 0, Double.NaN);
        assertEquals(100, noUpdates.applyNanosPerWriteSet(), 1e-9);
        assertTrue(Double.isNaN(noUpdates.a()), "no update transaction completed");
        assertTrue(Double.isNaN(noUpdates.wallA()));
        ApplyCost cpuNotMeasured = new ApplyCost(2, 10, 1_000, 0, 400, 200);
        assertTrue(Double.isNaN(cpuNotMeasured.a()), "no CPU time: unknown, not free");
        assertEquals(0.25, cpuNotMeasured.wallA(), 1e-12);
    }
}
