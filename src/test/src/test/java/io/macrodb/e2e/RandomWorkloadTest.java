package io.macrodb.e2e;

import io.macrodb.api.MacroCluster;
import io.macrodb.api.MacroSqlState;
import io.macrodb.api.ReplicaHealth;
import io.macrodb.api.ReplicaResult;
import io.macrodb.api.ReplicaStatus;
import io.macrodb.api.VerificationReport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import java.util.stream.Stream;

/**
 * A randomized workload: targeted tests only find what someone thought of. Each case generates a schema and a stream
 * of transactions from a seed, runs them through a 3-replica cluster, and ends by proving the replicas identical two
 * ways: {@code verify()} (check-sums, counters included), and every table's full contents plus the sequence and
 * identity counters read on every replica with {@code getString}, so that a blind spot of the verifier cannot hide a
 * difference. No slave may have failed on the way (a slave that fails to apply a write set is rebuilt and would
 * otherwise pass the final comparison).
 *
 * <p><b>Schema</b> (per seed): a parent table, a child with a foreign key (ON DELETE CASCADE or SET NULL, sometimes
 * ON UPDATE CASCADE) and two more tables; each keyed by an INT, an identity column (BY DEFAULT or ALWAYS), a column
 * whose default draws from a sequence, two columns, or nothing (keyless, sometimes with an identity column); a CHECKed
 * INT; sometimes a UNIQUE column, a sequence-drawn column, CURRENT_TIMESTAMP and RAND() defaults; nullable VARCHAR,
 * CHAR, DECIMAL(8,2), DOUBLE, BOOLEAN, TIMESTAMP, VARBINARY and DATE columns; sometimes a nullable CLOB and a BLOB
 * (kept out of keys, UNIQUE constraints, indexes, ORDER BY and GROUP BY), and a computed column
 * ({@code GENERATED ALWAYS AS} a deterministic expression over other columns: {@code n * 2}, {@code UPPER(s)}, ...)
 * that no statement writes. On half the seeds, one of the four tables has the application's own triggers (MacroDB
 * keeps them on the master and replicates their effects): AFTER row triggers writing an audit table (identity key,
 * a column drawn from a sequence) one row per change, a BEFORE trigger setting a column of the new row to a value that
 * differs per call, sometimes an AFTER DELETE statement trigger; Java triggers on H2, SQL ones on HSQLDB.
 *
 * <p><b>Statements</b>: single- and multi-row INSERT (literals; prepared, sometimes batched or returning generated
 * keys), INSERT ... SELECT, UPDATE by key, by range, of the key or a UNIQUE column itself (shifts and swaps), with
 * expressions (arithmetic, RAND(), CURRENT_TIMESTAMP, NEXT VALUE FOR, subqueries), DELETE by predicate, MERGE (H2's
 * KEY form and the standard form with DELETE), H2's data-change delta tables, statements that fail on purpose
 * (duplicate keys, CHECK and foreign-key violations, division by zero halfway through a multi-row UPDATE), statement
 * batches, savepoints rolled back or released, whole-transaction rollbacks, connections closed mid-transaction,
 * auto-commit, sequence draws in queries, read-only transactions (their reads compared with the master's; a write in
 * one must be refused with 25006), and DDL mid-stream (columns added with a constant, CURRENT_TIMESTAMP or RAND()
 * default, LOB columns and computed ones added, and dropped again, indexes, defaults changed, TRUNCATE of the child
 * with or without RESTART IDENTITY, sequence and identity restarts, a table dropped and created again (its triggers
 * with it), renamed and back, CREATE TABLE AS SELECT, DROP TRIGGER and CREATE TRIGGER again). LOBs are written as
 * literals ({@code 'text'}, {@code X'0102'}, {@code REPEAT(...)}), bound as strings, byte arrays or streams, sometimes
 * over 10,000 characters or bytes, updated ({@code lc || 'x'}), set to NULL, copied by INSERT ... SELECT and MERGE,
 * and read whole; computed columns appear in WHERE clauses and reads only. Every table's contents are compared with
 * LOBs read whole ({@code getString} for a CLOB, {@code getBytes} for a BLOB).
 *
 * <p><b>Parts</b>: one client alone (deterministic for a seed: the statements are; the values RAND() and the clock
 * give are not), 250 transactions with DDL; then four clients for two seconds on a fresh cluster, without DDL, some of
 * them carrying on after a retryable error as some applications do. On H2 each concurrent writer has tables of its
 * own (see {@link #writablePart}: H2 itself does not serialize conflicting writers when one rolls back); on HSQLDB
 * (LOCKS mode) all write all tables. The single client's read-only transactions compare their reads with the master's.
 *
 * <p><b>Outcomes</b>: constraint and data errors (SQLState classes 21, 22, 23) are expected and counted, as are the
 * engines' and MacroDB's retryable states under concurrency (the transaction is rolled back, or carried on with);
 * anything else fails the case, with the seed and the last statements. Every statement and its outcome, and MacroDB's
 * warnings (a slave that failed to apply a write set says why), are written to {@code target/random-workload/}.
 * Left out on purpose, each with a comment: what the engines get wrong by themselves (HSQLDB's MERGE ... THEN
 * DELETE with a row trigger, its getGeneratedKeys on a table with no generated column, its LOB writes under
 * concurrent clients).
 *
 * <p><b>Reproducing and exploring</b> (system properties): {@code macrodb.fuzz.seed=N} runs seed N only;
 * {@code macrodb.fuzz.seeds=K} runs K random seeds instead of the fixed list; {@code macrodb.fuzz.engine=H2|HSQLDB}
 * one engine; {@code macrodb.fuzz.pinpoint=true} compares every replica after each single-client transaction (the log
 * then ends with the transaction that made them differ); {@code macrodb.fuzz.without=shift,batch,merge,...} leaves
 * statement kinds out (to find what a failure needs; {@code computed}, {@code lob} and {@code trigger} leave those
 * columns and triggers out of the schema); {@code macrodb.fuzz.bare=true} runs the workload on the engine
 * alone (to tell the engine's own errors from MacroDB's); {@code macrodb.fuzz.conflicts=true} lets every H2 client
 * write every table; {@code macrodb.fuzz.hsqldbTx=mvcc|mvlocks} another HSQLDB mode;
 * {@code macrodb.fuzz.traces=true} puts the stack trace of MacroDB's warnings (a slave's failure) into the log.
 */
class RandomWorkloadTest {

    /**
     * The seeds CI runs: fixed, so the test is stable; each one was run clean. 346738 is here for what it found on
     * HSQLDB: after a DROP TRIGGER of the application's (run on the master only), both slaves failed a row change with
     * HSQLDB's "statement is invalid" (the master's catalog was read again, the appliers then prepared a second
     * statement for the same table; fixed: trigger DDL re-reads the triggers only), as did seeds 311929, 762859 and
     * 219759. H2 seed 847431 met, one run in three, a slave identity counter left behind by a table renamed just after
     * an insert (fixed; ExactnessTest.identityCounterOfATableRenamedJustAfter forces it).
     */
    private static final long[] SEEDS = {1, 2, 3, 4, 5, 6, 346738};
    private static final int REPLICAS = 3;
    private static final int SINGLE_CLIENT_TRANSACTIONS = 250;
    private static final int CONCURRENT_CLIENTS = 4;
    private static final long CONCURRENT_MILLIS = 2_000;
    private static final Path LOGS = Path.of("target", "random-workload");
    /** Held here: the log manager keeps loggers only weakly, and a handler on a collected one would be lost. */
    private static final java.util.logging.Logger MACRODB_LOG = java.util.logging.Logger.getLogger("io.macrodb");
    /**
     * With {@code -Dmacrodb.fuzz.bare=true}: the same workload on the engine alone (no MacroDB, nothing compared), to
     * tell the engines' own errors from MacroDB's.
     */
    private static final boolean BARE = Boolean.getBoolean("macrodb.fuzz.bare");
    /** {@code -Dmacrodb.fuzz.without=batch,shift,...}: statement kinds left out (to find what a failure needs). */
    private static final java.util.Set<String> WITHOUT = java.util.Set.of(
            System.getProperty("macrodb.fuzz.without", "").split(","));
    private static final boolean PINPOINT = Boolean.getBoolean("macrodb.fuzz.pinpoint");

    /**
     * H2: the application's AFTER trigger (row or statement level): one {@code audit} row per change, through the
     * session's own connection. Column 0 of every generated table is {@code k}. Public, with a public no-argument
     * constructor: H2 instantiates it by name.
     */
    public static final class AuditTrigger implements org.h2.api.Trigger {
        @Override
        public void fire(Connection connection, Object[] oldRow, Object[] newRow) throws SQLException {
            String what = oldRow == null && newRow == null ? "s" : oldRow == null ? "i" : newRow == null ? "d" : "u";
            Object[] row = newRow != null ? newRow : oldRow;
            try (PreparedStatement audit = connection.prepareStatement(
                    "INSERT INTO audit (k, seq, what) VALUES (?, NEXT VALUE FOR audit_seq, ?)")) {
                if (row == null || row[0] == null) {
                    audit.setNull(1, Types.BIGINT);
                } else {
                    audit.setLong(1, ((Number) row[0]).longValue());
                }
                audit.setString(2, what);
                audit.executeUpdate();
            }
        }
    }

    /** H2: the application's BEFORE trigger: puts a value that differs per call into {@code st} of the new row. */
    public static final class StampTrigger implements org.h2.api.Trigger {
        private static final AtomicLong CALLS = new AtomicLong();
        private int stamp = -1;

        @Override
        public void init(Connection connection, String schema, String trigger, String table, boolean before,
                         int type) throws SQLException {
            try (PreparedStatement position = connection.prepareStatement("SELECT ORDINAL_POSITION FROM "
                    + "INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND COLUMN_NAME = 'ST'")) {
                position.setString(1, schema);
                position.setString(2, table);
                try (ResultSet rows = position.executeQuery()) {
                    stamp = rows.next() ? rows.getInt(1) - 1 : -1;
                }
            }
        }

        @Override
        public void fire(Connection connection, Object[] oldRow, Object[] newRow) throws SQLException {
            if (newRow != null && stamp >= 0) {
                newRow[stamp] = "s-" + System.nanoTime() + "-" + CALLS.incrementAndGet();
            }
        }
    }

    static Stream<Arguments> singleClientCases() {
        return engines().flatMap(e -> seeds().mapToObj(s -> Arguments.of(e, s)));
    }

    /** The concurrent part runs on fewer seeds: it is timed, so each seed costs its full run time. */
    static Stream<Arguments> concurrentCases() {
        return engines().flatMap(e -> seeds().limit(System.getProperty("macrodb.fuzz.seeds") == null ? 2 : 1000)
                .mapToObj(s -> Arguments.of(e, s)));
    }

    /** Both engines, or the one {@code -Dmacrodb.fuzz.engine=H2|HSQLDB} names. */
    private static Stream<Engine> engines() {
        String only = System.getProperty("macrodb.fuzz.engine");
        return only == null || only.isBlank() ? Stream.of(Engine.values()) : Stream.of(Engine.valueOf(only.trim()));
    }

    /**
     * Frees a bare in-memory database (a cluster's shutdown does it otherwise): kept, the seeds' databases and their
     * LOBs filled the heap after some 30 seeds (OutOfMemoryError).
     */
    private static void shutdownBare(Connection connection) {
        try {
            Engine.execute(connection, "SHUTDOWN");
        } catch (SQLException e) {
            // already closed: nothing to free
        }
    }

    /** The engine's own URL inside a MacroDB one, without MacroDB's keys. */
    private static String bare(String macroDbUrl) {
        return "jdbc:" + macroDbUrl.substring("jdbc:macrodb:".length()).replaceAll(";macrodb\\.[^;]*", "");
    }

    private static LongStream seeds() {
        String one = System.getProperty("macrodb.fuzz.seed");
        if (one != null && !one.isBlank()) {
            return LongStream.of(Long.parseLong(one.trim()));
        }
        String count = System.getProperty("macrodb.fuzz.seeds");
        if (count != null && !count.isBlank()) {
            return new Random().longs(Integer.parseInt(count.trim()), 1, 1_000_000);
        }
        return Arrays.stream(SEEDS);
    }

    @ParameterizedTest(name = "{0}, seed {1}")
    @MethodSource("singleClientCases")
    void singleClient(Engine engine, long seed) throws Exception {
        Run run = new Run(engine, seed, "single");
        Random random = new Random(seed);
        Schema schema = Schema.generate(engine, random);
        String url = BARE ? bare(engine.url(REPLICAS)) : engine.url(REPLICAS);
        runCase(run, url, setup -> {
            schema.create(setup, run);
            Client client = new Client(run, schema, url, new Random(random.nextLong()), true, true);
            client.run(SINGLE_CLIENT_TRANSACTIONS, Long.MAX_VALUE);
            client.close();
        });
    }

    /**
     * Runs one case on a fresh cluster at {@code url}, then the end every case shares: no slave failed, every replica
     * reads the same, {@code verify()} agrees; the log written, whatever happened, and the cluster shut down.
     */
    private static void runCase(Run run, String url, CaseWork work) throws Exception {
        java.util.logging.Handler macroDbLog = run.logHandler();
        MACRODB_LOG.addHandler(macroDbLog);
        try (Connection setup = Engine.connect(url)) {
            MacroCluster cluster = BARE ? null : setup.unwrap(MacroCluster.class);
            try {
                work.run(setup);
                run.note("statements: " + run.counts());
                if (!BARE) {
                    assertReplicasExact(cluster, run);
                }
            } catch (Throwable t) {
                throw run.failed(t);
            } finally {
                MACRODB_LOG.removeHandler(macroDbLog);
                run.writeLog();
                if (!BARE) {
                    cluster.shutdown();
                } else {
                    shutdownBare(setup);
                }
            }
        }
    }

    @FunctionalInterface
    private interface CaseWork {
        void run(Connection setup) throws Exception;
    }

    @ParameterizedTest(name = "{0}, seed {1}")
    @MethodSource("concurrentCases")
    void concurrentClients(Engine engine, long seed) throws Exception {
        Run run = new Run(engine, seed, "concurrent");
        Random random = new Random(seed);
        Schema schema = Schema.generate(engine, random);
        // HSQLDB runs in its default LOCKS mode (table locks), every client writing every table. Not its MVCC mode
        // ("rowLockingUrl"), for two faults of HSQLDB 2.7.4's own, both measured on the bare engine: under this
        // workload a statement waited forever (no query timeout bounds that wait); and a MERGE racing a committed
        // DELETE of the row it matched fired an UPDATE trigger for the deleted row and inserted the key too, a history
        // no replay in commit order can follow (with a plain trigger, about 1 in 1,000 transactions; none without
        // MERGE). -Dmacrodb.fuzz.hsqldbTx=mvcc|mvlocks picks another mode.
        String mode = System.getProperty("macrodb.fuzz.hsqldbTx", "locks");
        String macroDbUrl = engine == Engine.HSQLDB ? engine.url(REPLICAS) + ";hsqldb.tx=" + mode
                : engine.rowLockingUrl(REPLICAS);
        String url = BARE ? bare(macroDbUrl) : macroDbUrl;
        runCase(run, url, setup -> {
        schema.create(setup, run);
        Client filler = new Client(run, schema, url, new Random(random.nextLong()), false, false);
        filler.run(30, Long.MAX_VALUE);
        filler.close();
        long deadline = System.currentTimeMillis() + CONCURRENT_MILLIS;
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < CONCURRENT_CLIENTS; i++) {
            Client client = new Client(run, schema, url, new Random(random.nextLong()), false, false);
            client.writeOnly(writablePart(engine, schema, i));
            Thread thread = new Thread(() -> {
                try {
                    client.run(Integer.MAX_VALUE, deadline);
                } catch (Throwable t) {
                    failures.add(t);
                } finally {
                    client.closeQuietly(); // a failed client's open transaction would hold its locks
                }
            }, "random-client-" + i);
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join(Math.max(1, deadline + 60_000 - System.currentTimeMillis()));
            if (thread.isAlive()) {
                AssertionError stuck = new AssertionError(thread.getName() + " still runs a minute after "
                        + "the deadline: " + Arrays.toString(thread.getStackTrace()).replace(", ", "\n  "));
                failures.forEach(stuck::addSuppressed);
                throw stuck;
            }
        }
        if (!failures.isEmpty()) {
            AssertionError error = new AssertionError("client failures: " + failures.size(),
                    failures.peek());
            failures.stream().skip(1).forEach(error::addSuppressed);
            throw error;
        }
        });
    }

    /**
     * The tables concurrent client {@code i} writes (it reads them all). On H2 each table has one writer, the parent
     * and its child one together (a cascade writes the child): H2 2.5.252 itself does not serialize conflicting
     * writers when one of them rolls back. Measured on the bare engine, no MacroDB: four threads inserting and deleting
     * eight keys in one-statement transactions, a quarter rolled back, each transaction's trigger rows appended under a
     * lock around commit(): replaying them in commit order met a committed row that was gone, or a key inserted over
     * an existing one, a few times per 300,000 transactions; with no rollback, never in 1,000,000 (README, Limits).
     * MacroDB replays what was committed, in commit order, so its slaves cannot follow such a history. The fourth
     * client only reads and draws sequences there. HSQLDB (LOCKS mode): every client writes every table.
     */
    private static List<Table> writablePart(Engine engine, Schema schema, int client) {
        if (engine != Engine.H2 || Boolean.getBoolean("macrodb.fuzz.conflicts")) {
            return schema.tables;
        }
        return switch (client) {
            case 0 -> List.of(schema.table("p"), schema.table("c"));
            case 1 -> List.of(schema.table("x"));
            case 2 -> List.of(schema.table("y"));
            default -> List.of();
        };
    }

    // ---- the end of every case: no slave failed, every replica reads the same, verify() agrees ----

    private static void assertReplicasExact(MacroCluster cluster, Run run) throws SQLException {
        List<ReplicaStatus> replicas = cluster.replicas();
        if (cluster.metrics().failures() != 0 || replicas.stream().anyMatch(r -> r.health() != ReplicaHealth.HEALTHY)) {
            throw new AssertionError("a replica failed during the run (a slave that cannot apply a write set "
                    + "differs from the master): failures=" + cluster.metrics().failures() + ", " + replicas);
        }
        List<ReplicaResult<Map<String, List<String>>>> contents =
                cluster.queryEachReplica(c -> contents(c, run.engine));
        if (contents.size() != REPLICAS) {
            throw new AssertionError("expected " + REPLICAS + " replicas read, got " + contents.size());
        }
        Map<String, List<String>> master = contents.get(0).value();
        StringBuilder differences = new StringBuilder();
        for (ReplicaResult<Map<String, List<String>>> other : contents.subList(1, contents.size())) {
            differences.append(differences(master, other.value(), other.replica()));
        }
        VerificationReport report = cluster.verify(); // once, at the end: it fails (and rebuilds) a differing slave
        if (differences.length() > 0 || !report.identical()) {
            throw new AssertionError("replicas differ at version " + report.version() + ". Read back:"
                    + (differences.length() == 0 ? " identical" : differences) + "\nverify(): "
                    + report.differences());
        }
        run.note("replicas identical at version " + report.version() + ": " + master.keySet());
    }

    /** Every user table's rows (each as its columns' getString, sorted) and every counter, on one replica. */
    private static Map<String, List<String>> contents(Connection connection, Engine engine) throws SQLException {
        Map<String, List<String>> contents = new TreeMap<>();
        DatabaseMetaData meta = connection.getMetaData();
        List<String> tables = new ArrayList<>();
        try (ResultSet rows = meta.getTables(null, "PUBLIC", "%", new String[] {"TABLE", "BASE TABLE"})) {
            while (rows.next()) {
                tables.add(rows.getString("TABLE_NAME"));
            }
        }
        for (String table : tables) {
            contents.put(table, dump(connection, "SELECT * FROM \"" + table + "\""));
        }
        if (engine == Engine.H2) {
            contents.put("(sequences)", dump(connection,
                    "SELECT SEQUENCE_NAME, BASE_VALUE FROM INFORMATION_SCHEMA.SEQUENCES"));
            contents.put("(identities)", dump(connection, "SELECT TABLE_NAME, COLUMN_NAME, IDENTITY_BASE "
                    + "FROM INFORMATION_SCHEMA.COLUMNS WHERE IS_IDENTITY = 'YES'"));
        } else {
            // HSQLDB does not expose its identity counters (README, Limits); sequences it does.
            contents.put("(sequences)", dump(connection, "SELECT SEQUENCE_NAME, NEXT_VALUE "
                    + "FROM INFORMATION_SCHEMA.SEQUENCES WHERE SEQUENCE_SCHEMA = 'PUBLIC'"));
        }
        return contents;
    }

    /**
     * A query's rows as text (column name = getString; a BLOB's getBytes in hex), sorted: a multiset, whatever order
     * the engine reads in. LOBs are read whole; a long value is shown as its start, its length and a hash of all of it.
     */
    static List<String> dump(Connection connection, String query) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(query)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= columns; i++) {
                    String value;
                    if (result.getMetaData().getColumnType(i) == Types.BLOB) {
                        byte[] bytes = result.getBytes(i);
                        value = bytes == null ? null : "X'" + HexFormat.of().formatHex(bytes) + "'";
                    } else {
                        value = result.getString(i);
                    }
                    row.append(i == 1 ? "" : ", ").append(result.getMetaData().getColumnName(i)).append('=')
                            .append(digest(value));
                }
                rows.add(row.toString());
            }
        }
        Collections.sort(rows);
        return rows;
    }

    /** A value as text, a long one as its start, its length and a hash of all of it (exact enough to compare). */
    private static String digest(String value) {
        if (value == null || value.length() <= 100) {
            return value;
        }
        try {
            byte[] hash = java.security.MessageDigest.getInstance("SHA-256")
                    .digest(value.getBytes(StandardCharsets.UTF_8));
            return value.substring(0, 24) + "...(" + value.length() + " chars, sha-256 "
                    + HexFormat.of().formatHex(hash, 0, 12) + ")";
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A line for the log or a message: a long one (a large LOB literal) cut in its middle. */
    static String abbreviate(String line) {
        if (line.length() <= 600 || line.contains("\tat ")) {
            return line;
        }
        // Cut between code points: half a surrogate pair could not be written to the log.
        int head = line.offsetByCodePoints(0, line.codePointCount(0, 400));
        int tail = line.offsetByCodePoints(0, line.codePointCount(0, line.length() - 150));
        return line.substring(0, head) + "...(" + line.length() + " chars)..." + line.substring(tail);
    }

    private static String differences(Map<String, List<String>> master, Map<String, List<String>> other,
                                      int replica) {
        StringBuilder out = new StringBuilder();
        java.util.Set<String> names = new java.util.TreeSet<>(master.keySet());
        names.addAll(other.keySet());
        for (String name : names) {
            List<String> a = master.getOrDefault(name, List.of("(no such table)"));
            List<String> b = other.getOrDefault(name, List.of("(no such table)"));
            if (!a.equals(b)) {
                List<String> onlyMaster = new ArrayList<>(a);
                b.forEach(onlyMaster::remove);
                List<String> onlyOther = new ArrayList<>(b);
                a.forEach(onlyOther::remove);
                out.append("\n  replica ").append(replica).append(", ").append(name).append(": only on the master ")
                        .append(onlyMaster).append("; only on replica ").append(replica).append(' ')
                        .append(onlyOther);
            }
        }
        return out.toString();
    }

    // ---- one case's log, outcome counts and failure message ----

    /** What one case ran: every statement with its outcome, in order; written to a file when the case ends. */
    static final class Run {
        final Engine engine;
        final long seed;
        final String part;
        private final ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();
        private final Map<String, AtomicLong> counts = new java.util.concurrent.ConcurrentSkipListMap<>();

        Run(Engine engine, long seed, String part) {
            this.engine = engine;
            this.seed = seed;
            this.part = part;
        }

        /** MacroDB's own warnings (a slave that failed to apply a write set says why) go into the log too. */
        java.util.logging.Handler logHandler() {
            return new java.util.logging.Handler() {
                @Override
                public void publish(java.util.logging.LogRecord record) {
                    if (record.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue()) {
                        Throwable thrown = record.getThrown();
                        java.io.StringWriter trace = new java.io.StringWriter();
                        if (thrown != null && Boolean.getBoolean("macrodb.fuzz.traces")) {
                            thrown.printStackTrace(new java.io.PrintWriter(trace));
                        }
                        note("MacroDB " + record.getLevel() + ": " + record.getMessage()
                                + (thrown == null ? "" : ": " + thrown) + trace);
                    }
                }

                @Override
                public void flush() {
                }

                @Override
                public void close() {
                }
            };
        }

        void note(String line) {
            log.add(Thread.currentThread().getName() + ": " + abbreviate(line));
        }

        void count(String outcome) {
            counts.computeIfAbsent(outcome, k -> new AtomicLong()).incrementAndGet();
        }

        String counts() {
            return counts.toString();
        }

        Path logFile() {
            return LOGS.resolve(engine.name + "-" + part + "-seed" + seed + ".log");
        }

        void writeLog() {
            try {
                Files.createDirectories(LOGS);
                Files.write(logFile(), log, StandardCharsets.UTF_8);
            } catch (IOException e) {
                // the log is a help, not the test
            }
        }

        /** The failure, with what reproduces it: engine, part, seed, the log file and the last statements. */
        AssertionError failed(Throwable cause) {
            if (cause instanceof AssertionError a && a.getMessage() != null && a.getMessage().startsWith("[seed")) {
                return a;
            }
            List<String> lines = new ArrayList<>(log);
            String tail = String.join("\n    ", lines.subList(Math.max(0, lines.size() - 25), lines.size()));
            return new AssertionError("[seed " + seed + ", " + engine + ", " + part + " part; rerun with "
                    + "-Dmacrodb.fuzz.seed=" + seed + "; full log " + logFile().toAbsolutePath() + "] "
                    + cause.getMessage() + "\n  last statements:\n    " + tail, cause);
        }
    }

    // ---- the schema ----

    enum Type {
        INT("INT", Types.INTEGER), BIGINT("BIGINT", Types.BIGINT), VARCHAR("VARCHAR(12)", Types.VARCHAR),
        CHAR("CHAR(4)", Types.CHAR), DECIMAL("DECIMAL(8,2)", Types.DECIMAL), DOUBLE("DOUBLE", Types.DOUBLE),
        BOOLEAN("BOOLEAN", Types.BOOLEAN), TIMESTAMP("TIMESTAMP", Types.TIMESTAMP),
        VARBINARY("VARBINARY(8)", Types.VARBINARY), DATE("DATE", Types.DATE), CLOB("CLOB", Types.CLOB),
        BLOB("BLOB", Types.BLOB);

        final String sql;
        final int jdbc;

        Type(String sql, int jdbc) {
            this.sql = sql;
            this.jdbc = jdbc;
        }

        String sql(Engine engine) {
            return this == DOUBLE && engine == Engine.H2 ? "DOUBLE PRECISION" : sql;
        }

        /** CLOB and BLOB: kept out of keys, UNIQUE constraints, indexes, ORDER BY, GROUP BY and comparisons. */
        boolean lob() {
            return this == CLOB || this == BLOB;
        }
    }

    /** How a table is keyed. */
    enum Key { INT, IDENTITY, IDENTITY_ALWAYS, SEQUENCE, COMPOSITE, NONE, NONE_IDENTITY }

    /**
     * One column. {@code generated}: the engine fills it when an insert leaves it out (identity, sequence default,
     * computed); {@code always}: no statement may write it (GENERATED ALWAYS: an identity or a computed column);
     * {@code required}: an insert must name it.
     */
    record Column(String name, Type type, String definition, boolean generated, boolean always, boolean required,
                  boolean unique) {
        boolean insertable() {
            return !always;
        }
    }

    static final class Table {
        final String name;
        final Key key;
        final String parent;
        final boolean updateCascades;
        final List<Column> initial;
        final List<Column> columns = new CopyOnWriteArrayList<>();
        final String fkClause;

        Table(String name, Key key, String parent, boolean updateCascades, List<Column> columns, String fkClause) {
            this.name = name;
            this.key = key;
            this.parent = parent;
            this.updateCascades = updateCascades;
            this.initial = List.copyOf(columns);
            this.columns.addAll(columns);
            this.fkClause = fkClause;
        }

        Column column(String name) {
            return columns.stream().filter(c -> c.name.equals(name)).findFirst().orElse(null);
        }

        boolean has(String name) {
            return column(name) != null;
        }

        /** Whether statements may set {@code k} (not ALWAYS). */
        boolean keyWritable() {
            return key != Key.IDENTITY_ALWAYS;
        }

        boolean keyed() {
            return key != Key.NONE && key != Key.NONE_IDENTITY;
        }

        boolean identity() {
            return key == Key.IDENTITY || key == Key.IDENTITY_ALWAYS || key == Key.NONE_IDENTITY;
        }

        String createSql() {
            StringBuilder sql = new StringBuilder("CREATE TABLE ").append(name).append(" (");
            for (int i = 0; i < initial.size(); i++) {
                sql.append(i == 0 ? "" : ", ").append(initial.get(i).definition);
            }
            if (key == Key.COMPOSITE) {
                sql.append(", PRIMARY KEY (k, k2)");
            }
            if (fkClause != null) {
                sql.append(", ").append(fkClause);
            }
            return sql.append(")").toString();
        }
    }

    static final class Schema {
        final Engine engine;
        final List<Table> tables = new ArrayList<>();
        final List<String> sequences = List.of("seq_key", "seq_col", "seq_free");
        /** The table the application's triggers are on (they write {@code audit}); null: none this seed. */
        Table triggered;
        /** The application's triggers, by name: the statement that creates each. */
        final Map<String, String> triggers = new TreeMap<>();
        /** Those that exist now (DROP TRIGGER and CREATE TRIGGER run mid-stream). */
        final java.util.Set<String> activeTriggers = new java.util.TreeSet<>();

        Schema(Engine engine) {
            this.engine = engine;
        }

        Table table(String name) {
            return tables.stream().filter(t -> t.name.equals(name)).findFirst().orElseThrow();
        }

        static Schema generate(Engine engine, Random random) {
            Schema schema = new Schema(engine);
            // Half the seeds: the application's triggers on one of the four tables (drawn whatever -without says).
            // Not the first draw: java.util.Random's first nextInt(8) is the same for every small seed.
            random.nextInt();
            int triggeredAt = random.nextInt(8);
            if (!Client.on("trigger")) {
                triggeredAt = -1;
            }
            Key parentKey = pick(random, Key.INT, Key.INT, Key.IDENTITY, Key.IDENTITY_ALWAYS, Key.SEQUENCE);
            schema.tables.add(schema.table("p", parentKey, null, false, triggeredAt == 0, random));
            boolean updateCascades = parentKey == Key.INT && random.nextBoolean();
            schema.tables.add(schema.table("c", pick(random, Key.values()), schema.tables.get(0), updateCascades,
                    triggeredAt == 1, random));
            schema.tables.add(schema.table("x", pick(random, Key.values()), null, false, triggeredAt == 2, random));
            schema.tables.add(schema.table("y", pick(random, Key.NONE, Key.NONE, Key.INT, Key.COMPOSITE,
                    Key.NONE_IDENTITY, Key.IDENTITY), null, false, triggeredAt == 3, random));
            if (triggeredAt >= 0 && triggeredAt < 4) {
                schema.defineTriggers(schema.tables.get(triggeredAt), random.nextBoolean());
            }
            return schema;
        }

        /**
         * The application's triggers on {@code t}: AFTER row triggers writing one {@code audit} row per change (its
         * key an identity, its {@code seq} drawn from {@code audit_seq}), a BEFORE trigger putting a value that
         * differs per call into {@code st} of each new or changed row, sometimes an AFTER DELETE statement trigger.
         * H2 runs Java triggers ({@link AuditTrigger}, {@link StampTrigger}), HSQLDB SQL ones.
         */
        private void defineTriggers(Table t, boolean statementTrigger) {
            triggered = t;
            if (engine == Engine.H2) {
                triggers.put("tg_audit", "CREATE TRIGGER tg_audit AFTER INSERT, UPDATE, DELETE ON " + t.name
                        + " FOR EACH ROW CALL \"" + AuditTrigger.class.getName() + "\"");
                triggers.put("tg_stamp", "CREATE TRIGGER tg_stamp BEFORE INSERT, UPDATE ON " + t.name
                        + " FOR EACH ROW CALL \"" + StampTrigger.class.getName() + "\"");
                if (statementTrigger) {
                    triggers.put("tg_stmt", "CREATE TRIGGER tg_stmt AFTER DELETE ON " + t.name + " CALL \""
                            + AuditTrigger.class.getName() + "\"");
                }
            } else {
                for (String event : List.of("INSERT", "UPDATE", "DELETE")) {
                    String row = event.equals("DELETE") ? "OLD ROW AS orow" : "NEW ROW AS nrow";
                    triggers.put("tg_a_" + event.charAt(0), "CREATE TRIGGER tg_a_" + event.charAt(0) + " AFTER "
                            + event + " ON " + t.name + " REFERENCING " + row + " FOR EACH ROW INSERT INTO audit "
                            + "(k, seq, what) VALUES (" + row.substring(row.length() - 4) + ".k, NEXT VALUE FOR "
                            + "audit_seq, '" + Character.toLowerCase(event.charAt(0)) + "')");
                }
                for (String event : List.of("INSERT", "UPDATE")) {
                    triggers.put("tg_s_" + event.charAt(0), "CREATE TRIGGER tg_s_" + event.charAt(0) + " BEFORE "
                            + event + " ON " + t.name + " REFERENCING NEW ROW AS nrow FOR EACH ROW "
                            + "SET nrow.st = 's-' || CAST(RAND() AS VARCHAR(30))");
                }
                if (statementTrigger) {
                    triggers.put("tg_stmt", "CREATE TRIGGER tg_stmt AFTER DELETE ON " + t.name + " FOR EACH "
                            + "STATEMENT INSERT INTO audit (seq, what) VALUES (NEXT VALUE FOR audit_seq, 's')");
                }
            }
        }

        private Table table(String name, Key key, Table parent, boolean updateCascades, boolean triggered,
                            Random random) {
            List<Column> columns = new ArrayList<>();
            boolean h2 = engine == Engine.H2;
            String sequenceDefault = h2 ? "DEFAULT NEXT VALUE FOR " : "GENERATED BY DEFAULT AS SEQUENCE ";
            switch (key) {
                case INT -> columns.add(new Column("k", Type.INT, "k INT PRIMARY KEY", false, false, true, true));
                case IDENTITY -> columns.add(new Column("k", Type.BIGINT,
                        "k BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", true, false, false, true));
                case IDENTITY_ALWAYS -> columns.add(new Column("k", Type.BIGINT,
                        "k BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY", true, true, false, true));
                case SEQUENCE -> columns.add(new Column("k", Type.BIGINT,
                        "k BIGINT " + sequenceDefault + "seq_key PRIMARY KEY", true, false, false, true));
                case COMPOSITE -> {
                    columns.add(new Column("k", Type.INT, "k INT NOT NULL", false, false, true, false));
                    columns.add(new Column("k2", Type.VARCHAR, "k2 VARCHAR(4) NOT NULL", false, false, true, false));
                }
                case NONE -> columns.add(new Column("k", Type.INT, "k INT", false, false, false, false));
                case NONE_IDENTITY -> columns.add(new Column("k", Type.BIGINT,
                        "k BIGINT GENERATED BY DEFAULT AS IDENTITY", true, false, false, false));
            }
            columns.add(new Column("n", Type.INT, "n INT CHECK (n BETWEEN -1000 AND 1000)", false, false, false,
                    false));
            if (random.nextInt(3) == 0) {
                columns.add(new Column("u", Type.INT, "u INT UNIQUE", false, false, false, true));
            }
            // HSQLDB allows one generated column per table: a sequence column only where the key is not one.
            boolean keyGenerated = key == Key.IDENTITY || key == Key.IDENTITY_ALWAYS || key == Key.SEQUENCE
                    || key == Key.NONE_IDENTITY;
            if (random.nextInt(3) == 0 && (h2 || !keyGenerated)) {
                columns.add(new Column("sq", Type.BIGINT, "sq BIGINT " + sequenceDefault + "seq_col", true, false,
                        false, false));
            }
            if (random.nextInt(3) == 0) {
                columns.add(new Column("made", Type.TIMESTAMP, "made TIMESTAMP DEFAULT CURRENT_TIMESTAMP", true,
                        false, false, false));
            }
            if (random.nextInt(3) == 0) {
                columns.add(new Column("noise", Type.DOUBLE, "noise " + Type.DOUBLE.sql(engine) + " DEFAULT RAND()",
                        true, false, false, false));
            }
            String[] names = {"s", "c", "d", "f", "b", "ts", "bin", "dt"};
            Type[] types = {Type.VARCHAR, Type.CHAR, Type.DECIMAL, Type.DOUBLE, Type.BOOLEAN, Type.TIMESTAMP,
                    Type.VARBINARY, Type.DATE};
            for (int i = 0; i < names.length; i++) {
                if (random.nextInt(5) < 3) {
                    columns.add(new Column(names[i], types[i], names[i] + " " + types[i].sql(engine), false, false,
                            false, false));
                }
            }
            // Nullable LOBs (never in a key, a UNIQUE constraint or an index).
            boolean clob = random.nextInt(3) == 0;
            boolean blob = random.nextInt(3) == 0;
            if (clob && Client.on("lob")) {
                columns.add(new Column("lc", Type.CLOB, "lc CLOB", false, false, false, false));
            }
            if (blob && Client.on("lob")) {
                columns.add(new Column("lb", Type.BLOB, "lb BLOB", false, false, false, false));
            }
            // A computed column: no statement writes it; WHERE clauses and reads use it.
            int computed = random.nextInt(6);
            if (computed < 2 && Client.on("computed")) {
                boolean text = computed == 0 && columns.stream().anyMatch(c -> c.name.equals("s"));
                String expression = text ? pick(random, "UPPER(s)", "LOWER(s)")
                        : pick(random, "n * 2", "COALESCE(n, 0) + 1", "COALESCE(k, 0) + COALESCE(n, 0)",
                        "CASE WHEN n > 10 THEN 1 ELSE 0 END");
                Type type = text ? Type.VARCHAR : Type.INT;
                columns.add(new Column("g", type, "g " + type.sql(engine) + " GENERATED ALWAYS AS (" + expression
                        + ")", true, true, false, false));
            }
            if (triggered) {
                // What the BEFORE trigger sets, per call; statements write it too (the trigger has the last word).
                columns.add(new Column("st", Type.VARCHAR, "st VARCHAR(40)", false, false, false, false));
            }
            String fk = null;
            if (parent != null) {
                Type fkType = parent.column("k").type;
                columns.add(new Column("pk", fkType, "pk " + fkType.sql, false, false, false, false));
                fk = "FOREIGN KEY (pk) REFERENCES " + parent.name + " (k) ON DELETE "
                        + (random.nextBoolean() ? "CASCADE" : "SET NULL") + (updateCascades ? " ON UPDATE CASCADE" : "");
            }
            return new Table(name, key, parent == null ? null : parent.name, updateCascades, columns, fk);
        }

        void create(Connection connection, Run run) throws SQLException {
            List<String> ddl = new ArrayList<>();
            ddl.add("CREATE SEQUENCE seq_key START WITH 1");
            ddl.add("CREATE SEQUENCE seq_col START WITH 100");
            ddl.add("CREATE SEQUENCE seq_free START WITH 1000");
            tables.forEach(t -> ddl.add(t.createSql()));
            if (triggered != null) {
                ddl.add("CREATE SEQUENCE audit_seq START WITH 1");
                ddl.add("CREATE TABLE audit (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, k BIGINT, "
                        + "seq BIGINT, what VARCHAR(2))");
                ddl.addAll(triggers.values());
                activeTriggers.addAll(triggers.keySet());
            }
            for (String sql : ddl) {
                run.note(sql);
                Engine.execute(connection, sql);
            }
        }
    }

    @SafeVarargs
    static <T> T pick(Random random, T... choices) {
        return choices[random.nextInt(choices.length)];
    }

    static <T> T pick(Random random, List<T> choices) {
        return choices.get(random.nextInt(choices.size()));
    }

    // ---- values: each as an SQL literal and as the Java object a prepared statement binds ----

    record Value(String literal, Object object, int jdbcType) {
        static Value nul(Type type) {
            return new Value("NULL", null, type.jdbc);
        }

        @Override
        public String toString() {
            return literal;
        }
    }

    private static final String[] TEXTS = {"a", "A", "b", "b ", "", "x y", "\u00e4\u00d6", "it's", "abc", "ABC",
            "  lead", "\uD834\uDD1E"};
    private static final String[] CHARS = {"a", "ab", "abcd", "A ", "", "z"};
    private static final String[] DECIMALS = {"0", "1.1", "1.10", "-0.50", "99999.99", "-12.34", "0.01", "3.14159",
            "2.005"};
    private static final String[] TIMESTAMPS = {"2024-01-02 03:04:05", "1999-12-31 23:59:59.999999",
            "2024-02-29 12:00:00.5", "1500-03-01 00:00:00", "2024-01-02 03:04:05.000001"};
    private static final String[] DATES = {"2024-02-29", "1970-01-01", "1500-03-01", "9999-12-31"};
    private static final String[] BINARIES = {"", "00", "4161", "4242", "00FF10", "FFFFFFFFFFFFFFFF"};

    static Value value(Type type, Random random, boolean forPrepared) {
        switch (type) {
            case INT -> {
                int v = random.nextInt(10) == 0 ? pick(random, 999, -1000, 1000, 0) : random.nextInt(45) - 3;
                return new Value(Integer.toString(v), v, Types.INTEGER);
            }
            case BIGINT -> {
                long v = random.nextInt(45) - 3;
                return new Value(Long.toString(v), v, Types.BIGINT);
            }
            case VARCHAR -> {
                String v = pick(random, TEXTS);
                return new Value(quote(v), v, Types.VARCHAR);
            }
            case CHAR -> {
                String v = pick(random, CHARS);
                return new Value(quote(v), v, Types.CHAR);
            }
            case DECIMAL -> {
                String v = pick(random, DECIMALS);
                return new Value(v, new BigDecimal(v), Types.DECIMAL);
            }
            case DOUBLE -> {
                // -0.0, NaN and the infinities only through setters: literals for them differ per engine.
                double v = forPrepared && random.nextInt(3) == 0
                        ? pick(random, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
                        Double.MIN_VALUE, 0.0)
                        : pick(random, 0.0, 1.5, -2.25, 1e10, 0.1, 3.0);
                return new Value(Double.toString(v), v, Types.DOUBLE);
            }
            case BOOLEAN -> {
                boolean v = random.nextBoolean();
                return new Value(Boolean.toString(v).toUpperCase(), v, Types.BOOLEAN);
            }
            case TIMESTAMP -> {
                String v = pick(random, TIMESTAMPS);
                return new Value("TIMESTAMP '" + v + "'", LocalDateTime.parse(v.replace(' ', 'T')), Types.TIMESTAMP);
            }
            case DATE -> {
                String v = pick(random, DATES);
                return new Value("DATE '" + v + "'", LocalDate.parse(v), Types.DATE);
            }
            case VARBINARY -> {
                String v = pick(random, BINARIES);
                return new Value("X'" + v + "'", HexFormat.of().parseHex(v), Types.VARBINARY);
            }
            case CLOB -> {
                if (random.nextInt(5) == 0) { // large: over 10,000 characters
                    int repeat = 2_600 + random.nextInt(5_000);
                    String unit = pick(random, "abcd", "x\u00e4y\n", "\uD834\uDD1E.-");
                    String v = unit.repeat(repeat);
                    return new Value(random.nextBoolean() ? "REPEAT(" + quote(unit) + ", " + repeat + ")" : quote(v),
                            v, Types.CLOB);
                }
                String v = pick(random, TEXTS);
                return new Value(quote(v), v, Types.CLOB);
            }
            case BLOB -> {
                String v = pick(random, BINARIES);
                if (random.nextInt(5) == 0) { // large: over 10,000 bytes
                    v = HexFormat.of().formatHex(new byte[] {(byte) random.nextInt(256)})
                            .repeat(10_001 + random.nextInt(20_000)) + v;
                }
                return new Value("X'" + v + "'", HexFormat.of().parseHex(v), Types.BLOB);
            }
        }
        throw new IllegalArgumentException(type.toString());
    }

    static String quote(String text) {
        return "'" + text.replace("'", "''") + "'";
    }

    // ---- one client: a connection, a random stream, the statement generator ----

    /** A client's own failure that the test means: an engine error no statement of the workload should get. */
    static final class Unexpected extends AssertionError {
        Unexpected(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** A statement the generator sends, and what may go wrong with it besides the deliberate constraint errors. */
    @FunctionalInterface
    interface SqlAction {
        void run() throws SQLException;
    }

    static final class Client {
        private final Run run;
        private final Engine engine;
        private final Schema schema;
        private final String url;
        private final Random random;
        /** Alone on the cluster: DDL may run, reads are compared with the master's, retryable states are errors. */
        private final boolean alone;
        private final boolean ddl;
        private Connection connection;
        private int names;
        /** The engine rolled the transaction back (class 40) and this client carried on: its savepoints are gone. */
        private boolean transactionLost;
        /** The tables this client writes; empty: it only reads and draws sequences. */
        private List<Table> writable;

        Client(Run run, Schema schema, String url, Random random, boolean alone, boolean ddl) throws SQLException {
            this.run = run;
            this.engine = run.engine;
            this.schema = schema;
            this.url = url;
            this.random = random;
            this.alone = alone;
            this.ddl = ddl;
            this.connection = Engine.connect(url);
        }

        void writeOnly(List<Table> tables) {
            this.writable = tables;
        }

        void close() throws SQLException {
            connection.close();
        }

        void closeQuietly() {
            try {
                connection.close();
            } catch (SQLException | RuntimeException e) {
                run.note("close failed: " + e);
            }
        }

        void run(int transactions, long deadline) throws SQLException {
            for (int i = 0; i < transactions && System.currentTimeMillis() < deadline; i++) {
                if (alone && PINPOINT && !BARE) {
                    pinpoint();
                }
                int dice = random.nextInt(100);
                try {
                    if (dice < 12) {
                        readOnlyTransaction();
                    } else if (dice < 19 && ddl) {
                        connection.setAutoCommit(true);
                        ddlStatement();
                    } else if (dice < 28) {
                        connection.setAutoCommit(true);
                        for (int s = random.nextInt(3); s >= 0; s--) {
                            statement();
                        }
                    } else {
                        updateTransaction();
                    }
                } catch (SQLException e) {
                    if (!retryable(e)) {
                        throw e;
                    }
                    run.count("retried " + e.getSQLState());
                    run.note("  -> retryable " + e.getSQLState() + ": " + firstLine(e) + "; rolled back");
                    if (alone) {
                        throw new Unexpected("a retryable error with no other client: " + e, e);
                    }
                    connection.rollback();
                } finally {
                    if (!connection.getAutoCommit()) {
                        connection.rollback(); // nothing is left open between transactions
                    }
                    connection.setReadOnly(false);
                }
            }
        }

        /**
         * With {@code -Dmacrodb.fuzz.pinpoint=true}: lets every slave catch up after each transaction and stops at the
         * first one that failed, so the log ends with the transaction that made it fail (for minimizing; slow).
         */
        private void pinpoint() throws SQLException {
            MacroCluster cluster = connection.unwrap(MacroCluster.class);
            List<ReplicaResult<Map<String, List<String>>>> contents =
                    cluster.queryEachReplica(c -> contents(c, engine));
            if (cluster.metrics().failures() > 0) {
                throw new Unexpected("a slave failed on the transaction before this point", null);
            }
            StringBuilder differences = new StringBuilder();
            for (ReplicaResult<Map<String, List<String>>> other : contents.subList(1, contents.size())) {
                differences.append(differences(contents.get(0).value(), other.value(), other.replica()));
            }
            if (differences.length() > 0) {
                throw new Unexpected("replicas differ after the transaction before this point:" + differences, null);
            }
        }

        static boolean on(String kind) {
            return !WITHOUT.contains(kind);
        }

        private static boolean retryable(SQLException e) {
            for (SQLException next = e.getNextException(); next != null && next != e; next = next.getNextException()) {
                if (next.getSQLState() != null && next.getSQLState().startsWith("40")) {
                    return true; // a batch element rolled the transaction back
                }
            }
            String state = e.getSQLState();
            return MacroSqlState.isRetryable(e) || "40001".equals(state) || "40P01".equals(state)
                    || "HYT00".equals(state) || (state != null && state.startsWith("40M"))
                    || Engine.isH2RollbackRace(e); // the statement fails, the transaction goes on
        }

        // ---- transactions ----

        private void updateTransaction() throws SQLException {
            connection.setAutoCommit(false);
            run.note("BEGIN");
            List<Savepoint> savepoints = new ArrayList<>();
            transactionLost = false;
            for (int s = 1 + random.nextInt(6); s > 0; s--) {
                if (transactionLost) {
                    savepoints.clear();
                }
                int dice = random.nextInt(100);
                if (dice < 8 && on("savepoint")) {
                    Savepoint savepoint = random.nextBoolean() ? connection.setSavepoint()
                            : connection.setSavepoint("sp" + savepoints.size());
                    savepoints.add(savepoint);
                    run.note("setSavepoint #" + savepoints.size());
                } else if (dice < 15 && !savepoints.isEmpty()) {
                    int i = random.nextInt(savepoints.size());
                    connection.rollback(savepoints.get(i));
                    run.note("rollback(savepoint #" + (i + 1) + ")");
                    // HSQLDB's JDBC driver invalidates a savepoint once rolled back to (the bare engine too); H2 keeps it.
                    savepoints.subList(engine == Engine.HSQLDB ? i : i + 1, savepoints.size()).clear();
                } else if (dice < 17 && !savepoints.isEmpty()) {
                    int i = random.nextInt(savepoints.size());
                    connection.releaseSavepoint(savepoints.get(i));
                    run.note("releaseSavepoint(#" + (i + 1) + ")");
                    savepoints.subList(i, savepoints.size()).clear();
                } else if (dice < 22) {
                    query();
                } else {
                    statement();
                }
            }
            int end = random.nextInt(100);
            if (end < 72) {
                run.note("COMMIT");
                connection.commit();
            } else if (end < 95) {
                run.note("ROLLBACK");
                connection.rollback();
            } else if (on("close")) {
                run.note("close() with the transaction open (rolls it back), reconnect");
                connection.close();
                connection = Engine.connect(url);
            }
        }

        /**
         * A read-only transaction: queries that must succeed on a slave (or fail retryably); alone, its reads of a
         * table are compared with the master's; a write attempted in it must be refused before it runs.
         */
        private void readOnlyTransaction() throws SQLException {
            connection.setAutoCommit(false);
            connection.setReadOnly(true);
            run.note("BEGIN READ ONLY");
            if (alone && random.nextInt(3) == 0 && !BARE) {
                Table table = pick(random, schema.tables);
                String query = "SELECT * FROM " + table.name;
                List<String> onSlave = dump(connection, query);
                connection.commit();
                connection.setReadOnly(false);
                List<String> onMaster = dump(connection, query); // an update transaction reads at the master
                connection.commit();
                run.note(query + " read-only and at the master: " + onSlave.size() + " rows");
                if (!onSlave.equals(onMaster)) {
                    throw new Unexpected("a read-only transaction read other rows of " + table.name + " than the "
                            + "master: " + onSlave + " vs " + onMaster, null);
                }
                return;
            }
            for (int q = 1 + random.nextInt(3); q > 0; q--) {
                if (random.nextInt(10) == 0 && !BARE) {
                    String write = random.nextBoolean() ? "UPDATE " + pick(random, schema.tables).name + " SET n = 0"
                            : engine.nextValue("seq_free");
                    run.note(write + " (read-only: must be refused)");
                    try (Statement statement = connection.createStatement()) {
                        statement.execute(write);
                        throw new Unexpected("a write ran in a read-only transaction: " + write, null);
                    } catch (SQLException e) {
                        if (!MacroSqlState.READ_ONLY_TRANSACTION.equals(e.getSQLState())) {
                            throw e;
                        }
                        run.count("refused read-only write");
                    }
                } else {
                    query();
                }
            }
            run.note("COMMIT");
            connection.commit();
        }

        private void query() throws SQLException {
            Table t = pick(random, schema.tables);
            String sql = switch (random.nextInt(6)) {
                case 5 -> newFeatureQuery(t);
                case 0 -> "SELECT COUNT(*), SUM(n), MAX(k), MIN(k) FROM " + t.name;
                case 1 -> "SELECT * FROM " + t.name + " WHERE k < " + random.nextInt(30) + " ORDER BY k";
                case 2 -> "SELECT p.k, COUNT(c.pk) FROM p LEFT JOIN c ON c.pk = p.k GROUP BY p.k";
                case 3 -> "SELECT COUNT(*) FROM " + t.name + " WHERE n IS NULL OR n > " + random.nextInt(20);
                default -> "SELECT k, n FROM " + t.name + " WHERE k IN (SELECT k FROM "
                        + pick(random, schema.tables).name + ")";
            };
            attempt(sql, () -> {
                try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
                    int columns = rows.getMetaData().getColumnCount();
                    while (rows.next()) {
                        for (int i = 1; i <= columns; i++) { // a LOB read whole: getBytes for a BLOB, else getString
                            if (rows.getMetaData().getColumnType(i) == Types.BLOB) {
                                rows.getBytes(i);
                            } else {
                                rows.getString(i);
                            }
                        }
                    }
                }
            });
        }

        /** A read of the features added last: LOB columns read whole, a computed column, the audit table. */
        private String newFeatureQuery(Table t) {
            List<String> lobs = t.columns.stream().filter(c -> c.type.lob()).map(Column::name).toList();
            int dice = random.nextInt(3);
            if (dice == 0 && !lobs.isEmpty()) {
                return "SELECT k, " + String.join(", ", lobs) + " FROM " + t.name + " WHERE " + pick(random, lobs)
                        + " IS NOT NULL ORDER BY k";
            } else if (dice == 1 && schema.triggered != null) {
                return pick(random, "SELECT COUNT(*), MAX(seq), MAX(id) FROM audit",
                        "SELECT what, COUNT(*) FROM audit GROUP BY what", "SELECT * FROM audit WHERE k = "
                                + random.nextInt(40));
            } else if (t.has("g")) {
                return "SELECT k, g FROM " + t.name + " WHERE " + predicate(t) + " ORDER BY g";
            }
            return "SELECT * FROM " + t.name + " WHERE n IS NOT NULL";
        }

        // ---- statements ----

        /** One write (or sequence draw) of the workload. */
        private void statement() throws SQLException {
            List<Table> tables = writable == null ? schema.tables : writable;
            if (tables.isEmpty()) {
                drawSequence(pick(random, schema.tables));
                return;
            }
            Table t = pick(random, tables);
            int dice = random.nextInt(100);
            if (dice < 14 && on("insert")) {
                insertLiterals(t);
            } else if (dice < 24 && on("prepared")) {
                insertPrepared(t);
            } else if (dice < 29 && on("insertSelect")) {
                insertSelect(t);
            } else if (dice < 38) {
                updateByKey(t);
            } else if (dice < 47 && on("updateRange")) {
                updateRange(t);
            } else if (dice < 53 && on("shift")) {
                shiftUniqueColumn(t);
            } else if (dice < 59 && on("delete")) {
                delete(t);
            } else if (dice < 66 && on("merge")) {
                merge(t);
            } else if (dice < 70 && engine == Engine.H2 && on("mergeKey")) {
                mergeKey(t);
            } else if (dice < 74 && on("failHalfway")) {
                failHalfway(t);
            } else if (dice < 78 && on("duplicate")) {
                insertDuplicate(t);
            } else if (dice < 81 && on("check")) {
                violateCheck(t);
            } else if (dice < 84 && on("foreignKey") && tables.contains(schema.table("c"))) {
                violateForeignKey();
            } else if (dice < 88 && on("sequence")) {
                drawSequence(t);
            } else if (dice < 92 && engine == Engine.H2 && on("delta")) {
                deltaTable(t);
            } else if (dice < 96 && on("batch")) {
                statementBatch(t);
            } else {
                updateByKey(t);
            }
        }

        /** Runs one statement: constraint and data errors are expected (counted); others fail the case. */
        private void attempt(String sql, SqlAction action) throws SQLException {
            run.note(sql);
            try {
                action.run();
                run.count("ok");
            } catch (SQLException e) {
                if (retryable(e) && !alone && !connection.getAutoCommit() && random.nextInt(4) == 0 && on("carry")) {
                    // Some applications log the error and carry on: the engine may have rolled the whole transaction
                    // back (40001), and what they commit next must be all that reaches the slaves.
                    run.count("carried on after " + e.getSQLState());
                    transactionLost = true; // it may have been rolled back: its savepoints are no longer used
                    run.note("  -> " + e.getSQLState() + " " + firstLine(e) + "; carried on");
                    return;
                }
                if (retryable(e)) {
                    throw e;
                }
                String state = e.getSQLState() == null ? "" : e.getSQLState();
                if (state.startsWith("22") || state.startsWith("23") || state.startsWith("21")) {
                    run.count("expected " + state);
                    run.note("  -> " + state + " " + firstLine(e));
                    return;
                }
                throw new Unexpected("unexpected " + state + " (" + e.getErrorCode() + ") from " + abbreviate(sql)
                        + ": " + abbreviate(firstLine(e)), e);
            }
        }

        private void execute(String sql) throws SQLException {
            attempt(sql, () -> {
                try (Statement statement = connection.createStatement()) {
                    statement.execute(sql);
                }
            });
        }

        /**
         * Whether this client writes {@code column}. Not a LOB on HSQLDB with other clients: HSQLDB 2.7.4 itself then
         * fails a statement that writes one, now and then, with 0F502 "lob is no longer valid" (the bare engine too:
         * 2 to 3 seeds in 40 of the concurrent part, with or without connections closed mid-transaction).
         */
        private boolean writes(Column column) {
            return column.insertable() && !(column.type.lob() && engine == Engine.HSQLDB && !alone);
        }

        /** Columns an insert names: every required one, and some of the others. */
        private List<Column> insertColumns(Table t) {
            List<Column> chosen = new ArrayList<>();
            for (Column column : t.columns) {
                if (!writes(column) && !column.required) {
                    continue;
                }
                if (column.required || (column.insertable() && random.nextInt(3) > 0 && !column.generated)
                        || (column.insertable() && column.generated && random.nextInt(6) == 0)) {
                    chosen.add(column);
                }
            }
            if (chosen.isEmpty()) {
                chosen.add(t.column("n"));
            }
            return chosen;
        }

        private Value valueFor(Column column, boolean forPrepared) {
            if (!column.required && random.nextInt(6) == 0) {
                return Value.nul(column.type);
            }
            if (column.name.equals("k2")) {
                String v = pick(random, "a", "b", "A");
                return new Value(quote(v), v, Types.VARCHAR);
            }
            return value(column.type, random, forPrepared);
        }

        private static String names(List<Column> columns) {
            StringBuilder out = new StringBuilder();
            for (Column column : columns) {
                out.append(out.length() == 0 ? "" : ", ").append(column.name);
            }
            return out.toString();
        }

        private String rowLiteral(List<Column> columns) {
            StringBuilder out = new StringBuilder("(");
            for (int i = 0; i < columns.size(); i++) {
                Column column = columns.get(i);
                String literal = random.nextInt(12) == 0 && !column.required ? "DEFAULT"
                        : valueFor(column, false).literal;
                out.append(i == 0 ? "" : ", ").append(literal);
            }
            return out.append(")").toString();
        }

        private void insertLiterals(Table t) throws SQLException {
            List<Column> columns = insertColumns(t);
            StringBuilder sql = new StringBuilder("INSERT INTO ").append(t.name).append(" (").append(names(columns))
                    .append(") VALUES ");
            for (int r = random.nextInt(3) == 0 ? 1 + random.nextInt(4) : 1; r > 0; r--) {
                sql.append(rowLiteral(columns)).append(r > 1 ? ", " : "");
            }
            execute(sql.toString());
        }

        private void insertPrepared(Table t) throws SQLException {
            List<Column> columns = insertColumns(t);
            String sql = "INSERT INTO " + t.name + " (" + names(columns) + ") VALUES ("
                    + String.join(", ", Collections.nCopies(columns.size(), "?")) + ")";
            int rows = random.nextInt(3) == 0 ? 2 + random.nextInt(4) : 1;
            boolean batch = (rows > 1 || random.nextInt(4) == 0) && on("batch");
            // HSQLDB 2.7.4 itself fails getGeneratedKeys (24501) after an insert into a table with no generated
            // column, in the second database a JVM opens (measured on the bare engine): asked only where one is.
            boolean keys = random.nextInt(3) == 0 && (engine == Engine.H2 || t.identity());
            List<List<Value>> bound = new ArrayList<>();
            for (int r = 0; r < rows; r++) {
                List<Value> values = new ArrayList<>();
                for (Column column : columns) {
                    values.add(valueFor(column, true));
                }
                bound.add(values);
            }
            attempt(sql + (batch ? " batch " : " ") + bound + (keys ? " returning keys" : ""), () -> {
                try (PreparedStatement insert = keys
                        ? connection.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS)
                        : connection.prepareStatement(sql)) {
                    for (List<Value> values : bound) {
                        for (int i = 0; i < values.size(); i++) {
                            Value v = values.get(i);
                            if (v.object == null) {
                                insert.setNull(i + 1, v.jdbcType);
                            } else if (v.object instanceof String text && v.jdbcType == Types.CLOB
                                    && text.length() % 2 == 1) { // some LOBs as streams (which, decided by length)
                                insert.setCharacterStream(i + 1, new java.io.StringReader(text));
                            } else if (v.object instanceof byte[] bytes && v.jdbcType == Types.BLOB
                                    && bytes.length % 2 == 1) {
                                insert.setBinaryStream(i + 1, new java.io.ByteArrayInputStream(bytes));
                            } else {
                                insert.setObject(i + 1, v.object);
                            }
                        }
                        if (batch) {
                            insert.addBatch();
                        } else {
                            insert.executeUpdate();
                        }
                    }
                    if (batch) {
                        insert.executeBatch();
                    }
                    if (keys) {
                        try (ResultSet generated = insert.getGeneratedKeys()) {
                            while (generated.next()) {
                                generated.getString(1);
                            }
                        }
                    }
                }
            });
        }

        /** Copies rows between tables (or within one), the key moved by an offset: some collide. */
        private void insertSelect(Table t) throws SQLException {
            Table source = pick(random, schema.tables);
            List<String> targets = new ArrayList<>();
            List<String> sources = new ArrayList<>();
            for (Column column : t.columns) {
                if (!writes(column)) {
                    continue;
                }
                String from = switch (column.name) {
                    case "k" -> column.generated && random.nextBoolean() ? null : "COALESCE(k, 0) + "
                            + (random.nextInt(30) - 5);
                    case "k2" -> source.has("k2") ? "k2" : "'a'";
                    case "n" -> random.nextBoolean() ? "n" : "MOD(COALESCE(k, 0), 7)";
                    case "pk" -> random.nextBoolean() ? null : "k";
                    default -> source.has(column.name) && source.column(column.name).type == column.type
                            && random.nextBoolean() ? column.name : null;
                };
                if (from != null || column.required) {
                    targets.add(column.name);
                    sources.add(from == null ? "NULL" : from);
                }
            }
            if (targets.isEmpty()) {
                return;
            }
            execute("INSERT INTO " + t.name + " (" + String.join(", ", targets) + ") SELECT "
                    + String.join(", ", sources) + " FROM " + source.name + " WHERE k BETWEEN "
                    + random.nextInt(20) + " AND " + (10 + random.nextInt(30)));
        }

        /** An expression that sets {@code column} from its own value, a function that differs per call, or a value. */
        private String expression(Column column) {
            String name = column.name;
            return switch (column.type) {
                case INT -> pick(random, name + " * 2", name + " + 1", "-" + name, "CAST(RAND() * 100 AS INT)",
                        "(SELECT COUNT(*) FROM " + pick(random, schema.tables).name + ")",
                        valueFor(column, false).literal);
                case BIGINT -> pick(random, name + " + 1", "NEXT VALUE FOR seq_free", valueFor(column, false).literal);
                case DOUBLE -> pick(random, "RAND()", name + " * 2", "-" + name, valueFor(column, false).literal);
                case TIMESTAMP -> pick(random, "CURRENT_TIMESTAMP", "LOCALTIMESTAMP", name + " + INTERVAL '1' DAY",
                        valueFor(column, false).literal);
                case VARCHAR -> pick(random, "UPPER(" + name + ")", name + " || 'x'", valueFor(column, false).literal);
                case DECIMAL -> pick(random, name + " * 1.5", name + " + 0.005", valueFor(column, false).literal);
                case BOOLEAN -> pick(random, "NOT " + name, valueFor(column, false).literal);
                case DATE -> pick(random, "CURRENT_DATE", valueFor(column, false).literal);
                case CLOB -> pick(random, name + " || 'x'", "NULL", valueFor(column, false).literal);
                case BLOB -> pick(random, "NULL", valueFor(column, false).literal);
                default -> valueFor(column, false).literal;
            };
        }

        /** Columns an UPDATE may set (not the key, handled by its own statements; not ALWAYS). */
        private List<Column> settable(Table t) {
            List<Column> columns = new ArrayList<>();
            for (Column column : t.columns) {
                if (writes(column) && !column.name.equals("k") && !column.name.equals("k2")) {
                    columns.add(column);
                }
            }
            return columns;
        }

        private String setClause(Table t) {
            return setClause(t, null);
        }

        /** One to three columns set, never {@code except} (a column may be set once per statement). */
        private String setClause(Table t, String except) {
            List<Column> columns = settable(t);
            columns.removeIf(c -> c.name.equals(except));
            if (columns.isEmpty()) {
                return "n".equals(except) ? "" : "n = n";
            }
            Collections.shuffle(columns, random);
            List<String> sets = new ArrayList<>();
            for (Column column : columns.subList(0, 1 + random.nextInt(Math.min(3, columns.size())))) {
                sets.add(column.name + " = " + expression(column));
            }
            return String.join(", ", sets);
        }

        private String predicate(Table t) {
            return switch (random.nextInt(7)) {
                case 0 -> "k = " + random.nextInt(40);
                case 1 -> {
                    int low = random.nextInt(35);
                    yield "k BETWEEN " + low + " AND " + (low + random.nextInt(8));
                }
                case 2 -> "n < " + (random.nextInt(30) - 3);
                case 3 -> "MOD(k, " + (2 + random.nextInt(3)) + ") = 0";
                case 4 -> "k IN (SELECT k FROM " + pick(random, schema.tables).name + " WHERE n > "
                        + random.nextInt(20) + ")";
                case 6 -> t.has("g") ? (t.column("g").type == Type.INT ? "g > " + random.nextInt(30)
                        : "g IN ('A', 'B', 'ABC', 'X Y')") : "n IS NULL";
                default -> pick(random, settable(t)).name + " IS NULL";
            };
        }

        private void updateByKey(Table t) throws SQLException {
            execute("UPDATE " + t.name + " SET " + setClause(t) + " WHERE k = " + random.nextInt(40)
                    + (t.has("k2") ? " AND k2 = " + quote(pick(random, "a", "b", "A")) : ""));
        }

        private void updateRange(Table t) throws SQLException {
            execute("UPDATE " + t.name + " SET " + setClause(t) + " WHERE " + predicate(t));
        }

        /**
         * Moves a key or UNIQUE column across its neighbours' values in one statement (k = k + 1 over a range, a
         * swap, a negation): both engines check uniqueness at the end of the statement, not row by row.
         */
        private void shiftUniqueColumn(Table t) throws SQLException {
            List<String> candidates = new ArrayList<>();
            if (t.keyWritable() && t.key != Key.NONE_IDENTITY) {
                candidates.add("k");
            }
            if (t.has("u")) {
                candidates.add("u");
            }
            if (candidates.isEmpty()) {
                updateRange(t);
                return;
            }
            String c = pick(random, candidates);
            int low = random.nextInt(30);
            int high = low + 1 + random.nextInt(6);
            String set = switch (random.nextInt(4)) {
                case 0 -> c + " = " + c + " + 1";
                case 1 -> c + " = " + c + " - 1";
                case 2 -> c + " = CASE WHEN " + c + " = " + low + " THEN " + high + " WHEN " + c + " = " + high
                        + " THEN " + low + " ELSE " + c + " END";
                default -> c + " = " + (low + high) + " - " + c;
            };
            execute("UPDATE " + t.name + " SET " + set + " WHERE " + c + " BETWEEN " + low + " AND " + high);
        }

        private void delete(Table t) throws SQLException {
            execute("DELETE FROM " + t.name + " WHERE " + predicate(t));
        }

        /** The standard MERGE, sometimes with several source rows (two may match one target: cardinality error). */
        private void merge(Table t) throws SQLException {
            List<Column> columns = new ArrayList<>(insertColumns(t));
            Column match = t.keyWritable() ? t.column("k") : t.column("n");
            if (!columns.contains(match)) {
                columns.add(0, match);
            }
            StringBuilder source = new StringBuilder();
            for (int r = 1 + random.nextInt(3); r > 0; r--) {
                source.append(source.length() == 0 ? "" : ", ").append('(');
                for (int i = 0; i < columns.size(); i++) {
                    Column column = columns.get(i);
                    source.append(i == 0 ? "" : ", ").append("CAST(").append(valueFor(column, false).literal)
                            .append(" AS ").append(column.type.sql(engine).replace("(12)", "(12)")).append(')');
                }
                source.append(')');
            }
            List<String> updates = new ArrayList<>();
            for (Column column : columns) {
                if (column != match && !column.name.equals("k2") && !column.name.equals("k")) {
                    updates.add(column.name + " = src." + column.name);
                }
            }
            if (updates.isEmpty()) {
                updates.add("n = " + t.name + ".n + 1");
            }
            String on = t.name + "." + match.name + " = src." + match.name
                    + (t.has("k2") && columns.contains(t.column("k2")) ? " AND " + t.name + ".k2 = src.k2" : "");
            execute("MERGE INTO " + t.name + " USING (VALUES " + source + ") AS src(" + names(columns) + ") ON "
                    // HSQLDB 2.7.4 fails a MERGE ... THEN DELETE (S1000 General error) that deletes a row of a table
                    // with a row-level UPDATE trigger, and, with none, one whose MATCHED update reaches a key generated
                    // by a sequence (a NullPointerException in its Table.setIdentityColumn; the bare engine too,
                    // 2026-11-27): the engine's bugs, not generated there.
                    + on + (random.nextInt(4) == 0 && columns.contains(t.column("n")) && engine == Engine.H2
                    ? " WHEN MATCHED AND src.n < 5 THEN DELETE" : "")
                    + " WHEN MATCHED THEN UPDATE SET " + String.join(", ", updates)
                    + " WHEN NOT MATCHED THEN INSERT (" + names(columns) + ") VALUES ("
                    + names(columns).replaceAll("(\\w+)", "src.$1") + ")");
        }

        /** H2's MERGE ... KEY: an update of the row with that key, or an insert. */
        private void mergeKey(Table t) throws SQLException {
            if (!t.keyWritable()) {
                insertLiterals(t);
                return;
            }
            List<Column> columns = new ArrayList<>(insertColumns(t));
            Column k = t.column("k");
            if (!columns.contains(k)) {
                columns.add(0, k);
            }
            String key = t.has("k2") ? "k, k2" : "k";
            if (t.has("k2") && !columns.contains(t.column("k2"))) {
                columns.add(1, t.column("k2"));
            }
            StringBuilder rows = new StringBuilder();
            for (int r = 1 + random.nextInt(2); r > 0; r--) {
                rows.append(rows.length() == 0 ? "" : ", ").append(rowLiteral(columns).replace("DEFAULT", "NULL"));
            }
            execute("MERGE INTO " + t.name + " (" + names(columns) + ") KEY (" + key + ") VALUES " + rows);
        }

        /** A multi-row UPDATE that divides by zero at one row: the rows before it were written, then undone. */
        private void failHalfway(Table t) throws SQLException {
            Column column = pick(random, settable(t));
            int at = 2 + random.nextInt(20);
            String set = column.name.equals("n") || column.type != Type.INT
                    ? "n = COALESCE(n, 0) + 1 / (COALESCE(k, 0) - " + at + ")"
                    : column.name + " = 1 / (COALESCE(k, 0) - " + at + ")";
            String failing = set.substring(0, set.indexOf(' '));
            String more = random.nextBoolean() ? setClause(t, failing) : "";
            execute("UPDATE " + t.name + " SET " + set + (more.isEmpty() ? "" : ", " + more)
                    + " WHERE k BETWEEN 0 AND " + (at + random.nextInt(10)));
        }

        /** Rows, the last one a duplicate of the first: the statement fails after inserting some. */
        private void insertDuplicate(Table t) throws SQLException {
            if (!t.keyed() || !t.keyWritable()) {
                if (t.has("u")) {
                    execute("INSERT INTO " + t.name + " (n, u) VALUES (1, 77), (2, 77)");
                } else {
                    insertLiterals(t);
                }
                return;
            }
            List<Column> columns = insertColumns(t);
            Column k = t.column("k");
            if (!columns.contains(k)) {
                columns.add(0, k);
            }
            if (t.has("k2") && !columns.contains(t.column("k2"))) {
                columns.add(1, t.column("k2"));
            }
            String first = rowLiteral(columns).replace("DEFAULT", "NULL");
            execute("INSERT INTO " + t.name + " (" + names(columns) + ") VALUES " + first + ", "
                    + rowLiteral(columns).replace("DEFAULT", "NULL") + ", " + first);
        }

        private void violateCheck(Table t) throws SQLException {
            execute(random.nextBoolean()
                    ? "UPDATE " + t.name + " SET n = COALESCE(n, 1) * 400 WHERE " + predicate(t)
                    : "INSERT INTO " + t.name + " (n" + (t.column("k").required ? ", k" : "")
                    + (t.has("k2") ? ", k2" : "") + ") VALUES (5000" + (t.column("k").required ? ", 1" : "")
                    + (t.has("k2") ? ", 'b'" : "") + ")");
        }

        private void violateForeignKey() throws SQLException {
            Table child = schema.table("c");
            execute(random.nextBoolean()
                    ? "UPDATE c SET pk = " + (100 + random.nextInt(50)) + " WHERE " + predicate(child)
                    : "INSERT INTO c (n, pk" + (child.column("k").required ? ", k" : "")
                    + (child.has("k2") ? ", k2" : "") + ") VALUES (1, 999" + (child.column("k").required ? ", 1" : "")
                    + (child.has("k2") ? ", 'a'" : "") + ")");
        }

        /** Draws from a sequence in a query: outside any row, or once per row of a table. */
        private void drawSequence(Table t) throws SQLException {
            String sequence = pick(random, schema.sequences);
            String sql = random.nextBoolean() ? engine.nextValue(sequence)
                    : "SELECT k, NEXT VALUE FOR " + sequence + " FROM " + t.name + " WHERE k < " + random.nextInt(20);
            attempt(sql, () -> {
                try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
                    while (rows.next()) {
                        rows.getLong(rows.getMetaData().getColumnCount());
                    }
                }
            });
        }

        /** H2's data-change delta tables: a write inside a SELECT. */
        private void deltaTable(Table t) throws SQLException {
            String inner = switch (random.nextInt(4)) {
                case 0 -> {
                    List<Column> columns = insertColumns(t);
                    yield "INSERT INTO " + t.name + " (" + names(columns) + ") VALUES " + rowLiteral(columns);
                }
                case 1 -> "UPDATE " + t.name + " SET " + setClause(t) + " WHERE " + predicate(t);
                case 2 -> "DELETE FROM " + t.name + " WHERE " + predicate(t);
                default -> {
                    List<Column> columns = insertColumns(t);
                    yield "INSERT INTO " + t.name + " (" + names(columns) + ") VALUES " + rowLiteral(columns)
                            + ", " + rowLiteral(columns);
                }
            };
            String delta = inner.startsWith("DELETE") ? "OLD" : random.nextBoolean() ? "FINAL" : "NEW";
            String sql = "SELECT * FROM " + delta + " TABLE (" + inner + ")";
            attempt(sql, () -> {
                try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
                    while (rows.next()) {
                        rows.getString(1);
                    }
                }
            });
        }

        /** Several writes sent as one JDBC batch of a plain statement. */
        private void statementBatch(Table t) throws SQLException {
            List<String> sqls = new ArrayList<>();
            for (int i = 1 + random.nextInt(3); i > 0; i--) {
                List<Column> columns = insertColumns(t);
                sqls.add(switch (random.nextInt(3)) {
                    case 0 -> "INSERT INTO " + t.name + " (" + names(columns) + ") VALUES " + rowLiteral(columns);
                    case 1 -> "UPDATE " + t.name + " SET " + setClause(t) + " WHERE " + predicate(t);
                    default -> "DELETE FROM " + t.name + " WHERE k = " + random.nextInt(40);
                });
            }
            attempt("batch " + sqls, () -> {
                try (Statement statement = connection.createStatement()) {
                    for (String sql : sqls) {
                        statement.addBatch(sql);
                    }
                    try {
                        statement.executeBatch();
                    } catch (java.sql.BatchUpdateException e) {
                        SQLException next = e.getNextException() != null ? e.getNextException() : e;
                        throw next.getSQLState() != null ? next : e;
                    }
                }
            });
        }

        // ---- DDL, alone only: it changes the schema the other statements are generated from ----

        private void ddlStatement() throws SQLException {
            Table t = pick(random, schema.tables);
            int dice = random.nextInt(115);
            if (dice >= 100) {
                newFeatureDdl(t, dice);
            } else if (dice < 12) {
                String name = "a" + (++names);
                execute("ALTER TABLE " + t.name + " ADD COLUMN " + name + " INT DEFAULT " + random.nextInt(9));
                t.columns.add(new Column(name, Type.INT, null, true, false, false, false));
            } else if (dice < 22) {
                String name = "a" + (++names);
                boolean timestamp = random.nextBoolean();
                Type type = timestamp ? Type.TIMESTAMP : Type.DOUBLE;
                execute("ALTER TABLE " + t.name + " ADD COLUMN " + name + " " + type.sql(engine) + " DEFAULT "
                        + (timestamp ? "CURRENT_TIMESTAMP" : "RAND()") + (random.nextBoolean() ? " NOT NULL" : ""));
                t.columns.add(new Column(name, type, null, true, false, false, false));
            } else if (dice < 28) {
                Column added = t.columns.stream().filter(c -> c.name.matches("a\\d+")).findFirst().orElse(null);
                if (added != null) {
                    // HSQLDB refuses to drop a column of a table whose row triggers reference its rows (42502,
                    // dependent objects exist; the bare engine too): as an application would, they are dropped
                    // first and created again after.
                    boolean around = engine == Engine.HSQLDB && t == schema.triggered;
                    List<String> triggers = around ? new ArrayList<>(schema.activeTriggers) : List.of();
                    for (String trigger : triggers) {
                        execute("DROP TRIGGER " + trigger);
                    }
                    execute("ALTER TABLE " + t.name + " DROP COLUMN " + added.name);
                    t.columns.remove(added);
                    for (String trigger : triggers) {
                        execute(schema.triggers.get(trigger));
                    }
                }
            } else if (dice < 36) {
                List<Column> indexable = settable(t);
                indexable.removeIf(c -> c.type.lob());
                execute("CREATE " + (random.nextInt(4) == 0 ? "UNIQUE " : "") + "INDEX ix" + (++names) + " ON "
                        + t.name + " (" + pick(random, indexable).name + ")");
            } else if (dice < 44) {
                Table child = schema.table("c");
                execute("TRUNCATE TABLE c" + (child.identity() && random.nextBoolean() ? " RESTART IDENTITY" : ""));
            } else if (dice < 47) {
                attempt("TRUNCATE TABLE p (referenced: refused by the engine)", () -> {
                    try (Statement statement = connection.createStatement()) {
                        statement.execute("TRUNCATE TABLE p");
                    } catch (SQLException e) {
                        if (!"90106".equals(e.getSQLState()) && !"23504".equals(e.getSQLState())) {
                            throw e;
                        }
                        run.count("expected truncate refusal");
                    }
                });
            } else if (dice < 56) {
                execute("ALTER SEQUENCE " + pick(random, schema.sequences) + " RESTART WITH " + (1 + random.nextInt(40)));
            } else if (dice < 64) {
                Table identity = schema.tables.stream().filter(Table::identity).findAny().orElse(t);
                if (identity.identity()) {
                    execute("ALTER TABLE " + identity.name + " ALTER COLUMN k RESTART WITH " + (1 + random.nextInt(40)));
                }
            } else if (dice < 72) {
                Table dropped = schema.table(pick(random, "x", "y"));
                execute("DROP TABLE " + dropped.name);
                execute(dropped.createSql());
                dropped.columns.clear();
                dropped.columns.addAll(dropped.initial);
                if (dropped == schema.triggered) { // its triggers went with it: the application creates them again
                    for (String trigger : schema.activeTriggers) {
                        execute(schema.triggers.get(trigger));
                    }
                }
            } else if (dice < 78) {
                Table renamed = schema.table(pick(random, "x", "y"));
                execute("ALTER TABLE " + renamed.name + " RENAME TO " + renamed.name + "_renamed");
                List<Column> columns = insertColumns(renamed);
                execute("INSERT INTO " + renamed.name + "_renamed (" + names(columns) + ") VALUES "
                        + rowLiteral(columns));
                execute("ALTER TABLE " + renamed.name + "_renamed RENAME TO " + renamed.name);
            } else if (dice < 86) {
                String name = "snap" + (++names);
                boolean computed = random.nextBoolean();
                execute("CREATE TABLE " + name + " AS (SELECT k, n" + (computed ? ", RAND() AS r, CURRENT_TIMESTAMP AS made_at"
                        : "") + " FROM " + t.name + ") WITH DATA");
                if (random.nextBoolean()) {
                    execute("DROP TABLE " + name);
                }
            } else if (dice < 93) {
                Column column = pick(random, settable(t));
                if (column.type == Type.INT || column.type == Type.DOUBLE) {
                    execute("ALTER TABLE " + t.name + " ALTER COLUMN " + column.name + " SET DEFAULT "
                            + (column.type == Type.INT ? "7" : "RAND()"));
                }
            } else {
                execute("ALTER TABLE " + t.name + " ALTER COLUMN n SET DEFAULT " + random.nextInt(9));
            }
        }

        /**
         * DDL of the features added last: DROP TRIGGER (or CREATE TRIGGER again), a LOB column or a computed one
         * added; where the seed has none of them (or -without leaves it out), a default changed as below.
         */
        private void newFeatureDdl(Table t, int dice) throws SQLException {
            if (dice < 108 && schema.triggered != null) {
                List<String> active = new ArrayList<>(schema.activeTriggers);
                List<String> dropped = new ArrayList<>(schema.triggers.keySet());
                dropped.removeAll(active);
                if (!active.isEmpty() && (dropped.isEmpty() || random.nextInt(3) > 0)) {
                    String trigger = pick(random, active);
                    execute("DROP TRIGGER " + trigger);
                    schema.activeTriggers.remove(trigger);
                } else {
                    String trigger = pick(random, dropped);
                    execute(schema.triggers.get(trigger));
                    schema.activeTriggers.add(trigger);
                }
            } else if (dice >= 108 && dice < 112 && on("lob")) {
                String name = "a" + (++names);
                Type type = random.nextBoolean() ? Type.CLOB : Type.BLOB;
                execute("ALTER TABLE " + t.name + " ADD COLUMN " + name + " " + type.sql(engine));
                t.columns.add(new Column(name, type, null, false, false, false, false));
            } else if (dice >= 112 && on("computed")) {
                String name = "a" + (++names);
                execute("ALTER TABLE " + t.name + " ADD COLUMN " + name + " INT GENERATED ALWAYS AS ("
                        + pick(random, "n + 1", "COALESCE(n, 0) * 3", "ABS(COALESCE(k, 0) - 5)") + ")");
                t.columns.add(new Column(name, Type.INT, null, true, true, false, false));
            } else {
                execute("ALTER TABLE " + t.name + " ALTER COLUMN n SET DEFAULT " + random.nextInt(9));
            }
        }

        private static String firstLine(SQLException e) {
            String message = String.valueOf(e.getMessage());
            int end = message.indexOf('\n');
            return end < 0 ? message : message.substring(0, end);
        }
    }
}
