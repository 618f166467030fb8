import io.macrodb.api.MacroCluster;
import io.macrodb.api.VerificationReport;
import java.sql.*;
import java.util.*;
import java.util.concurrent.atomic.*;
import java.io.*;

/**
 * SchemaChangeUnderLoadTest.schemaChangesOnATableWhileRowsAreInserted on H2, in rounds of a fresh cluster each:
 * one writer inserting rows in auto-commit mode beside 20 CREATE INDEX / DROP INDEX pairs. Counts the errors by
 * kind, reports a round where a failed insert left its row (or the check after it failed), where a replica failed,
 * or where the replicas hold different row counts. Arguments: seconds, and optionally a URL pattern (%d: the
 * round), e.g. jdbc:h2:mem:alone%d for H2 alone.
 */
public class RollbackBesideDdl {
    static String summarize(String report) {
        StringBuilder b = new StringBuilder();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("PUBLIC.T=TableChecksum\\[rows=([0-9]+)").matcher(report);
        while (m.find()) b.append(m.group(1)).append(' ');
        return "T rows per replica: " + b;
    }

    public static void main(String[] a) throws Exception {
        int seconds = Integer.parseInt(a[0]);
        String base = a.length > 1 ? a[1] : "jdbc:macrodb:h2:mem:rollback-beside-ddl-%d;macrodb.replicas=2";
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        int round = 0, oddities = 0;
        AtomicLong ddlOk = new AtomicLong(), ddlTimedOut = new AtomicLong(), inserted = new AtomicLong();
        Map<String, Integer> errors = new TreeMap<>();
        while (System.nanoTime() < end) {
            String url = String.format(base, round);
            Connection setup = DriverManager.getConnection(url);
            Connection writer = DriverManager.getConnection(url);
            Connection ddl = DriverManager.getConnection(url);
            try (Statement s = setup.createStatement()) { s.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)"); }
            if (url.contains(":h2:")) try (Statement s = ddl.createStatement()) { s.execute("SET LOCK_TIMEOUT 300"); }
            AtomicBoolean stop = new AtomicBoolean();
            List<String> odd = Collections.synchronizedList(new ArrayList<>());
            List<String> roundErrors = Collections.synchronizedList(new ArrayList<>());
            Thread w = new Thread(() -> {
                int id = 0;
                try (Statement s = writer.createStatement()) {
                    while (!stop.get()) {
                        id++;
                        try {
                            s.execute("INSERT INTO t (id) VALUES " + id);
                            inserted.incrementAndGet();
                        } catch (SQLException e) {
                            String key = e.getSQLState() + " " + e.getMessage().split("\n")[0].replaceAll("[0-9]+", "N");
                            synchronized (errors) { errors.merge(key.length() > 150 ? key.substring(0, 150) : key, 1, Integer::sum); }
                            if (!"40001".equals(e.getSQLState()) && !"90098".equals(e.getSQLState())) {
                                StringWriter sw0 = new StringWriter(); e.printStackTrace(new PrintWriter(sw0));
                                String t = sw0.toString(); roundErrors.add("id " + id + ": " + t.substring(0, Math.min(2500, t.length())));
                            }
                            try (ResultSet r = s.executeQuery("SELECT COUNT(*) FROM t WHERE id = " + id)) {
                                r.next();
                                if (r.getInt(1) != 0) {
                                    odd.add("id " + id + " there after " + e.getSQLState() + ": " + e.getMessage().split("\n")[0]);
                                    StringWriter sw = new StringWriter(); e.printStackTrace(new PrintWriter(sw)); odd.add(sw.toString().substring(0, Math.min(3000, sw.toString().length())));
                                }
                            } catch (SQLException again) { odd.add("check failed: " + again); }
                            id--;
                            if (!odd.isEmpty()) { id++; }
                        }
                    }
                } catch (SQLException e) { odd.add("writer: " + e); }
            });
            w.start();
            try (Statement s = ddl.createStatement()) {
                for (int i = 0; i < 20; i++) {
                    for (String sql : List.of("CREATE INDEX i" + i + " ON t (v)", "DROP INDEX IF EXISTS i" + i)) {
                        try { s.execute(sql); ddlOk.incrementAndGet(); } catch (SQLException e) { if (!"HYT00".equals(e.getSQLState())) odd.add("ddl: " + e); else ddlTimedOut.incrementAndGet(); }
                    }
                }
            } finally { stop.set(true); }
            w.join();
            boolean macro = url.startsWith("jdbc:macrodb");
            String verify = "";
            long failures = 0;
            if (macro) {
                MacroCluster cluster = setup.unwrap(MacroCluster.class);
                try { VerificationReport r = cluster.verify(); verify = r.toString().contains("PUBLIC.T") ? summarize(r.toString()) : r.toString(); } catch (SQLException e) { verify = "verify failed " + e; }
                failures = cluster.metrics().failures();
            }
            if (!odd.isEmpty() || failures > 0) {
                oddities++;
                System.out.println("round " + round + ": " + odd + "\n  failures=" + failures + " verify=" + verify + "\n  errors: " + roundErrors);
            }
            for (Connection c : List.of(writer, ddl)) c.close();
            try (Statement s = setup.createStatement()) { s.execute("SHUTDOWN"); } catch (SQLException ignored) {}
            setup.close();
            round++;
        }
        System.out.println("rounds " + round + " oddities " + oddities + " inserts " + inserted + " ddl ok " + ddlOk + " ddl HYT00 " + ddlTimedOut + " errors " + errors);
    }
}
