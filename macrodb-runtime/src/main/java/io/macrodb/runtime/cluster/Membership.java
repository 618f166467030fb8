package io.macrodb.runtime.cluster;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

/**
 * Which replicas a cluster has, and which of them is the master. Changes (a slave leaving, a new slave taking a
 * place, a slave promoted) replace the slave list as a whole under one lock, so a reader iterating {@link #slaves()}
 * without a lock always sees one consistent list, never one half changed.
 */
final class Membership {

    /** Another replica after a promotion (under the commit lock, see {@link MasterPromotion}). */
    private volatile Replica master;
    private volatile List<Replica> slaves;
    private final Object lock = new Object();

    Membership(Replica master, List<Replica> slaves) {
        this.master = master;
        this.slaves = List.copyOf(slaves);
    }

    Replica master() {
        return master;
    }

    /** The slaves, ordered by index: a snapshot that later changes do not touch. */
    List<Replica> slaves() {
        return slaves;
    }

    /** The master and every healthy slave, master first. */
    List<Replica> healthy() {
        List<Replica> healthy = new ArrayList<>();
        healthy.add(master);
        slaves.stream().filter(Replica::isHealthy).forEach(healthy::add);
        return healthy;
    }

    /** The slave listed at {@code index}, or null (there is none, or a failed rebuild left its place empty). */
    Replica slaveAt(int index) {
        for (Replica slave : slaves) {
            if (slave.index() == index) {
                return slave;
            }
        }
        return null;
    }

    /** Lists {@code fresh} in its index's place, instead of the slave listed there (whose totals it carries on). */
    void takePlace(Replica fresh) {
        synchronized (lock) {
            List<Replica> more = new ArrayList<>(slaves);
            Replica replaced = slaveAt(fresh.index());
            if (replaced != null) {
                fresh.carryOverTotals(replaced);
                more.remove(replaced);
            }
            more.add(fresh);
            more.sort(Comparator.comparingInt(Replica::index));
            slaves = List.copyOf(more);
        }
    }

    /** Unlists {@code slave}; nothing happens if a new slave has taken its place already. */
    void remove(Replica slave) {
        synchronized (lock) {
            slaves = slaves.stream().filter(s -> s != slave).toList();
        }
    }

    /** Makes {@code promoted}, a slave until now, the master. Under the commit lock. */
    void promote(Replica promoted) {
        synchronized (lock) {
            slaves = slaves.stream().filter(s -> s != promoted).toList();
            master = promoted;
        }
    }

    /**
     * The healthy slave to copy a new slave from; null when there is none (copy the master). The one running the
     * fewest transactions, then the furthest ahead: HSQLDB's {@code SCRIPT}, which the copy reads the source's schema
     * with, waits until every other session of that database has ended its transaction, so a read-only transaction
     * left open on the source held the whole rebuild (found by a review, 2026-11-28). The source leaves routing while
     * it is copied, so no new one begins there; one left open there is ended after a timeout ({@link OpenRead}).
     */
    Replica copySource() {
        return best(Replica::isRoutable, FEWEST_TRANSACTIONS.thenComparing(FURTHEST_AHEAD));
    }

    /**
     * The healthy slave furthest ahead, to take over from a failed master; null when there is none. Unlike
     * {@link #copySource}, a slave paused while a new slave is copied from it counts: promotions run on the same
     * thread as copies, so by the time one runs the copy is over, and it waits for the slave to apply everything
     * queued for it.
     */
    Replica promotionCandidate() {
        return best(Replica::isHealthy, FURTHEST_AHEAD);
    }

    private static final Comparator<Replica> FURTHEST_AHEAD = Comparator.comparingLong(Replica::version).reversed();
    private static final Comparator<Replica> FEWEST_TRANSACTIONS =
            Comparator.comparingInt(Replica::activeTransactions);

    /** The eligible slave that comes first by {@code order} (the first listed of equals); null when there is none. */
    private Replica best(Predicate<Replica> eligible, Comparator<Replica> order) {
        Replica best = null;
        for (Replica slave : slaves) {
            if (eligible.test(slave) && (best == null || order.compare(slave, best) < 0)) {
                best = slave;
            }
        }
        return best;
    }
}
