package io.macrodb.bench;

/**
 * Where a workload's loader reports how far it got; the harness draws it as a progress bar.
 * Calls come from the loading thread only.
 */
public interface LoadProgress {

    /** Announces the total number of rows the load will insert (an estimate is fine). */
    void expect(long totalRows);

    /** Reports {@code rows} more rows inserted (call it per committed batch). */
    void advance(long rows);

    /** A progress that draws nothing, for tests. */
    LoadProgress NONE = new LoadProgress() {
        @Override
        public void expect(long totalRows) {
        }

        @Override
        public void advance(long rows) {
        }
    };
}
