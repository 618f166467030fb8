package io.macrodb.bench;

import java.time.Duration;

/**
 * One kind of transaction a workload runs (TPC-C's New-Order, TPC-W's Home interaction, ...).
 *
 * <p>A workload usually implements this with an enum, so that types have identity and a fixed display order.
 * The harness uses {@link #readOnly()} to open the transaction: read-only ones run with
 * {@code Connection.setReadOnly(true)}, which is what lets MacroDB route them to a caught-up slave.
 */
public interface TransactionType {

    /** A short display name, stable across runs: it names columns in tables, CSV and JSON. */
    String displayName();

    /** Whether the transaction only reads: the harness then calls {@code setReadOnly(true)} before it starts. */
    boolean readOnly();

    /** The spec's keying time before the transaction, used only when think times are on. */
    default Duration keyingTime() {
        return Duration.ZERO;
    }

    /** The spec's mean think time after the transaction (negative exponential), used only when think times are on. */
    default Duration meanThinkTime() {
        return Duration.ZERO;
    }
}
