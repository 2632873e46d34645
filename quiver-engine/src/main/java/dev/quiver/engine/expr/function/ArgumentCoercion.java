package dev.quiver.engine.expr.function;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The types a function wants its arguments cast to before its kernel sees them, given the
 * argument types and the result type; null keeps an argument as it is. Kernels that choose a
 * value from several arguments ({@code coalesce}, {@code greatest}) get them all in the result
 * type, so their loops copy values of one type.
 */
@FunctionalInterface
public interface ArgumentCoercion {
    /** Kernels take the argument types as they come. */
    ArgumentCoercion NONE = (args, result) -> new ArrayList<>(java.util.Collections.nCopies(args.size(), null));

    /** Every argument in the result type. */
    ArgumentCoercion ALL_TO_RESULT = fromArgument(0);

    List<ArrowType> targets(List<ArrowType> argumentTypes, ArrowType resultType);

    /** Arguments {@code from} onwards in the result type, the others as they are. */
    static ArgumentCoercion fromArgument(int from) {
        return (args, result) -> {
            List<ArrowType> targets = new ArrayList<>(args.size());
            for (int i = 0; i < args.size(); i++) {
                targets.add(i >= from ? result : null);
            }
            return targets;
        };
    }
}
