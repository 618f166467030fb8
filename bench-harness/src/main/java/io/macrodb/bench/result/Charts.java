package io.macrodb.bench.result;

import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Ellipse2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * PNG charts drawn with Java2D in headless mode: throughput against clients with one line per target (as in the
 * paper's Figures 4 to 6), and a bar per target (memory, as in its Figure 7). No charting library.
 */
public final class Charts {

    private static final int WIDTH = 960;
    private static final int HEIGHT = 560;
    private static final int LEFT = 90;
    private static final int RIGHT = 250;
    private static final int TOP = 84;
    private static final int BOTTOM = 70;
    private static final Color[] PALETTE = {
        new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0xff7f0e), new Color(0x9467bd),
        new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f), new Color(0xbcbd22), new Color(0x17becf)
    };

    static {
        System.setProperty("java.awt.headless", "true");
    }

    /** One line: a target's medians with their min..max spread. */
    public record Series(String name, List<Point> points) {
    }

    public record Point(double x, double y, double low, double high) {
    }

    /** One bar, with a note drawn above it (e.g. "1.76x"). */
    public record Bar(String label, double value, double low, double high, String note) {
    }

    private Charts() {
    }

    public static void lineChart(Path file, String title, String subtitle, String xLabel, String yLabel,
                                 List<Series> series) throws IOException {
        var xs = new TreeSet<Double>();
        double yMax = 0;
        for (Series s : series) {
            for (Point p : s.points()) {
                xs.add(p.x());
                yMax = Math.max(yMax, Math.max(p.y(), finiteOr(p.high(), p.y())));
            }
        }
        double xMin = xs.isEmpty() ? 0 : xs.first();
        double xMax = xs.isEmpty() ? 1 : xs.last();
        if (xMax == xMin) {
            xMin -= 1;
            xMax += 1;
        }
        double step = niceStep(yMax <= 0 ? 1 : yMax / 6);
        double yTop = Math.ceil(Math.max(yMax, step) * 1.05 / step) * step;
        Canvas c = new Canvas(title, subtitle);
        c.yAxis(yTop, step, yLabel);
        double fxMin = xMin;
        double fxMax = xMax;
        java.util.function.DoubleUnaryOperator px = x -> LEFT + 20 + (x - fxMin) / (fxMax - fxMin) * (c.plotW - 40);
        for (double x : xs) {
            int ix = (int) px.applyAsDouble(x);
            c.g.setColor(Color.DARK_GRAY);
            c.g.drawLine(ix, TOP + c.plotH, ix, TOP + c.plotH + 5);
            c.centered(format(x), ix, TOP + c.plotH + 20);
        }
        c.centered(xLabel, LEFT + c.plotW / 2, HEIGHT - 22);
        int i = 0;
        for (Series s : series) {
            Color color = PALETTE[i % PALETTE.length];
            c.g.setColor(color);
            c.g.setStroke(new BasicStroke(2.2f));
            int lastX = -1;
            int lastY = -1;
            var points = s.points().stream().sorted(Comparator.comparingDouble(Point::x)).toList();
            for (Point p : points) {
                int x = (int) px.applyAsDouble(p.x());
                int y = c.py(p.y(), yTop);
                if (lastX >= 0) {
                    c.g.drawLine(lastX, lastY, x, y);
                }
                if (Double.isFinite(p.low()) && Double.isFinite(p.high()) && p.high() > p.low()) {
                    c.g.setStroke(new BasicStroke(1.2f));
                    int lo = c.py(p.low(), yTop);
                    int hi = c.py(p.high(), yTop);
                    c.g.drawLine(x, lo, x, hi);
                    c.g.drawLine(x - 4, lo, x + 4, lo);
                    c.g.drawLine(x - 4, hi, x + 4, hi);
                    c.g.setStroke(new BasicStroke(2.2f));
                }
                c.g.fill(new Ellipse2D.Double(x - 4.5, y - 4.5, 9, 9));
                if (points.size() == 1 || xs.size() <= 2) {
                    c.g.drawString(format(p.y()), x + 8, y - 6);
                }
                lastX = x;
                lastY = y;
            }
            c.legend(i, s.name(), color);
            i++;
        }
        c.write(file);
    }

    public static void barChart(Path file, String title, String subtitle, String yLabel, List<Bar> bars)
            throws IOException {
        double yMax = 0;
        for (Bar b : bars) {
            yMax = Math.max(yMax, Math.max(b.value(), finiteOr(b.high(), b.value())));
        }
        double step = niceStep(yMax <= 0 ? 1 : yMax / 6);
        double yTop = Math.ceil(Math.max(yMax, step) * 1.12 / step) * step;
        Canvas c = new Canvas(title, subtitle);
        c.yAxis(yTop, step, yLabel);
        int n = Math.max(1, bars.size());
        double slot = (double) c.plotW / n;
        int barW = (int) Math.min(90, slot * 0.6);
        for (int i = 0; i < bars.size(); i++) {
            Bar b = bars.get(i);
            Color color = PALETTE[i % PALETTE.length];
            int cx = (int) (LEFT + slot * i + slot / 2);
            int y = c.py(b.value(), yTop);
            c.g.setColor(color);
            c.g.fillRect(cx - barW / 2, y, barW, TOP + c.plotH - y);
            c.g.setColor(Color.BLACK);
            if (Double.isFinite(b.low()) && Double.isFinite(b.high()) && b.high() > b.low()) {
                int lo = c.py(b.low(), yTop);
                int hi = c.py(b.high(), yTop);
                c.g.drawLine(cx, lo, cx, hi);
                c.g.drawLine(cx - 5, lo, cx + 5, lo);
                c.g.drawLine(cx - 5, hi, cx + 5, hi);
            }
            String top = format(b.value()) + (b.note() == null || b.note().isEmpty() ? "" : "  (" + b.note() + ")");
            c.centered(top, cx, Math.min(y, c.py(finiteOr(b.high(), b.value()), yTop)) - 6);
            c.legend(i, b.label(), color);
            c.centered(shorten(b.label(), (int) slot, c.g.getFontMetrics()), cx, TOP + c.plotH + 20);
        }
        c.write(file);
    }

    private static String shorten(String s, int width, FontMetrics fm) {
        if (fm.stringWidth(s) <= width - 6) {
            return s;
        }
        String t = s;
        while (t.length() > 3 && fm.stringWidth(t + "…") > width - 6) {
            t = t.substring(0, t.length() - 1);
        }
        return t + "…";
    }

    private static double finiteOr(double v, double fallback) {
        return Double.isFinite(v) ? v : fallback;
    }

    /** A step of 1, 2 or 5 times a power of ten, at least {@code raw}. */
    static double niceStep(double raw) {
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[]{1, 2, 5, 10}) {
            if (m * p >= raw) {
                return m * p;
            }
        }
        return 10 * p;
    }

    static String format(double v) {
        if (Math.abs(v) >= 100 || v == Math.rint(v)) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        return String.format(Locale.ROOT, "%,.1f", v);
    }

    /** The image, its fonts and the plot area's geometry. */
    private static final class Canvas {
        final BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        final Graphics2D g = image.createGraphics();
        final int plotW = WIDTH - LEFT - RIGHT;
        final int plotH = HEIGHT - TOP - BOTTOM;

        Canvas(String title, String subtitle) {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, WIDTH, HEIGHT);
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 17));
            g.drawString(title, LEFT, 30);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
            g.setColor(Color.DARK_GRAY);
            if (subtitle != null) {
                // up to two lines, broken between "; "-separated parts
                FontMetrics fm = g.getFontMetrics();
                var line = new StringBuilder();
                int y = 50;
                for (String part : subtitle.split("; ")) {
                    String next = line.length() == 0 ? part : line + "; " + part;
                    if (fm.stringWidth(next) > WIDTH - LEFT - 20 && line.length() > 0 && y == 50) {
                        g.drawString(line.toString(), LEFT, y);
                        y += 15;
                        line.setLength(0);
                        line.append(part);
                    } else {
                        line.setLength(0);
                        line.append(next);
                    }
                }
                g.drawString(shorten(line.toString(), WIDTH - LEFT - 20, fm), LEFT, y);
            }
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        }

        int py(double y, double yTop) {
            return (int) Math.round(TOP + plotH - y / yTop * plotH);
        }

        void yAxis(double yTop, double step, String label) {
            for (double y = 0; y <= yTop + step / 1000; y += step) {
                int iy = py(y, yTop);
                g.setColor(new Color(0xE6E6E6));
                g.drawLine(LEFT, iy, LEFT + plotW, iy);
                g.setColor(Color.DARK_GRAY);
                String s = format(y);
                g.drawString(s, LEFT - 8 - g.getFontMetrics().stringWidth(s), iy + 4);
            }
            g.setColor(Color.BLACK);
            g.drawLine(LEFT, TOP, LEFT, TOP + plotH);
            g.drawLine(LEFT, TOP + plotH, LEFT + plotW, TOP + plotH);
            var old = g.getTransform();
            g.rotate(-Math.PI / 2);
            int w = g.getFontMetrics().stringWidth(label);
            g.drawString(label, -(TOP + plotH / 2) - w / 2, 22);
            g.setTransform(old);
        }

        void centered(String s, int x, int y) {
            g.setColor(Color.BLACK);
            g.drawString(s, x - g.getFontMetrics().stringWidth(s) / 2, y);
        }

        void legend(int i, String name, Color color) {
            int x = WIDTH - RIGHT + 20;
            int y = TOP + 10 + i * 22;
            g.setColor(color);
            g.fillRect(x, y - 9, 14, 10);
            g.setColor(Color.BLACK);
            g.drawString(shorten(name, RIGHT - 40, g.getFontMetrics()), x + 20, y);
        }

        void write(Path file) throws IOException {
            g.dispose();
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            ImageIO.write(image, "png", file.toFile());
        }
    }
}
