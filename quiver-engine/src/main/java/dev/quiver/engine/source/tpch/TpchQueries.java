package dev.quiver.engine.source.tpch;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The 22 TPC-H query texts shipped in {@code io.trino.tpch} ({@code io/trino/tpch/queries/qN.sql}),
 * with the standard substitution parameters, and their answers at scale factor 0.01
 * ({@code qN.result}); {@link #query(int, double)} gives the texts with the parameters the
 * specification scales with the scale factor (query 11's FRACTION). Query 15 is a script:
 * {@code CREATE OR REPLACE VIEW revenue ...; SELECT ...}.
 */
public final class TpchQueries {
    /** Query numbers, 1 to 22. */
    public static final List<Integer> NUMBERS = IntStream.rangeClosed(1, 22).boxed().toList();

    /** Query 11's FRACTION in the shipped text, as the multiplication it appears in. */
    private static final String Q11_FRACTION = "* 0.0001";

    private TpchQueries() {}

    /** The text of query {@code number}, comments included. */
    public static String query(int number) {
        return resource(number, "sql");
    }

    /**
     * The text of query {@code number} with its parameters for scale factor {@code scaleFactor}:
     * the shipped texts fix query 11's FRACTION at 0.0001, which the specification defines
     * as 0.0001 / SF, so that the share of parts selected stays the same at every scale;
     * unscaled, q11 selects ten times fewer parts at SF 10 (none at all over its data). The other
     * queries' parameters do not depend on the scale factor. At SF 1 this is {@link #query}.
     */
    public static String query(int number, double scaleFactor) {
        if (!(scaleFactor > 0) || Double.isInfinite(scaleFactor)) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "TPC-H scale factor must be a positive number, got " + scaleFactor);
        }
        String text = query(number);
        if (number != 11) {
            return text;
        }
        int at = text.indexOf(Q11_FRACTION);
        if (at < 0 || text.indexOf(Q11_FRACTION, at + 1) >= 0) {
            throw new QuiverException(ErrorCode.INTERNAL_ERROR, "TPC-H q11 text does not hold its FRACTION '" + Q11_FRACTION + "' once");
        }
        String fraction = new BigDecimal("0.0001").divide(new BigDecimal(Double.toString(scaleFactor)), MathContext.DECIMAL64)
                .stripTrailingZeros().toPlainString();
        return text.substring(0, at) + "* " + fraction + text.substring(at + Q11_FRACTION.length());
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
