package io.macrodb.bench.run;

import io.macrodb.bench.cli.CommandLine;
import io.macrodb.bench.cli.UsageException;

import java.time.Duration;

/**
 * A replica failed on purpose during each measured window of a MacroDB target ({@code --fail-replica N@TIME}),
 * through the operator API: the window shows what the failure costs the clients (retries, a dip in throughput),
 * and the consistency checks after it run on every replica, the replacement included.
 *
 * @param replica the replica's index (0: the master when the cluster started)
 * @param after   how far into the measured window it fails
 */
public record FailureDrill(int replica, Duration after) {

    public FailureDrill {
        if (replica < 0 || after.isNegative()) {
            throw new IllegalArgumentException("a failure drill needs a replica index >= 0 and a time >= 0");
        }
    }

    /** Parses {@code N@TIME}, such as {@code 1@5s}; null for null. */
    public static FailureDrill parse(String option, String text) throws UsageException {
        if (text == null) {
            return null;
        }
        int at = text.indexOf('@');
        if (at < 1) {
            throw new UsageException("--" + option + " needs N@TIME (replica N, TIME into the window), such as "
                    + "1@5s, got '" + text + "'");
        }
        try {
            return new FailureDrill(Integer.parseInt(text.substring(0, at).trim()),
                    CommandLine.parseDuration(option, text.substring(at + 1)));
        } catch (NumberFormatException e) {
            throw new UsageException("--" + option + " needs a whole replica index before '@', got '" + text + "'");
        }
    }
}
