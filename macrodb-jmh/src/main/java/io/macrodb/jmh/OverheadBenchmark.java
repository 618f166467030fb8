package io.macrodb.jmh;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * MacroDB's own cost: the same two transactions through the bare engine and through MacroDB with
 * {@code replicas=1} (the master alone, so every difference is MacroDB's: routing, statement wrapping, parameter
 * recording, the capture trigger, commit sequencing). One client thread, in-memory, 10,000 rows.
 *
 * <p>Run: {@code mvn -q -B install -DskipTests && java -jar macrodb-jmh/target/macrodb-jmh.jar OverheadBenchmark}.
 * Quote the ratio of MacroDB to bare for each engine and transaction, from one run.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgs = {"-Xmx2g"})
public class OverheadBenchmark {

    private static final int ROWS = 10_000;

    @Param({"h2", "hsqldb"})
    public String engine;

    @Param({"bare", "macrodb-r1"})
    public String target;

    private Connection connection;
    private PreparedStatement lookup;
    private PreparedStatement update;

    @Setup(Level.Trial)
    public void setUp() throws SQLException {
        connection = Targets.open(engine, target, "jmh");
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE account (id INT PRIMARY KEY, balance BIGINT, owner VARCHAR(40))");
        }
        connection.setAutoCommit(false);
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO account VALUES (?, ?, ?)")) {
            for (int i = 0; i < ROWS; i++) {
                insert.setInt(1, i);
                insert.setLong(2, 1_000);
                insert.setString(3, "owner " + i);
                insert.addBatch();
            }
            insert.executeBatch();
        }
        connection.commit();
        lookup = connection.prepareStatement("SELECT balance, owner FROM account WHERE id = ?");
        update = connection.prepareStatement("UPDATE account SET balance = balance + 1 WHERE id = ?");
    }

    @TearDown(Level.Trial)
    public void tearDown() throws SQLException {
        Targets.close(connection);
    }

    /** A read-only transaction: one primary-key lookup, then commit. */
    @Benchmark
    public long pkLookup() throws SQLException {
        connection.setReadOnly(true);
        lookup.setInt(1, ThreadLocalRandom.current().nextInt(ROWS));
        long balance;
        try (ResultSet row = lookup.executeQuery()) {
            row.next();
            balance = row.getLong(1);
        }
        connection.commit();
        connection.setReadOnly(false);
        return balance;
    }

    /** An update transaction: one row updated by primary key, then commit. */
    @Benchmark
    public int oneRowUpdate() throws SQLException {
        update.setInt(1, ThreadLocalRandom.current().nextInt(ROWS));
        int count = update.executeUpdate();
        connection.commit();
        return count;
    }
}
