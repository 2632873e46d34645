package dev.quiver.engine.expr.function;

import static dev.quiver.engine.expr.function.ArgType.DATE;
import static dev.quiver.engine.expr.function.ArgType.DATETIME;
import static dev.quiver.engine.expr.function.ArgType.INTEGER;
import static dev.quiver.engine.expr.function.ArgType.NUMERIC;
import static dev.quiver.engine.expr.function.ArgType.STRING;
import static dev.quiver.engine.expr.function.ArgType.TIMESTAMP;
import static dev.quiver.engine.expr.function.Parameter.of;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.kernel.DateArithmeticKernels;
import dev.quiver.engine.expr.kernel.DatePart;
import dev.quiver.engine.expr.kernel.DatePartKernels;
import dev.quiver.engine.expr.kernel.Operand;
import dev.quiver.engine.types.QuiverTypes;
import java.util.List;
import org.apache.arrow.vector.FieldVector;

/**
 * Date and time arithmetic: the operators ({@code date + integer}, {@code date - date},
 * {@code timestamp ± interval}, which the SQL layer lowers to these functions with the interval as
 * a count of months or microseconds), {@code date_diff}, {@code date_sub} and {@code TIMESTAMPDIFF},
 * {@code make_date}, {@code make_timestamp} and {@code last_day}.
 */
final class DateArithmeticFunctions {
    private DateArithmeticFunctions() {}

    static List<ScalarFunction> all() {
        return List.of(
                ScalarFunction.builder("date_add_days", FunctionCategory.DATETIME)
                        .syntax("{0} + {1}", "{0} + interval '{1}' day")
                        .signature(of("date", DATE), of("days", INTEGER)).returns(QuiverTypes.DATE32)
                        .kernel(a -> DateArithmeticKernels.addDays(a.operand(0), a.operand(1), a.display(), a.rows(), a.allocator()))
                        .description("the date days days later")
                        .build(),
                ScalarFunction.builder("date_sub_days", FunctionCategory.DATETIME)
                        .syntax("{0} - {1}")
                        .signature(of("date", DATE), of("days", INTEGER)).returns(QuiverTypes.DATE32)
                        .kernel(a -> DateArithmeticKernels.subtractDays(a.operand(0), a.operand(1), a.display(), a.rows(), a.allocator()))
                        .description("the date days days earlier")
                        .build(),
                ScalarFunction.builder("date_add_months", FunctionCategory.DATETIME)
                        .syntax("{0} + interval '{1}' month")
                        .signature(of("x", DATETIME), of("months", INTEGER))
                        .returns(ReturnTypeRule.argument(0, QuiverTypes.DATE32))
                        .kernel(a -> DateArithmeticKernels.addMonths(a.operand(0), a.operand(1), a.resultType(), a.display(), a.rows(),
                                a.allocator()))
                        .description("x months later (earlier when negative), the day clamped to the last day of a shorter month")
                        .build(),
                ScalarFunction.builder("timestamp_add_micros", FunctionCategory.DATETIME)
                        .syntax("{0} + interval '{1}' microsecond")
                        .signature(of("timestamp", TIMESTAMP), of("micros", INTEGER)).returns(QuiverTypes.TIMESTAMP)
                        .kernel(a -> DateArithmeticKernels.addMicros(a.operand(0), a.operand(1), a.display(), a.rows(), a.allocator()))
                        .description("the timestamp micros microseconds later (a day-time interval added)")
                        .build(),
                ScalarFunction.builder("date_diff", FunctionCategory.DATETIME).aliases("datediff")
                        .signature(Parameter.checkedConstant("part", STRING, part -> checkBoundaries(DatePart.parse(part.toString(), "date_diff"))),
                                of("start", DATETIME), of("end", DATETIME))
                        .returns(QuiverTypes.INT64)
                        .alsoWritten("{2} - {1}")
                        .binder(site -> {
                            DatePart part = checkBoundaries(DateTimeFunctions.part(site, 0));
                            return a -> DatePartKernels.diff(part, a.operand(1), a.operand(2), a.resultType(), a.display(), a.rows(),
                                    a.allocator());
                        })
                        .description("how many part boundaries lie from start to end (date_diff('month', '2024-01-31', '2024-02-01') "
                                + "is 1); date - date is date_diff('day', ...)")
                        .build(),
                ScalarFunction.builder("date_sub", FunctionCategory.DATETIME)
                        .signature(Parameter.checkedConstant("part", STRING,
                                part -> DatePartKernels.checkCountable(DatePart.parse(part.toString(), "date_sub"), "date_sub")),
                                of("start", DATETIME), of("end", DATETIME))
                        .returns(QuiverTypes.INT64)
                        .binder(site -> {
                            DatePart part = DatePartKernels.checkCountable(DateTimeFunctions.part(site, 0), "date_sub");
                            return a -> DatePartKernels.elapsed(part, a.operand(1), a.operand(2), a.resultType(), a.display(), a.rows(),
                                    a.allocator());
                        })
                        .description("how many whole parts have passed from start to end (date_sub('month', '2024-01-31', '2024-02-28') "
                                + "is 0); TIMESTAMPDIFF(unit, start, end) is date_sub")
                        .build(),
                ScalarFunction.builder("make_date", FunctionCategory.DATETIME)
                        .signature(of("year", INTEGER), of("month", INTEGER), of("day", INTEGER)).returns(QuiverTypes.DATE32)
                        .kernel(a -> DateArithmeticKernels.makeDate(a.operand(0), a.operand(1), a.operand(2), a.display(), a.rows(),
                                a.allocator()))
                        .description("the date of the year, month and day; a day that does not exist is INVALID_ARGUMENT")
                        .build(),
                ScalarFunction.builder("make_timestamp", FunctionCategory.DATETIME)
                        .signature(of("year", INTEGER), of("month", INTEGER), of("day", INTEGER), of("hour", INTEGER),
                                of("minute", INTEGER), of("seconds", NUMERIC))
                        .signature(of("micros", INTEGER))
                        .returns(QuiverTypes.TIMESTAMP)
                        .kernel(DateArithmeticFunctions::makeTimestamp)
                        .description("the timestamp of the fields (seconds may have a fraction), or of microseconds since 1970-01-01")
                        .build(),
                ScalarFunction.builder("last_day", FunctionCategory.DATETIME)
                        .signature(of("x", DATETIME)).returns(QuiverTypes.DATE32)
                        .kernel(a -> DateArithmeticKernels.lastDay(a.operand(0), a.display(), a.rows(), a.allocator()))
                        .description("the last day of x's month")
                        .build());
    }

    private static FieldVector makeTimestamp(CallArguments a) {
        if (a.size() == 1) {
            return DateArithmeticKernels.timestampFromUnits(a.operand(0), 1, a.display(), a.rows(), a.allocator());
        }
        Operand[] fields = new Operand[6];
        for (int i = 0; i < fields.length; i++) {
            fields[i] = a.operand(i);
        }
        return DateArithmeticKernels.makeTimestamp(fields, a.display(), a.rows(), a.allocator());
    }

    private static DatePart checkBoundaries(DatePart part) {
        if (part == DatePart.ERA) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT,
                    "date_diff cannot count 'era' boundaries");
        }
        return part;
    }
}
