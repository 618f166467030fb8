package io.macrodb.bench.targets;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PresetsTest {

    @Test
    void enginePresetsNameTheirEngineAndMode() {
        assertEquals("jdbc:h2:mem:{db};DB_CLOSE_DELAY=-1", Presets.resolve("h2").urlTemplate());
        assertEquals("jdbc:hsqldb:mem:{db}", Presets.resolve("hsqldb").urlTemplate());
        assertEquals("jdbc:hsqldb:mem:{db};hsqldb.tx=mvcc", Presets.resolve("hsqldb-mvcc").urlTemplate());
        assertEquals(Engine.HSQLDB, Presets.resolve("hsqldb-mvcc").engine());
        assertFalse(Presets.resolve("h2").isMacroDb());
    }

    @Test
    void macroDbPresetsWrapTheEngineUrlWithTheReplicaCount() {
        Target t = Presets.resolve("macrodb-hsqldb-mvcc-r4");
        assertEquals("jdbc:macrodb:hsqldb:mem:{db};hsqldb.tx=mvcc;macrodb.replicas=4", t.urlTemplate());
        assertTrue(t.isMacroDb());
        assertEquals(Engine.HSQLDB, t.engine());
        assertEquals("jdbc:macrodb:h2:mem:{db};DB_CLOSE_DELAY=-1;macrodb.replicas=1",
                Presets.resolve("macrodb-h2-r1").urlTemplate());
    }

    @Test
    void macroDbPresetsKnowTheirEngineAlone() {
        assertEquals("hsqldb-mvcc", Presets.standaloneOf("macrodb-hsqldb-mvcc-r3").orElseThrow());
        assertEquals("h2", Presets.standaloneOf("macrodb-h2-r2").orElseThrow());
        assertTrue(Presets.standaloneOf("h2").isEmpty());
    }

    @Test
    void urlsAreTargetsAndInMemoryNamesAreMadeFresh() {
        Target t = Presets.resolve("mine=jdbc:h2:mem:shop;DB_CLOSE_DELAY=-1");
        assertEquals("mine", t.name());
        assertEquals("jdbc:h2:mem:shop_{db};DB_CLOSE_DELAY=-1", t.urlTemplate());
        String a = t.freshDatabase("w").url();
        String b = t.freshDatabase("w").url();
        assertNotEquals(a, b);
        assertTrue(a.startsWith("jdbc:h2:mem:shop_w_mine_"), a);
        assertEquals("jdbc:h2:file:./x/{db}", Presets.resolve("jdbc:h2:file:./x/{db}").urlTemplate());
    }

    @Test
    void refusesUnknownPresetsAndFileUrlsWithoutPlaceholder() {
        var e = assertThrows(IllegalArgumentException.class, () -> Presets.resolve("mysql"));
        assertTrue(e.getMessage().contains("macrodb-<h2|hsqldb|hsqldb-mvcc>-r<N>"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Presets.resolve("jdbc:h2:file:./data/x"));
        assertThrows(IllegalArgumentException.class, () -> Presets.resolve("jdbc:derby:memory:x"));
        assertThrows(IllegalArgumentException.class, () -> Presets.resolve("macrodb-h2-r0"));
        assertEquals(3, Presets.resolveAll("h2, hsqldb ,macrodb-h2-r2").size());
    }
}
