package io.macrodb.runtime.capture;

import java.sql.SQLException;

/**
 * Turns a value as the engine stores it into a plain, immutable JDBC value that every slave can bind: the
 * same object then reaches every slave.
 */
@FunctionalInterface
public interface ValueConverter {
    Object convert(Object engineValue) throws SQLException;
}
