package io.macrodb.runtime.cluster;

import java.nio.charset.StandardCharsets;

/** The 64-bit hashes {@link Verifier}'s checksums are sums of. */
final class Hashes {

    private Hashes() {
    }

    static long of(String text) {
        return of(text.getBytes(StandardCharsets.UTF_8));
    }

    static long of(byte[] bytes) {
        long h = 0xcbf29ce484222325L; // FNV-1a, 64-bit
        for (byte b : bytes) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        return h;
    }

    /** MurmurHash3's 64-bit finaliser: spreads every input bit over the whole word before hashes are summed. */
    static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}
