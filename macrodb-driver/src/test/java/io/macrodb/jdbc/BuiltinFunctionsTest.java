package io.macrodb.jdbc;

import io.macrodb.api.MacroSqlState;
import org.h2.engine.Mode;
import org.h2.util.ParserUtil;
import org.hsqldb.Tokens;
import org.hsqldb.lib.IntKeyIntValueHashMap;
import org.hsqldb.lib.IntValueHashMap;
import org.hsqldb.lib.OrderedIntHashSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.lang.reflect.Field;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every built-in function of the H2 and HSQLDB on the class path has a verdict reviewed by hand in
 * {@code builtin-functions.txt}: {@code varies} (two replicas evaluating it can get different values) or {@code same}.
 * {@link StatementKind} treats exactly the {@code varies} ones as nondeterministic, and an engine version that adds a
 * function fails here until someone has decided it. Before, the list was kept by hand and a sweep found ten functions
 * it lacked, each diverging the replicas (2026-11-29); reading the engines' own tables found three more
 * ({@code DB_OBJECT_SIZE} with a file master, HSQLDB's {@code LOB_ID} and {@code DIAGNOSTICS}).
 */
class BuiltinFunctionsTest {

    /** One reviewed function of one engine ({@code h2} or {@code hsqldb}). */
    record Reviewed(String engine, String name, boolean varies, String why) {
        @Override
        public String toString() {
            return engine + " " + name;
        }
    }

    private static final Map<String, Reviewed> REVIEWED = readReviewed();

    static Collection<Reviewed> reviewed() {
        return REVIEWED.values();
    }

    @Test
    void everyH2FunctionIsReviewed() throws Exception {
        Set<String> functions = new TreeSet<>(staticField(org.h2.expression.function.BuiltinFunctions.class,
                "FUNCTIONS", Set.class));
        functions.addAll(h2ModeFunctions().keySet());
        functions.addAll(staticField(org.h2.expression.aggregate.Aggregate.class, "AGGREGATES", Map.class).keySet());
        for (org.h2.expression.analysis.WindowFunctionType window
                : org.h2.expression.analysis.WindowFunctionType.values()) {
            functions.add(window.name());
        }
        functions.addAll(h2ParserFunctionsNotReviewed());
        assertAllReviewed("h2", functions);
    }

    @Test
    void everyHsqldbFunctionIsReviewed() throws Exception {
        assertAllReviewed("hsqldb", hsqldbFunctions().keySet());
    }

    /** H2's modes and HSQLDB mark some functions nondeterministic themselves: the list agrees or says why not. */
    @Test
    void whatAnEngineCallsNondeterministicVariesOrTheListSaysWhyNot() throws Exception {
        Set<String> unexplained = new TreeSet<>();
        h2ModeFunctions().forEach((name, deterministic) -> {
            if (!deterministic && !variesOrExplained("h2", name)) {
                unexplained.add("h2 " + name);
            }
        });
        Map<String, Integer> hsqldbFunctions = hsqldbFunctions(); // first: FunctionCustom adds to the set below
        OrderedIntHashSet nondeterministic = staticField(org.hsqldb.FunctionSQL.class, "nonDeterministicFuncSet",
                OrderedIntHashSet.class);
        hsqldbFunctions.forEach((name, id) -> {
            if (nondeterministic.contains(id) && !variesOrExplained("hsqldb", name)) {
                unexplained.add("hsqldb " + name);
            }
        });
        assertTrue(unexplained.isEmpty(), () -> "The engine calls these nondeterministic; builtin-functions.txt has"
                + " them as \"same\" without saying why: " + unexplained);
    }

    /** The two places the list decides: an added column's default (in steps) and a computed column (refused). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("reviewed")
    void statementKindTreatsTheFunctionAsReviewed(Reviewed function) throws SQLException {
        String added = "ALTER TABLE t ADD c INT DEFAULT " + function.name() + "()";
        String computed = "ALTER TABLE t ADD c INT GENERATED ALWAYS AS (" + function.name() + "())";
        if (function.varies()) {
            assertEquals(StatementKind.Type.IN_STEPS, StatementKind.of(added).type(), added);
            SQLException refused = assertThrows(SQLException.class, () -> StatementKind.of(computed), computed);
            assertEquals(MacroSqlState.NOT_REPLICABLE, refused.getSQLState(), refused::getMessage);
        } else {
            assertEquals(StatementKind.Type.SCHEMA_CHANGE, StatementKind.of(added).type(), added);
            assertEquals(StatementKind.Type.SCHEMA_CHANGE, StatementKind.of(computed).type(), computed);
        }
    }

    private static void assertAllReviewed(String engine, Collection<String> functions) {
        Set<String> missing = functions.stream().filter(name -> !REVIEWED.containsKey(engine + " " + name))
                .collect(Collectors.toCollection(TreeSet::new));
        assertTrue(missing.isEmpty(), () -> engine + " has built-in functions builtin-functions.txt has not reviewed: "
                + missing + ". Decide for each whether two replicas can get different values from it (a clock,"
                + " randomness, the session, the database's storage or object ids), add it to the list, and if so to"
                + " StatementKind.NONDETERMINISTIC.");
    }

    /** Whether the list has {@code name} varying or says why not (one it lacks fails the tests above instead). */
    private static boolean variesOrExplained(String engine, String name) {
        Reviewed reviewed = REVIEWED.get(engine + " " + name);
        return reviewed == null || reviewed.varies() || !reviewed.why().isEmpty();
    }

    /** The functions of H2's compatibility modes ({@code org.h2.mode.Functions*}), each with H2's "deterministic". */
    private static Map<String, Boolean> h2ModeFunctions() throws Exception {
        Map<String, Boolean> functions = new TreeMap<>();
        try (JarFile jar = new JarFile(jarOf(Mode.class))) {
            for (String entry : jar.stream().map(JarEntry::getName)
                    .filter(name -> name.matches("org/h2/mode/Functions\\w+\\.class")).toList()) {
                Class<?> modeFunctions = Class.forName(entry.replace('/', '.').replace(".class", ""));
                Map<?, ?> table = staticField(modeFunctions, "FUNCTIONS", Map.class);
                for (Map.Entry<?, ?> function : table.entrySet()) {
                    Field deterministic = function.getValue().getClass().getDeclaredField("deterministic");
                    deterministic.setAccessible(true);
                    functions.put((String) function.getKey(), deterministic.getBoolean(function.getValue()));
                }
            }
        }
        assertFalse(functions.isEmpty(), "no org.h2.mode.Functions* class found");
        return functions;
    }

    /**
     * Functions H2's parser reads itself (neither in {@code BuiltinFunctions} nor in a mode's table:
     * {@code DB_OBJECT_SIZE}, {@code NVL}, {@code SYSDATE}...) that the list lacks: the names among the parser's
     * constants that are no keyword and that some mode calls, with none to three arguments, instead of answering
     * "function not found" or a syntax error. Names the list has are not tried (some write files).
     */
    private static Set<String> h2ParserFunctionsNotReviewed() throws IOException, SQLException {
        Set<String> candidates = new TreeSet<>();
        for (String constant : classFileStrings(org.h2.command.Parser.class)) {
            if (constant.matches("[A-Z][A-Z0-9_]*") && !ParserUtil.isKeyword(constant, false)
                    && !REVIEWED.containsKey("h2 " + constant)) {
                candidates.add(constant);
            }
        }
        Set<String> functions = new TreeSet<>();
        for (Mode.ModeEnum mode : Mode.ModeEnum.values()) {
            try (Connection connection = DriverManager.getConnection("jdbc:h2:mem:;MODE=" + mode.name());
                 Statement statement = connection.createStatement()) {
                for (String name : candidates) {
                    if (h2Calls(statement, name)) {
                        functions.add(name);
                    }
                }
            }
        }
        return functions;
    }

    private static boolean h2Calls(Statement statement, String name) {
        for (String arguments : new String[] {"", "1", "1, 1", "1, 1, 1"}) {
            try {
                statement.executeQuery("SELECT " + name + "(" + arguments + ")").close();
                return true;
            } catch (SQLException e) {
                boolean noSuchFunction = "90022".equals(e.getSQLState()) || e.getSQLState().startsWith("42");
                if (!noSuchFunction) {
                    return true;
                }
            }
        }
        return false;
    }

    /** HSQLDB's function tables (SQL standard and its own), each name with its function id. */
    private static Map<String, Integer> hsqldbFunctions() throws ReflectiveOperationException {
        Map<String, Integer> functions = new TreeMap<>();
        for (String table : new String[] {"valueFuncMap", "regularFuncMap"}) {
            IntValueHashMap<?> names = staticField(org.hsqldb.FunctionSQL.class, table, IntValueHashMap.class);
            for (var it = names.keySet().iterator(); it.hasNext(); ) {
                String name = (String) it.next();
                functions.put(name, names.get(name));
            }
        }
        for (String table : new String[] {"customValueFuncMap", "customRegularFuncMap"}) {
            IntKeyIntValueHashMap tokens = staticField(org.hsqldb.FunctionCustom.class, table,
                    IntKeyIntValueHashMap.class);
            for (int token : tokens.keysToArray(new int[tokens.size()])) {
                functions.put(Tokens.getKeyword(token), tokens.get(token));
            }
        }
        assertFalse(functions.isEmpty(), "HSQLDB's function tables are empty");
        return functions;
    }

    private static <T> T staticField(Class<?> owner, String name, Class<T> type) throws ReflectiveOperationException {
        Field field = owner.getDeclaredField(name);
        field.setAccessible(true);
        return type.cast(field.get(null));
    }

    private static String jarOf(Class<?> type) throws URISyntaxException {
        return new java.io.File(type.getProtectionDomain().getCodeSource().getLocation().toURI()).getPath();
    }

    /** The text constants of {@code type}'s class file: its constant pool's UTF-8 entries (JVM spec 4.4). */
    private static Set<String> classFileStrings(Class<?> type) throws IOException {
        Set<String> strings = new TreeSet<>();
        try (InputStream raw = type.getResourceAsStream(type.getSimpleName() + ".class");
             DataInputStream in = new DataInputStream(raw)) {
            in.skipNBytes(8); // magic, minor and major version
            int count = in.readUnsignedShort();
            for (int i = 1; i < count; i++) {
                int tag = in.readUnsignedByte();
                switch (tag) {
                    case 1 -> strings.add(in.readUTF());
                    case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4);
                    case 5, 6 -> {
                        in.skipNBytes(8);
                        i++; // a long or a double takes two entries
                    }
                    case 7, 8, 16, 19, 20 -> in.skipNBytes(2);
                    case 15 -> in.skipNBytes(3);
                    default -> throw new IOException("constant pool tag " + tag + " in " + type.getName());
                }
            }
        }
        return strings;
    }

    private static Map<String, Reviewed> readReviewed() {
        Map<String, Reviewed> reviewed = new TreeMap<>();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(
                BuiltinFunctionsTest.class.getResourceAsStream("builtin-functions.txt"), StandardCharsets.UTF_8))) {
            for (String line; (line = lines.readLine()) != null; ) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] fields = line.trim().split("\\s+", 4);
                if (!fields[2].equals("varies") && !fields[2].equals("same")) {
                    throw new IllegalStateException("verdict neither varies nor same: " + line);
                }
                Reviewed function = new Reviewed(fields[0], fields[1], fields[2].equals("varies"),
                        fields.length > 3 ? fields[3] : "");
                if (reviewed.put(function.toString(), function) != null) {
                    throw new IllegalStateException("reviewed twice: " + function);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return reviewed;
    }
}
