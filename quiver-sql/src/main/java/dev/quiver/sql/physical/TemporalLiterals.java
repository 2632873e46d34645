package dev.quiver.sql.physical;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.kernel.DateKernels;
import dev.quiver.engine.expr.kernel.TimestampText;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimestampString;

/**
 * DATE and TIMESTAMP literals between Calcite and the engine, exactly: Calcite's own conversions
 * of a timestamp literal go through milliseconds, which would drop the microseconds the engine
 * keeps. Both directions use the engine's text form, so there is one parser.
 */
public final class TemporalLiterals {
    private TemporalLiterals() {}

    /** The microseconds since the epoch of a TIMESTAMP literal (not NULL). */
    public static long micros(RexLiteral literal) {
        TimestampString text = literal.getValueAs(TimestampString.class);
        long micros = TimestampText.parse(text.toString());
        if (micros == TimestampText.INVALID) {
            throw new QuiverException(ErrorCode.INTERNAL_ERROR, "Calcite timestamp literal the engine cannot read: " + text);
        }
        return micros;
    }

    /** A TIMESTAMP literal of {@code micros}, truncated to {@code precision} fractional digits (0 to 6). */
    public static RexLiteral timestamp(RexBuilder rexBuilder, long micros, int precision) {
        long unit = (long) Math.pow(10, 6 - Math.min(6, precision));
        long truncated = Math.floorDiv(micros, unit) * unit;
        return rexBuilder.makeTimestampLiteral(new TimestampString(TimestampText.format(truncated)), precision);
    }

    /** A DATE literal of {@code days} since the epoch. */
    public static RexLiteral date(RexBuilder rexBuilder, int days) {
        StringBuilder text = new StringBuilder(10);
        DateKernels.format(days, text);
        return rexBuilder.makeDateLiteral(new DateString(text.toString()));
    }
}
