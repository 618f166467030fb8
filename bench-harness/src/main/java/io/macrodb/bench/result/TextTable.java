package io.macrodb.bench.result;

import java.util.ArrayList;
import java.util.List;

/** Left-aligned first column, right-aligned numbers, columns padded to their widest cell. */
final class TextTable {
    private final List<List<String>> rows = new ArrayList<>();

    void row(List<String> cells) {
        rows.add(cells);
    }

    String render() {
        int cols = rows.get(0).size();
        int[] w = new int[cols];
        for (List<String> r : rows) {
            for (int i = 0; i < cols; i++) {
                w[i] = Math.max(w[i], r.get(i).length());
            }
        }
        var sb = new StringBuilder();
        for (int ri = 0; ri < rows.size(); ri++) {
            List<String> r = rows.get(ri);
            for (int i = 0; i < cols; i++) {
                String c = r.get(i);
                boolean left = i == 0 || (i == 2 && ri > 0 && !c.isEmpty() && !Character.isDigit(c.charAt(0)));
                String pad = " ".repeat(w[i] - c.length());
                sb.append(i == 0 ? "" : "  ").append(left ? c + pad : pad + c);
            }
            sb.append('\n');
            if (ri == 0) {
                int total = 0;
                for (int x : w) {
                    total += x + 2;
                }
                sb.append("-".repeat(total - 2)).append('\n');
            }
        }
        return sb.toString();
    }
}
