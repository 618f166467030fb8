package io.macrodb.bench.run;

import io.macrodb.bench.ClientContext;
import io.macrodb.bench.ConsistencyCheck;
import io.macrodb.bench.LoadProgress;
import io.macrodb.bench.Mix;
import io.macrodb.bench.TransactionType;
import io.macrodb.bench.UserAbortException;
import io.macrodb.bench.Workload;
import io.macrodb.bench.WorkloadClient;
import io.macrodb.bench.targets.Database;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A tiny bank for testing the harness: transfers keep the total constant, a read-only type reads it. Switches make
 * it misbehave on purpose: a leaking transfer (the check must catch it), a non-retryable error, retryable
 * failures, and a connection that breaks.
 */
final class ToyWorkload implements Workload {

    static final int ACCOUNTS = 10;
    static final int TOTAL = 1_000;

    enum Type implements TransactionType {
        TRANSFER(false), TOTAL(true), ABORT(false);

        private final boolean readOnly;

        Type(boolean readOnly) {
            this.readOnly = readOnly;
        }

        @Override
        public String displayName() {
            return name().toLowerCase();
        }

        @Override
        public boolean readOnly() {
            return readOnly;
        }

        @Override
        public Duration keyingTime() {
            return Duration.ofMillis(40);
        }

        @Override
        public Duration meanThinkTime() {
            return Duration.ofMillis(60);
        }
    }

    boolean leak;
    boolean failHard;
    boolean failRetryable;
    /** The first transfer to see it closes its connection and fails with a retryable state. */
    final AtomicBoolean breakConnectionOnce = new AtomicBoolean();
    final AtomicInteger clientsMade = new AtomicInteger();
    final AtomicInteger reconnects = new AtomicInteger();
    final AtomicInteger attempts = new AtomicInteger();
    final AtomicInteger loads = new AtomicInteger();
    final List<Boolean> readOnlySeen = java.util.Collections.synchronizedList(new ArrayList<>());

    @Override
    public String name() {
        return "toy";
    }

    @Override
    public Map<String, String> parameters() {
        return Map.of("accounts", Integer.toString(ACCOUNTS));
    }

    @Override
    public List<? extends TransactionType> transactionTypes() {
        return Arrays.asList(Type.values());
    }

    @Override
    public List<Mix> mixes() {
        return List.of(Mix.of("mostly-writes", "test", Map.of(Type.TRANSFER, 60.0, Type.TOTAL, 30.0, Type.ABORT, 10.0)));
    }

    @Override
    public void load(Database database, long seed, LoadProgress progress) throws SQLException {
        loads.incrementAndGet();
        try (Connection c = database.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE account (id INT PRIMARY KEY, balance INT NOT NULL)");
            progress.expect(ACCOUNTS);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO account VALUES (?, ?)")) {
                for (int i = 0; i < ACCOUNTS; i++) {
                    ps.setInt(1, i);
                    ps.setInt(2, TOTAL / ACCOUNTS);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            c.commit();
            progress.advance(ACCOUNTS);
        }
    }

    @Override
    public WorkloadClient newClient(ClientContext context, long seed) throws SQLException {
        clientsMade.incrementAndGet();
        return new Client(context);
    }

    /** A client of the bank; its statements are prepared on its current connection. */
    private final class Client implements WorkloadClient {

        private final ClientContext context;
        private Connection c;
        private PreparedStatement move;
        private PreparedStatement total;
        // H2 treats setReadOnly as a hint and does not report it back; HSQLDB does
        private final boolean reportsReadOnly;

        Client(ClientContext context) throws SQLException {
            this.context = context;
            prepare(context.connection());
            reportsReadOnly = c.getMetaData().getDatabaseProductName().contains("HSQL");
        }

        private void prepare(Connection connection) throws SQLException {
            c = connection;
            move = c.prepareStatement("UPDATE account SET balance = balance + ? WHERE id = ?");
            total = c.prepareStatement("SELECT SUM(balance) FROM account");
        }

        @Override
        public void execute(TransactionType type) throws SQLException, UserAbortException {
            if (reportsReadOnly) {
                readOnlySeen.add(c.isReadOnly() == type.readOnly());
            }
            switch ((Type) type) {
                case TRANSFER -> {
                    if (failHard) {
                        throw new SQLException("broken on purpose", "42000");
                    }
                    if (failRetryable && attempts.incrementAndGet() % 2 == 1) {
                        throw new SQLException("conflict on purpose", RetryPolicy.SERIALIZATION_FAILURE);
                    }
                    if (breakConnectionOnce.compareAndSet(true, false)) {
                        c.close(); // the harness's rollback fails next, as on a connection the network dropped
                        throw new SQLException("connection broken on purpose", RetryPolicy.SERIALIZATION_FAILURE);
                    }
                    int from = context.random().nextInt(ACCOUNTS);
                    int to = context.random().nextInt(ACCOUNTS);
                    move.setInt(1, -1);
                    move.setInt(2, from);
                    move.executeUpdate();
                    if (!leak) {
                        move.setInt(1, 1);
                        move.setInt(2, to);
                        move.executeUpdate();
                    }
                }
                case TOTAL -> {
                    try (ResultSet rs = total.executeQuery()) {
                        rs.next();
                    }
                }
                case ABORT -> {
                    move.setInt(1, 1000);
                    move.setInt(2, 0);
                    move.executeUpdate();
                    throw new UserAbortException("rolled back by its profile");
                }
            }
        }

        @Override
        public void reconnect(Connection replacement) throws SQLException {
            reconnects.incrementAndGet();
            prepare(replacement);
        }

        @Override
        public void close() throws SQLException {
            move.close();
            total.close();
        }
    }

    @Override
    public List<ConsistencyCheck> consistencyChecks() {
        return List.of(new ConsistencyCheck() {
            @Override
            public String description() {
                return "total balance is " + TOTAL;
            }

            @Override
            public List<String> violations(Connection connection) throws SQLException {
                try (Statement s = connection.createStatement();
                     ResultSet rs = s.executeQuery("SELECT SUM(balance) FROM account")) {
                    rs.next();
                    int sum = rs.getInt(1);
                    return sum == TOTAL ? List.of() : List.of("total is " + sum);
                }
            }
        });
    }
}
