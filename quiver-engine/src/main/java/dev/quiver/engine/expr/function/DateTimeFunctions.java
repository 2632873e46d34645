package dev.quiver.engine.expr.function;

import static dev.quiver.engine.expr.function.ArgType.DATETIME;
import static dev.quiver.engine.expr.function.ArgType.STRING;
import static dev.quiver.engine.expr.function.Parameter.of;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.kernel.DatePart;
import dev.quiver.engine.expr.kernel.DatePartKernels;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The date and time functions of the {@link FunctionRegistry}: the fields of a date or timestamp
 * ({@code date_part}, {@code EXTRACT} and DuckDB's one-field shorthands) and {@code date_trunc}
 * here; arithmetic in {@link DateArithmeticFunctions}, text and the current time in
 * {@link DateFormatFunctions}. {@code EXTRACT(field FROM x)}, {@code date ± interval} and
 * {@code TIMESTAMPDIFF} reach them through the SQL layer's syntax mapping.
 */
final class DateTimeFunctions {
    private DateTimeFunctions() {}

    static List<ScalarFunction> all() {
        List<ScalarFunction> all = new ArrayList<>();
        all.add(ScalarFunction.builder("date_part", FunctionCategory.DATETIME).aliases("datepart")
                .signature(Parameter.checkedConstant("part", STRING, part -> DatePart.parse(part.toString(), "date_part")), of("x", DATETIME))
                .returns(ReturnTypeRule.of("BIGINT; DOUBLE for epoch and julian", DateTimeFunctions::partType))
                .binder(site -> {
                    DatePart part = part(site, 0);
                    return a -> DatePartKernels.extract(part, a.operand(1), a.resultType(), a.rows(), a.allocator());
                })
                .description("a field of a date or timestamp: year, quarter, month, week (ISO), day, dow (Sunday = 0), isodow, doy, "
                        + "isoyear, yearweek, decade, century, millennium, era, hour, minute, second, millisecond, microsecond, "
                        + "epoch (seconds), julian")
                .build());
        all.add(field("year", DatePart.YEAR, "year").build());
        all.add(field("quarter", DatePart.QUARTER, "quarter").build());
        all.add(field("month", DatePart.MONTH, "month").build());
        all.add(field("week", DatePart.WEEK, "week").aliases("weekofyear").build());
        all.add(field("day", DatePart.DAY, "day").aliases("dayofmonth").build());
        all.add(field("dayofweek", DatePart.DOW, "dow").aliases("weekday").build());
        all.add(field("isodow", DatePart.ISODOW, "isodow").build());
        all.add(field("dayofyear", DatePart.DOY, "doy").build());
        all.add(field("isoyear", DatePart.ISOYEAR, "isoyear").build());
        all.add(field("yearweek", DatePart.YEARWEEK, null).build());
        all.add(field("decade", DatePart.DECADE, "decade").build());
        all.add(field("century", DatePart.CENTURY, "century").build());
        all.add(field("millennium", DatePart.MILLENNIUM, "millennium").build());
        all.add(field("era", DatePart.ERA, null).build());
        all.add(field("hour", DatePart.HOUR, "hour").build());
        all.add(field("minute", DatePart.MINUTE, "minute").build());
        all.add(field("second", DatePart.SECOND, "second").build());
        all.add(field("millisecond", DatePart.MILLISECOND, "millisecond").build());
        all.add(field("microsecond", DatePart.MICROSECOND, "microsecond").build());
        all.add(field("epoch", DatePart.EPOCH, "epoch").build());
        all.add(field("julian", DatePart.JULIAN, null).build());
        all.add(ScalarFunction.builder("date_trunc", FunctionCategory.DATETIME).aliases("datetrunc")
                .signature(Parameter.checkedConstant("part", STRING,
                        part -> DatePartKernels.checkTruncatable(DatePart.parse(part.toString(), "date_trunc"))), of("x", DATETIME))
                .returns(QuiverTypes.TIMESTAMP)
                .binder(site -> {
                    DatePart part = DatePartKernels.checkTruncatable(part(site, 0));
                    return a -> DatePartKernels.truncate(part, a.operand(1), a.resultType(), a.rows(), a.allocator());
                })
                .description("the start of x's part (year, quarter, month, week from Monday, day, hour, ..., isoyear, decade, "
                        + "century, millennium), a TIMESTAMP")
                .build());
        all.addAll(DateArithmeticFunctions.all());
        all.addAll(DateFormatFunctions.all());
        return all;
    }

    /** A one-field shorthand, {@code year(x)}, also written {@code EXTRACT(extractName FROM x)} when SQL has that field. */
    private static ScalarFunction.Builder field(String name, DatePart part, String extractName) {
        ScalarFunction.Builder builder = ScalarFunction.builder(name, FunctionCategory.DATETIME)
                .signature(of("x", DATETIME)).returns(part.isFractional() ? QuiverTypes.FLOAT64 : QuiverTypes.INT64)
                .kernel(a -> DatePartKernels.extract(part, a.operand(0), a.resultType(), a.rows(), a.allocator()))
                .description("date_part('" + part.canonicalName() + "', x)");
        if (extractName != null) {
            builder.alsoWritten("extract(" + extractName + " from {0})");
        }
        return builder;
    }

    private static ArrowType partType(ArgumentTypes args) {
        if (args.isConstant(0) && args.constant(0) instanceof String text) {
            return DatePart.parse(text, "date_part").isFractional() ? QuiverTypes.FLOAT64 : QuiverTypes.INT64;
        }
        return QuiverTypes.INT64;
    }

    /** The constant part named by argument {@code index} of a call. */
    static DatePart part(CallSite site, int index) {
        return DatePart.parse(constantText(site, index, "part"), site.function().name());
    }

    /** The text of constant argument {@code index}; NOT_SUPPORTED when the argument is not a constant. */
    static String constantText(CallSite site, int index, String what) {
        if (!site.isConstant(index)) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "The " + what + " of " + site.function().name().toLowerCase(Locale.ROOT)
                    + " must be a constant: " + site.display());
        }
        return (String) site.constant(index);
    }
}
