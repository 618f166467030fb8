package io.macrodb.bench.result;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class JsonTest {

    @Test
    void writesNestedValuesWithEscapesAndRoundedNumbers() {
        var m = new LinkedHashMap<String, Object>();
        m.put("s", "a\"b\\c\nd\u0001");
        m.put("n", 12345.678912);
        m.put("i", 3);
        m.put("whole", 2.0);
        m.put("nan", Double.NaN);
        m.put("list", List.of(true, "x"));
        m.put("empty", List.of());
        m.put("null", null);
        String expected = """
                {
                  "s": "a\\"b\\\\c\\nd\\u0001",
                  "n": 12345.6789,
                  "i": 3,
                  "whole": 2,
                  "nan": null,
                  "list": [
                    true,
                    "x"
                  ],
                  "empty": [],
                  "null": null
                }
                """;
        assertEquals(expected, Json.write(m));
    }
}
