package dev.quiver.engine.expr.function;

import static dev.quiver.engine.expr.function.ArgType.DATE;
import static dev.quiver.engine.expr.function.ArgType.DATETIME;
import static dev.quiver.engine.expr.function.ArgType.INTEGER;
import static dev.quiver.engine.expr.function.Parameter.of;

import dev.quiver.engine.expr.kernel.DateKernels;
import dev.quiver.engine.types.QuiverTypes;
import java.util.List;

/**
 * The date and time functions of the {@link FunctionRegistry}. {@code EXTRACT(field FROM x)} and
 * {@code date ± interval} reach them through the SQL layer's syntax mapping.
 */
final class DateTimeFunctions {
    private DateTimeFunctions() {}

    static List<ScalarFunction> all() {
        return List.of(
                extract("year", DateKernels.Field.YEAR),
                extract("month", DateKernels.Field.MONTH),
                extract("day", DateKernels.Field.DAY),
                ScalarFunction.builder("date_add_days", FunctionCategory.DATETIME)
                        .syntax("{0} + interval '{1}' day")
                        .signature(of("date", DATE), Parameter.constant("days", INTEGER)).returns(QuiverTypes.DATE32)
                        .kernel(a -> DateKernels.add(false, a.operand(0), a.operand(1), a.resultType(), a.rows(), a.allocator()))
                        .description("the date days days later")
                        .build(),
                ScalarFunction.builder("date_add_months", FunctionCategory.DATETIME)
                        .syntax("{0} + interval '{1}' month")
                        .signature(of("date", DATE), Parameter.constant("months", INTEGER)).returns(QuiverTypes.DATE32)
                        .kernel(a -> DateKernels.add(true, a.operand(0), a.operand(1), a.resultType(), a.rows(), a.allocator()))
                        .description("the date months later, clamped to the month's last day")
                        .build());
    }

    private static ScalarFunction extract(String name, DateKernels.Field field) {
        return ScalarFunction.builder(name, FunctionCategory.DATETIME)
                .signature(of("x", DATETIME)).returns(QuiverTypes.INT64)
                .alsoWritten("extract(" + name + " from {0})")
                .kernel(a -> DateKernels.extract(field, a.operand(0), a.resultType(), a.rows(), a.allocator()))
                .description("the " + name + " of a date or timestamp")
                .build();
    }
}
