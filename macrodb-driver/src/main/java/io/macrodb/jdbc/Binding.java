package io.macrodb.jdbc;

import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * One recorded parameter setting, replayed on the engine statement that runs: the setter the application called,
 * with its arguments, so the engine converts the value exactly as it would have.
 */
@FunctionalInterface
interface Binding {
    void bind(PreparedStatement statement, int index) throws SQLException;
}
