package io.macrodb.bench.result;

import java.util.List;
import java.util.Locale;

/** A CSV file built by hand: RFC 4180 quoting, numbers in a fixed locale. */
final class Csv {
    private final StringBuilder sb = new StringBuilder();

    Csv(List<String> header) {
        line(header.toArray());
    }

    void row(Object... cells) {
        line(cells);
    }

    private void line(Object[] cells) {
        for (int i = 0; i < cells.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(cell(cells[i]));
        }
        sb.append('\n');
    }

    private static String cell(Object v) {
        if (v == null) {
            return "";
        }
        if (v instanceof Double d) {
            return Double.isFinite(d) ? String.format(Locale.ROOT, "%.4f", d) : "";
        }
        String s = v.toString();
        if (s.contains(",") || s.contains("\"") || s.contains("\n")) {
            return '"' + s.replace("\"", "\"\"") + '"';
        }
        return s;
    }

    @Override
    public String toString() {
        return sb.toString();
    }
}
