package dev.quiver.sql.function;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.expr.function.ArgumentTypes;
import dev.quiver.engine.types.QuiverTypes;
import dev.quiver.sql.physical.TypeMapping;
import java.math.BigDecimal;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.type.SqlTypeName;
import org.checkerframework.checker.nullness.qual.Nullable;

/** The arguments of a call being validated (or re-typed by a Rex builder), as the registry's type rules see them. */
final class CalciteArgumentTypes implements ArgumentTypes {
    private final SqlOperatorBinding binding;

    CalciteArgumentTypes(SqlOperatorBinding binding) {
        this.binding = requireNonNull(binding, "binding is null");
    }

    /** The Arrow type of a SQL type, or null when the engine has none (intervals, symbols). */
    static @Nullable ArrowType arrowType(RelDataType type) {
        if (type.getSqlTypeName() == SqlTypeName.NULL) {
            return QuiverTypes.NULL;
        }
        try {
            return TypeMapping.toArrow(type);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Whether every argument has an engine type. */
    boolean allTyped() {
        for (int i = 0; i < size(); i++) {
            if (arrowType(binding.getOperandType(i)) == null) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int size() {
        return binding.getOperandCount();
    }

    @Override
    public ArrowType type(int index) {
        return requireNonNull(arrowType(binding.getOperandType(index)), "argument has no engine type");
    }

    @Override
    public Optional<ArrowType> elementType(int index) {
        RelDataType type = binding.getOperandType(index);
        RelDataType element = type.getSqlTypeName() == SqlTypeName.MAP ? type.getValueType() : type.getComponentType();
        return element == null ? Optional.empty() : Optional.ofNullable(arrowType(element));
    }

    @Override
    public boolean isConstant(int index) {
        return binding.isOperandLiteral(index, false);
    }

    @Override
    public Object constant(int index) {
        if (binding.isOperandNull(index, false)) {
            return null;
        }
        ArrowType type = type(index);
        if (type instanceof ArrowType.Int i) {
            BigDecimal value = binding.getOperandLiteralValue(index, BigDecimal.class);
            return value == null ? null : i.getBitWidth() == 64 ? (Object) value.longValue() : (Object) value.intValue();
        }
        if (type instanceof ArrowType.Decimal) {
            return binding.getOperandLiteralValue(index, BigDecimal.class);
        }
        if (type instanceof ArrowType.FloatingPoint) {
            return binding.getOperandLiteralValue(index, Double.class);
        }
        if (type instanceof ArrowType.Bool) {
            return binding.getOperandLiteralValue(index, Boolean.class);
        }
        if (type instanceof ArrowType.Utf8) {
            return binding.getOperandLiteralValue(index, String.class);
        }
        return binding.getOperandLiteralValue(index, Object.class);
    }
}
