package dev.quiver.engine.expr.function;

import static dev.quiver.engine.expr.function.ArgType.DATETIME;
import static dev.quiver.engine.expr.function.ArgType.INTEGER;
import static dev.quiver.engine.expr.function.ArgType.NUMERIC;
import static dev.quiver.engine.expr.function.ArgType.STRING;
import static dev.quiver.engine.expr.function.Parameter.of;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.kernel.DateArithmeticKernels;
import dev.quiver.engine.expr.kernel.DateFormatKernels;
import dev.quiver.engine.expr.kernel.DateTimeFormat;
import dev.quiver.engine.types.QuiverTypes;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Dates and times as text and as numbers ({@code strftime}, {@code strptime}, day and month
 * names, epoch conversions), and the current date and time.
 */
final class DateFormatFunctions {
    private DateFormatFunctions() {}

    static List<ScalarFunction> all() {
        return List.of(
                ScalarFunction.builder("strftime", FunctionCategory.DATETIME)
                        .signature(of("x", DATETIME), Parameter.checkedConstant("format", STRING,
                                format -> DateTimeFormat.compile(format.toString(), "strftime"))).returns(QuiverTypes.UTF8)
                        .binder(site -> {
                            DateTimeFormat format = DateTimeFormat.compile(DateTimeFunctions.constantText(site, 1, "format"), "strftime");
                            return a -> DateFormatKernels.strftime(a.operand(0), format, a.rows(), a.allocator());
                        })
                        .description("x as text in a format of % codes (DuckDB's and C's: %Y-%m-%d %H:%M:%S, %a, %B, %j, %V, ...)")
                        .build(),
                strptime("strptime", false)
                        .description("the TIMESTAMP text holds in a strftime format; text that does not match is INVALID_ARGUMENT")
                        .build(),
                strptime("try_strptime", true).nullability(Nullability.ALWAYS)
                        .description("strptime, or NULL when the text does not match")
                        .build(),
                ScalarFunction.builder("dayname", FunctionCategory.DATETIME)
                        .signature(of("x", DATETIME)).returns(QuiverTypes.UTF8)
                        .kernel(a -> DateFormatKernels.name(DateFormatKernels.Name.DAY, a.operand(0), a.rows(), a.allocator()))
                        .description("the English name of x's day of the week")
                        .build(),
                ScalarFunction.builder("monthname", FunctionCategory.DATETIME)
                        .signature(of("x", DATETIME)).returns(QuiverTypes.UTF8)
                        .kernel(a -> DateFormatKernels.name(DateFormatKernels.Name.MONTH, a.operand(0), a.rows(), a.allocator()))
                        .description("the English name of x's month")
                        .build(),
                ScalarFunction.builder("to_timestamp", FunctionCategory.DATETIME)
                        .signature(of("seconds", NUMERIC)).returns(QuiverTypes.TIMESTAMP)
                        .kernel(a -> DateArithmeticKernels.timestampFromSeconds(a.operand(0), a.display(), a.rows(), a.allocator()))
                        .description("the TIMESTAMP (UTC) seconds after 1970-01-01 00:00:00")
                        .build(),
                ScalarFunction.builder("epoch_ms", FunctionCategory.DATETIME)
                        .signature(of("x", DATETIME))
                        .signature(of("millis", INTEGER))
                        .returns(ReturnTypeRule.of("BIGINT for a date or timestamp, TIMESTAMP for a number", args ->
                                args.type(0) instanceof ArrowType.Int ? QuiverTypes.TIMESTAMP : QuiverTypes.INT64))
                        .kernel(a -> a.operand(0).type() instanceof ArrowType.Int
                                ? DateArithmeticKernels.timestampFromUnits(a.operand(0), 1000, a.display(), a.rows(), a.allocator())
                                : DateArithmeticKernels.epochUnits(a.operand(0), 1000, a.display(), a.rows(), a.allocator()))
                        .description("milliseconds since 1970-01-01 of a date or timestamp, or the TIMESTAMP of milliseconds")
                        .build(),
                ScalarFunction.builder("epoch_us", FunctionCategory.DATETIME)
                        .signature(of("x", DATETIME)).returns(QuiverTypes.INT64)
                        .kernel(a -> DateArithmeticKernels.epochUnits(a.operand(0), 1, a.display(), a.rows(), a.allocator()))
                        .description("microseconds since 1970-01-01 of a date or timestamp")
                        .build(),
                current("today", QuiverTypes.DATE32).alsoWritten("current_date")
                        .description("the date (UTC) when the query started; one value for the whole query")
                        .build(),
                current("now", QuiverTypes.TIMESTAMP).aliases("get_current_timestamp", "transaction_timestamp")
                        .alsoWritten("current_timestamp", "localtimestamp")
                        .description("the time (UTC, to the microsecond) when the query started; one value for the whole query, "
                                + "on every worker")
                        .build());
    }

    private static ScalarFunction.Builder strptime(String name, boolean lenient) {
        return ScalarFunction.builder(name, FunctionCategory.DATETIME)
                .signature(of("text", STRING), Parameter.checkedConstant("format", STRING, format -> DateTimeFormat.compile(format.toString(), name)))
                .returns(QuiverTypes.TIMESTAMP)
                .binder(site -> {
                    DateTimeFormat format = DateTimeFormat.compile(DateTimeFunctions.constantText(site, 1, "format"), name);
                    return a -> DateFormatKernels.strptime(a.operand(0), format, lenient, a.display(), a.rows(), a.allocator());
                });
    }

    /**
     * A function of the query's start time. The SQL planner replaces each call with that time as a
     * constant, once per query, so that every call (and every task of a distributed query) sees the
     * same instant; the kernel is never reached.
     */
    private static ScalarFunction.Builder current(String name, ArrowType type) {
        return ScalarFunction.builder(name, FunctionCategory.DATETIME)
                .signature().returns(type).volatility(Volatility.STABLE).nullability(Nullability.NEVER)
                .kernel(a -> {
                    throw new QuiverException(ErrorCode.INTERNAL_ERROR, name + "() must be bound to the query's start time by the planner");
                });
    }
}
