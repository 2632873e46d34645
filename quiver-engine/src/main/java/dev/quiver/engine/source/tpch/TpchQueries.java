package dev.quiver.engine.source.tpch;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The 22 TPC-H query texts shipped in {@code io.trino.tpch} ({@code io/trino/tpch/queries/qN.sql}),
 * with the standard substitution parameters, and their answers at scale factor 0.01
 * ({@code qN.result}). Query 15 is a script: {@code CREATE OR REPLACE VIEW revenue ...; SELECT ...}.
 */
public final class TpchQueries {
    /** Query numbers, 1 to 22. */
    public static final List<Integer> NUMBERS = IntStream.rangeClosed(1, 22).boxed().toList();

    private TpchQueries() {}

    /** The text of query {@code number}, comments included. */
    public static String query(int number) {
        return resource(number, "sql");
    }

    /** The answer file of query {@code number} at scale factor 0.01. */
    public static String answer(int number) {
        return resource(number, "result");
    }

    /** Whether the query text is a script of several statements (query 15 defines a view). */
    public static boolean isScript(int number) {
        return number == 15;
    }

    private static String resource(int number, String extension) {
        if (number < 1 || number > 22) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "TPC-H queries are numbered 1 to 22, got " + number);
        }
        String path = "io/trino/tpch/queries/q" + number + "." + extension;
        try (InputStream in = TpchQueries.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new QuiverException(ErrorCode.INTERNAL_ERROR, "TPC-H resource " + path + " is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + path, e);
        }
    }
}
