package io.macrodb.e2e;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/** The connection pool the framework tests put MacroDB behind, configured as an application would: by URL alone. */
final class Pools {

    private Pools() {
    }

    static HikariDataSource hikari(String macroDbUrl, int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(macroDbUrl);
        config.setMaximumPoolSize(size);
        return new HikariDataSource(config);
    }
}
