package io.macrodb.jdbc;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.sql.SQLException;
import java.util.Calendar;

/**
 * A parameter's value as the engines take it: at the setter. A prepared statement records its parameters and binds
 * them at each execution, on whichever replica the transaction runs; recording the caller's objects themselves let
 * the caller change them in between (found by a review, 2026-11-23): a {@code byte[]} or {@code Timestamp} reused
 * for each row of a batch stored the last row's value in every row, a {@code Calendar} changed after the setter
 * moved the time, and a stream was read at the first execution only, so a second one (or a batch run again element
 * by element) stored an empty value, and one closed after the setter failed. So mutable values are copied, and
 * streams read whole, when the setter is called; each binding then gets a fresh stream over what was read.
 */
final class ParameterValues {

    /** SQL's "data exception": a stream that cannot be read, or is too long to hold. */
    private static final String DATA_EXCEPTION = "22000";

    private ParameterValues() {
    }

    /** A value read from a stream or reader at the setter. */
    sealed interface Read permits ReadBytes, ReadChars {
        /** Its length, in bytes or characters. */
        int length();
    }

    /** Bytes read from a stream at the setter: a fresh stream over them at every binding. */
    record ReadBytes(byte[] bytes) implements Read {
        InputStream stream() {
            return new ByteArrayInputStream(bytes);
        }

        @Override
        public int length() {
            return bytes.length;
        }
    }

    /** Characters read from a reader at the setter: a fresh reader over them at every binding. */
    record ReadChars(String chars) implements Read {
        Reader reader() {
            return new StringReader(chars);
        }

        @Override
        public int length() {
            return chars.length();
        }
    }

    static InputStream streamOf(ReadBytes read) {
        return read == null ? null : read.stream();
    }

    static Reader readerOf(ReadChars read) {
        return read == null ? null : read.reader();
    }

    /** The length to give with a stream of what was read: what was read (or the caller's, for a null stream). */
    static int lengthOf(Read read, int given) {
        return read == null ? given : read.length();
    }

    static long lengthOf(Read read, long given) {
        return read == null ? given : read.length();
    }

    static byte[] copy(byte[] value) {
        return value == null ? null : value.clone();
    }

    @SuppressWarnings("unchecked")
    static <T extends java.util.Date> T copy(T value) {
        return value == null ? null : (T) value.clone();
    }

    static Calendar copy(Calendar calendar) {
        return calendar == null ? null : (Calendar) calendar.clone();
    }

    /** A value given to {@code setObject}: mutable ones copied, streams read ({@link #fresh} at each binding). */
    static Object copyObject(Object value) throws SQLException {
        if (value instanceof byte[] bytes) {
            return bytes.clone();
        }
        if (value instanceof java.util.Date date) {
            return date.clone();
        }
        if (value instanceof Calendar calendar) {
            return calendar.clone();
        }
        if (value instanceof Object[] elements) {
            Object[] copy = elements.clone();
            for (int i = 0; i < copy.length; i++) {
                copy[i] = copyObject(copy[i]);
            }
            return copy;
        }
        if (value instanceof InputStream stream) {
            return read(stream, -1);
        }
        if (value instanceof Reader reader) {
            return read(reader, -1);
        }
        return value;
    }

    /** What a binding passes for a value {@link #copyObject} made: a fresh stream for one read from a stream. */
    static Object fresh(Object value) {
        if (value instanceof ReadBytes read) {
            return read.stream();
        }
        if (value instanceof ReadChars read) {
            return read.reader();
        }
        return value;
    }

    /** A {@code Blob}'s bytes, as they are now: an engine's LOB object can be changed after the setter. */
    static ReadBytes read(java.sql.Blob blob) throws SQLException {
        return new ReadBytes(blob.getBytes(1, checked(blob.length())));
    }

    /** A {@code Clob}'s characters, as they are now. */
    static ReadChars read(java.sql.Clob clob) throws SQLException {
        return new ReadChars(clob.getSubString(1, checked(clob.length())));
    }

    /** {@code stream} read to its end, or its first {@code length} bytes (length < 0: all); null for null. */
    static ReadBytes read(InputStream stream, long length) throws SQLException {
        if (stream == null) {
            return null;
        }
        try {
            int wanted = (int) Math.min(length < 0 ? Long.MAX_VALUE : length, MAX_HELD);
            byte[] bytes = stream.readNBytes(wanted);
            if (bytes.length == MAX_HELD && (length < 0 || length > MAX_HELD) && stream.read() >= 0) {
                throw tooLong();
            }
            return new ReadBytes(bytes);
        } catch (IOException e) {
            throw new SQLException("Reading the parameter's stream failed: " + e.getMessage(),
                    DATA_EXCEPTION, e);
        }
    }

    /** {@code reader} read to its end, or its first {@code length} characters (length < 0: all); null for null. */
    static ReadChars read(Reader reader, long length) throws SQLException {
        if (reader == null) {
            return null;
        }
        try {
            StringBuilder chars = new StringBuilder();
            char[] buffer = new char[8192];
            long wanted = length < 0 ? Long.MAX_VALUE : length;
            while (chars.length() < wanted) {
                int n = reader.read(buffer, 0, (int) Math.min(buffer.length, wanted - chars.length()));
                if (n < 0) {
                    break;
                }
                if (chars.length() + n > MAX_HELD) {
                    throw tooLong();
                }
                chars.append(buffer, 0, n);
            }
            return new ReadChars(chars.toString());
        } catch (IOException e) {
            throw new SQLException("Reading the parameter's reader failed: " + e.getMessage(),
                    DATA_EXCEPTION, e);
        }
    }

    /** The most a parameter's value read at the setter may hold: what one Java array can. */
    private static final int MAX_HELD = Integer.MAX_VALUE - 8;

    private static int checked(long length) throws SQLException {
        if (length > MAX_HELD) {
            throw tooLong();
        }
        return (int) length;
    }

    private static SQLException tooLong() {
        return new SQLException("A parameter's stream or LOB holds more than MacroDB reads into one value (2 GB): "
                + "MacroDB reads a parameter's value when it is set, to bind it on whichever replica runs the "
                + "statement. Store it in parts.", DATA_EXCEPTION);
    }
}
