package io.macrodb.runtime.engine;

import io.macrodb.api.MacroSqlState;

import java.sql.SQLException;
import java.util.List;
import java.util.ServiceLoader;

/** The engines on the class path, found once by service loader. */
public final class Engines {

    private static final List<Engine> ALL = ServiceLoader.load(Engine.class, Engines.class.getClassLoader())
            .stream().map(ServiceLoader.Provider::get).toList();

    private Engines() {
    }

    /** The engine serving {@code engineUrl}, or an error naming the engines MacroDB supports. */
    public static Engine forUrl(String engineUrl) throws SQLException {
        for (Engine engine : ALL) {
            if (engine.accepts(engineUrl)) {
                return engine;
            }
        }
        throw new SQLException("MacroDB does not support the engine of '" + engineUrl + "'. Supported engines: "
                + ALL.stream().map(e -> e.name() + ":").toList()
                + " (for example jdbc:macrodb:h2:mem:shop or jdbc:macrodb:hsqldb:mem:shop).",
                MacroSqlState.INVALID_URL);
    }
}
