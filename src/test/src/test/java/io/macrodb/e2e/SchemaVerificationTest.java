package io.macrodb.e2e;

import io.macrodb.api.MacroCluster;
import io.macrodb.api.VerificationReport;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code verify()} compares what the schema defines, not only the rows: two replicas with the same rows can answer
 * the same query differently (a view defined otherwise, a routine's body) or accept different writes (a key, a
 * CHECK). Each kind of definition is changed on a slave behind MacroDB's back, and {@code verify()} must name that
 * kind and that slave.
 *
 * <p>A slave copied from a script (rebuilt, or seeded from a file master that holds data) must not be taken for a
 * different one: {@code verify()} fails a slave that differs, and the copy made in its place would differ again, at
 * every call. The schema here has what a script gives back otherwise: names the engine generated, a foreign key and a
 * UNIQUE constraint whose columns also have an index of the application's (H2's script makes the index first and the
 * constraint then uses it), a view compiled again after its table changed (H2 keeps the script's semicolon), and
 * HSQLDB routine bodies and NOT NULL checks.
 */
class SchemaVerificationTest {

    private static final int REPLICAS = 2;

    private static List<String> schema(Engine engine) {
        boolean h2 = engine == Engine.H2;
        return List.of("CREATE TABLE u (id INT PRIMARY KEY, name VARCHAR(20), CONSTRAINT u_name UNIQUE (name))",
                "CREATE UNIQUE INDEX u_name_index ON u (name)",
                "CREATE TABLE t (id INT PRIMARY KEY, u_id INT, v INT, w VARCHAR(10) NOT NULL, "
                        + "CONSTRAINT t_u FOREIGN KEY (u_id) REFERENCES u (id) ON DELETE CASCADE, "
                        + "CONSTRAINT t_v_positive CHECK (v > 0))",
                "CREATE INDEX t_u_id ON t (u_id)",
                "CREATE INDEX t_v ON t (v, w)",
                "CREATE TABLE g (id " + engine.identityType + " PRIMARY KEY, v INT)",
                "CREATE VIEW tv AS SELECT t.id, u.name FROM t JOIN u ON t.u_id = u.id WHERE v > 2",
                "ALTER TABLE t ADD COLUMN z INT",
                "CREATE SEQUENCE sq START WITH 3 INCREMENT BY 5",
                h2 ? "CREATE ALIAS my_abs FOR 'java.lang.Math.abs(int)'"
                        : "CREATE FUNCTION my_abs(x INT) RETURNS INT RETURN ABS(x)",
                h2 ? "CREATE ALIAS my_max FOR 'java.lang.Math.max(int,int)'"
                        : "CREATE PROCEDURE add_u(IN x INT) MODIFIES SQL DATA INSERT INTO u VALUES (x, NULL)",
                "INSERT INTO u VALUES (1, 'one')", "INSERT INTO t (id, u_id, v, w) VALUES (1, 1, 3, 'a')");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void verifyNamesTheKindOfDefinitionASlaveChanged(Engine engine) throws Exception {
        boolean h2 = engine == Engine.H2;
        try (Connection c = Engine.connect(engine.url(REPLICAS))) {
            MacroCluster cluster = c.unwrap(MacroCluster.class);
            Engine.execute(c, schema(engine).toArray(String[]::new));
            Engine.assertIdentical(cluster);
            cluster.rebuildReplica(1); // a copy from the master's script
            Engine.assertIdentical(cluster);

            Map<String, List<String>> changes = new LinkedHashMap<>();
            changes.put("(keys and constraints)", List.of("ALTER TABLE u DROP CONSTRAINT u_name"));
            changes.put("(keys and constraints) ", List.of("ALTER TABLE t DROP CONSTRAINT t_u"));
            changes.put("(check constraints)", List.of("ALTER TABLE t DROP CONSTRAINT t_v_positive"));
            changes.put("(views)", List.of("DROP VIEW tv", "CREATE VIEW tv AS SELECT id FROM t"));
            changes.put("(routines)", h2
                    ? List.of("DROP ALIAS my_abs", "CREATE ALIAS my_abs FOR 'java.lang.Math.abs(long)'")
                    : List.of("DROP FUNCTION my_abs", "CREATE FUNCTION my_abs(x INT) RETURNS INT RETURN -ABS(x)"));
            changes.put("(sequence definitions)", List.of("ALTER SEQUENCE sq INCREMENT BY 7"));
            for (var change : changes.entrySet()) {
                String[] sqls = change.getValue().toArray(String[]::new);
                try (Connection slave = Engine.behindMacroDbsBack(cluster, 1, sqls)) {
                    slave.commit();
                }
                VerificationReport report = cluster.verify();
                String kind = change.getKey().strip();
                assertEquals(Set.of(1), report.differingReplicas(), () -> change.getValue() + ": "
                        + report.differences());
                assertEquals(1, report.differences().size(), () -> change.getValue() + ": " + report.differences());
                assertTrue(report.differences().get(0).contains(kind), () -> change.getValue() + ": "
                        + report.differences());
                Engine.awaitAllHealthy(cluster, REPLICAS); // the slave that differed is rebuilt, from the master
                Engine.assertIdentical(cluster);
            }
            cluster.shutdown();
        }
    }

    /** Slaves seeded from a file master that already holds the schema: copies, identical from the first verify. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void slavesSeededFromAFileMasterAreIdentical(Engine engine, @TempDir Path dir) throws Exception {
        String engineUrl = engine.name + ":file:" + dir.resolve("shop").toAbsolutePath();
        try (Connection plain = DriverManager.getConnection("jdbc:" + engineUrl)) {
            Engine.execute(plain, schema(engine).toArray(String[]::new));
            plain.commit();
            Engine.execute(plain, "SHUTDOWN");
        }
        try (Connection c = DriverManager.getConnection("jdbc:macrodb:" + engineUrl + ";macrodb.replicas=3")) {
            MacroCluster cluster = c.unwrap(MacroCluster.class);
            Engine.assertIdentical(cluster);
            Engine.assertIdenticalAndShutdown(cluster); // and again: nothing was failed and copied in between
        }
    }
}
