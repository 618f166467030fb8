package io.macrodb.jdbc;

import io.macrodb.runtime.config.ClusterConfig;
import io.macrodb.runtime.config.MacroOption;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Keeps the one declaration of options honest: the driver, the defaults and the README all follow it. */
class MacroOptionDeclarationTest {

    @Test
    void getPropertyInfoListsEveryOptionWithItsDefaultAndDescription() throws SQLException {
        DriverPropertyInfo[] infos = new MacroDriver().getPropertyInfo("jdbc:macrodb:h2:mem:x", new Properties());
        Set<String> keys = Arrays.stream(infos).map(i -> i.name).collect(Collectors.toSet());
        assertEquals(Set.copyOf(MacroOption.knownKeys()), keys);
        for (DriverPropertyInfo info : infos) {
            MacroOption option = MacroOption.forKey(info.name);
            assertEquals(option.defaultValue(), info.value);
            assertTrue(info.description.contains(option.description()));
        }
    }

    @Test
    void everyDefaultParsesAndTheUrlWinsOverProperties() throws SQLException {
        for (MacroOption option : MacroOption.values()) {
            option.parse(option.defaultValue());
        }
        Properties properties = new Properties();
        properties.setProperty("macrodb.replicas", "5");
        properties.setProperty("user", "sa");
        ClusterConfig config = ClusterConfig.parse("jdbc:macrodb:h2:mem:x;MODE=MySQL;macrodb.replicas=3", properties);
        assertEquals(3, config.replicas());
        assertEquals("h2:mem:x;MODE=MySQL", config.engineUrl());
        assertEquals("sa", MacroDriver.engineProperties(properties).getProperty("user"));
        assertTrue(!MacroDriver.engineProperties(properties).containsKey("macrodb.replicas"));
    }

    @Test
    void theReadmeDocumentsEveryOption() throws Exception {
        Path readme = Path.of("..", "README.md");
        String text = Files.readString(readme);
        for (MacroOption option : MacroOption.values()) {
            assertTrue(text.contains("`" + option.key() + "`"), "README lacks " + option.key());
            assertTrue(text.contains(option.defaultValue()), "README lacks the default of " + option.key());
        }
    }
}
