package dev.quiver.engine.expr.function;

import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * What a return-type rule may know of a call's arguments: their types, and the values of those
 * that are constants. The SQL validator and the engine each provide one.
 */
public interface ArgumentTypes {
    int size();

    ArrowType type(int index);

    /** Whether argument {@code index} is a constant (a literal). */
    boolean isConstant(int index);

    /** The constant's Java value (see {@link dev.quiver.engine.types.QuiverTypes}), null for NULL; only for constants. */
    Object constant(int index);

    /**
     * The type of the elements of list argument {@code index} (the values of a map argument), which
     * an Arrow list type alone does not carry; empty when this side does not know it.
     */
    default Optional<ArrowType> elementType(int index) {
        return Optional.empty();
    }

    default List<ArrowType> types() {
        ArrowType[] types = new ArrowType[size()];
        for (int i = 0; i < types.length; i++) {
            types[i] = type(i);
        }
        return List.of(types);
    }

    /** The arguments of an engine expression. */
    static ArgumentTypes of(List<PhysicalExpr> args) {
        return new ArgumentTypes() {
            @Override
            public int size() {
                return args.size();
            }

            @Override
            public ArrowType type(int index) {
                return args.get(index).type();
            }

            @Override
            public boolean isConstant(int index) {
                return args.get(index) instanceof LiteralExpr;
            }

            @Override
            public Object constant(int index) {
                return ((LiteralExpr) args.get(index)).value();
            }
        };
    }
}
