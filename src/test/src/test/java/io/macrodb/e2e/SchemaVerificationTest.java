package io.macrodb.e2e;

import io.macrodb.api.MacroCluster;
import io.macrodb.api.VerificationReport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code verify()} compares what the schema defines, not only the rows: two replicas with the same rows can answer
 * the same query differently (a view defined otherwise, a routine's body) or refuse different writes (a CHECK, a
 * unique index). Each kind of definition is changed on a slave behind MacroDB's back, and {@code verify()} must name
 * that kind and that slave. Names the engines generate are left out of the comparison: a slave copied from a script
 * has names of its own for its primary key's index or a foreign key, and must not be taken for a different one.
 */
class SchemaVerificationTest {

    private static final int REPLICAS = 2;

    @ParameterizedTest
    @EnumSource(Engine.class)
    void verifyNamesTheKindOfDefinitionASlaveChanged(Engine engine) throws Exception {
        boolean h2 = engine == Engine.H2;
        try (Connection c = Engine.connect(engine.url(REPLICAS))) {
            MacroCluster cluster = c.unwrap(MacroCluster.class);
            Engine.execute(c, "CREATE TABLE u (id INT PRIMARY KEY, name VARCHAR(20) UNIQUE)",
                    "CREATE TABLE t (id INT PRIMARY KEY, u_id INT, v INT, w VARCHAR(10) NOT NULL, "
                            + "CONSTRAINT t_u FOREIGN KEY (u_id) REFERENCES u (id) ON DELETE CASCADE, "
                            + "CONSTRAINT t_v_positive CHECK (v > 0))",
                    "CREATE TABLE g (id " + engine.identityType + " PRIMARY KEY, v INT)", // HSQLDB's script: NOT NULL
                    "CREATE INDEX t_v ON t (v, w)",
                    "CREATE VIEW tv AS SELECT t.id, u.name FROM t JOIN u ON t.u_id = u.id WHERE v > 2",
                    "CREATE SEQUENCE sq START WITH 3 INCREMENT BY 5",
                    h2 ? "CREATE ALIAS my_abs FOR 'java.lang.Math.abs(int)'"
                            : "CREATE FUNCTION my_abs(x INT) RETURNS INT RETURN ABS(x)",
                    "INSERT INTO u VALUES (1, 'one')", "INSERT INTO t VALUES (1, 1, 3, 'a')");
            cluster.rebuildReplica(1); // a copy from a script: generated names of its own
            Engine.assertIdentical(cluster);

            Map<String, List<String>> changes = new LinkedHashMap<>();
            changes.put("(indexes and keys)", List.of("DROP INDEX t_v"));
            changes.put("(indexes and keys) ", List.of("ALTER TABLE t DROP CONSTRAINT t_u"));
            changes.put("(check constraints)", List.of("ALTER TABLE t DROP CONSTRAINT t_v_positive"));
            changes.put("(views)", List.of("DROP VIEW tv", "CREATE VIEW tv AS SELECT id FROM t"));
            changes.put("(routines)", h2 ? List.of("DROP ALIAS my_abs", "CREATE ALIAS my_abs FOR 'java.lang.Math.abs(long)'")
                    : List.of("DROP FUNCTION my_abs", "CREATE FUNCTION my_abs(x INT) RETURNS INT RETURN -ABS(x)"));
            changes.put("(sequence definitions)", List.of("ALTER SEQUENCE sq INCREMENT BY 7"));
            for (var change : changes.entrySet()) {
                try (Connection slave = Engine.behindMacroDbsBack(cluster, 1, change.getValue().toArray(String[]::new))) {
                    slave.commit();
                }
                VerificationReport report = cluster.verify();
                String kind = change.getKey().strip();
                assertEquals(Set.of(1), report.differingReplicas(), () -> change.getValue() + ": " + report.differences());
                assertEquals(1, report.differences().size(), () -> change.getValue() + ": " + report.differences());
                assertTrue(report.differences().get(0).contains(kind), () -> change.getValue() + ": "
                        + report.differences());
                Engine.awaitAllHealthy(cluster, REPLICAS); // the slave that differed is rebuilt, from the master
                Engine.assertIdentical(cluster);
            }
            cluster.shutdown();
        }
    }
}
