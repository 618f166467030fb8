package io.macrodb.runtime.capture;

import java.util.regex.Pattern;

/**
 * Whether SQL text draws from a sequence: {@code NEXT VALUE FOR s}, {@code NEXTVAL('s')} or {@code s.NEXTVAL}.
 * Sequences are not transactional, so whatever draws from one moves a counter the slaves must get.
 */
public final class SequenceDraws {

    private static final Pattern DRAW =
            Pattern.compile("NEXT\\s+VALUE\\s+FOR|NEXTVAL\\s*\\(|\\bNEXTVAL\\b", Pattern.CASE_INSENSITIVE);

    private SequenceDraws() {
    }

    /**
     * Whether {@code sql} (a statement, or a column's default expression) draws from a sequence: outside strings and
     * quoted names (a string that mentions {@code nextval(} is no draw; checked only where the text matched at all).
     */
    public static boolean in(String sql) {
        return sql != null && DRAW.matcher(sql).find()
                && DRAW.matcher(io.macrodb.runtime.sql.SqlText.withoutQuotedText(sql)).find();
    }
}
