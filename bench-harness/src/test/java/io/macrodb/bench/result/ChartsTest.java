package io.macrodb.bench.result;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChartsTest {

    @TempDir
    Path dir;

    @Test
    void drawsALineChartAndABarChartAsPng() throws Exception {
        Path line = dir.resolve("line.png");
        Charts.lineChart(line, "title", "subtitle; more", "clients", "tx/s", List.of(
                new Charts.Series("a", List.of(new Charts.Point(1, 100, 90, 110), new Charts.Point(4, 300, 280, 320))),
                new Charts.Series("b", List.of(new Charts.Point(1, 120, 120, 120), new Charts.Point(4, 200, 150, 210)))));
        Path bars = dir.resolve("bars.png");
        Charts.barChart(bars, "memory", null, "MB", List.of(new Charts.Bar("a", 100, 95, 105, "1.00x"),
                new Charts.Bar("b", 176, 170, 180, "1.76x")));
        for (Path p : List.of(line, bars)) {
            BufferedImage img = ImageIO.read(p.toFile());
            assertEquals(960, img.getWidth());
            assertEquals(560, img.getHeight());
            int colored = 0;
            for (int x = 100; x < 700; x++) {
                for (int y = 100; y < 480; y++) {
                    int rgb = img.getRGB(x, y) & 0xFFFFFF;
                    int r = rgb >> 16;
                    int g = (rgb >> 8) & 0xFF;
                    int b = rgb & 0xFF;
                    if (Math.max(r, Math.max(g, b)) - Math.min(r, Math.min(g, b)) > 60) {
                        colored++;
                    }
                }
            }
            assertTrue(colored > 200, "series or bars drawn in colour in " + p + ": " + colored);
        }
    }

    @Test
    void stepsAreRound() {
        assertEquals(1000, Charts.niceStep(700));
        assertEquals(2, Charts.niceStep(1.3));
        assertEquals(50, Charts.niceStep(41));
    }
}
