package io.macrodb.bench;

import java.util.Objects;

/**
 * A workload's headline figure derived from one transaction type's throughput, such as TPC-C's tpmC
 * (New-Order transactions per minute): {@code rate = completed(type) / measuredSeconds * perSeconds}.
 */
public record RateMetric(String name, TransactionType type, double perSeconds) {

    public RateMetric {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        if (!(perSeconds > 0)) {
            throw new IllegalArgumentException("perSeconds must be positive: " + perSeconds);
        }
    }
}
