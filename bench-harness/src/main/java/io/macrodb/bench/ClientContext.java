package io.macrodb.bench;

import java.sql.Connection;
import java.util.SplittableRandom;

/**
 * What a new {@link WorkloadClient} is given.
 *
 * @param index      the client's number, 0-based; workloads derive a home (TPC-C's warehouse and district) from it
 * @param count      how many clients run in this trial
 * @param connection the client's own connection, auto-commit off; the harness closes it
 * @param random     the client's random stream, seeded from the run's seed and {@code index} only, so every
 *                   target sees the same sequence of inputs; not thread-safe, and the client's alone
 */
public record ClientContext(int index, int count, Connection connection, SplittableRandom random) {
}
