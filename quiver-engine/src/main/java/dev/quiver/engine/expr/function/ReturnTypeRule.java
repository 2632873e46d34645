package dev.quiver.engine.expr.function;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.types.QuiverTypes;
import java.util.function.Function;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * A function's result type from its arguments. The SQL validator derives the type of a call with
 * it and the engine receives that type, so both sides agree by construction. A rule that cannot
 * type its arguments throws a TYPE_MISMATCH {@link dev.quiver.engine.error.QuiverException}.
 */
public interface ReturnTypeRule {
    ArrowType resolve(ArgumentTypes args);

    /** For documentation: {@code BIGINT}, {@code type of x}. */
    String describe();

    static ReturnTypeRule of(String description, Function<ArgumentTypes, ArrowType> rule) {
        requireNonNull(description, "description is null");
        requireNonNull(rule, "rule is null");
        return new ReturnTypeRule() {
            @Override
            public ArrowType resolve(ArgumentTypes args) {
                return rule.apply(args);
            }

            @Override
            public String describe() {
                return description;
            }
        };
    }

    static ReturnTypeRule fixed(ArrowType type) {
        return of(QuiverTypes.sqlName(type), args -> type);
    }

    /** The type of argument {@code index}; {@code whenNull} when that argument is an untyped NULL. */
    static ReturnTypeRule argument(int index, ArrowType whenNull) {
        return of("type of argument " + (index + 1), args -> {
            ArrowType type = args.type(index);
            return type instanceof ArrowType.Null ? whenNull : type;
        });
    }

    /** The common type of arguments {@code from} onwards (see {@link QuiverTypes#commonType}). */
    static ReturnTypeRule commonFrom(int from) {
        return of(from == 0 ? "common type of the arguments" : "common type of arguments " + (from + 1) + "..", args -> {
            ArrowType common = QuiverTypes.NULL;
            for (int i = from; i < args.size(); i++) {
                common = QuiverTypes.commonType(common, args.type(i));
            }
            return common;
        });
    }
}
