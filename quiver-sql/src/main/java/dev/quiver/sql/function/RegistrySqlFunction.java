package dev.quiver.sql.function;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.function.Parameter;
import dev.quiver.engine.expr.function.ScalarFunction;
import dev.quiver.engine.expr.function.Signature;
import dev.quiver.engine.expr.function.Volatility;
import dev.quiver.sql.catalog.ArrowToCalciteTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;

/**
 * A registry {@link ScalarFunction} as Calcite sees it, under one of its names: the validator
 * checks arguments against the function's signatures and types the call with its return-type
 * rule, so a call's SQL type is the one the engine computes. Calls keep this operator through
 * conversion, which is how the expression translator finds the function again.
 */
public final class RegistrySqlFunction extends SqlFunction {
    private final ScalarFunction function;

    RegistrySqlFunction(String name, ScalarFunction function) {
        super(name.toUpperCase(Locale.ROOT), SqlKind.OTHER_FUNCTION, RegistrySqlFunction::returnType, null,
                new OperandChecker(function), category(function));
        this.function = requireNonNull(function, "function is null");
    }

    /**
     * Calcite's category for the family. It matters when Calcite re-resolves a call of its own
     * operator by name ({@code SUBSTRING(s FROM 2)} becomes this function): it looks in the
     * operator's category.
     */
    private static SqlFunctionCategory category(ScalarFunction function) {
        return switch (function.category()) {
            case STRING -> SqlFunctionCategory.STRING;
            case MATH -> SqlFunctionCategory.NUMERIC;
            case DATETIME -> SqlFunctionCategory.TIMEDATE;
            case CONDITIONAL, NESTED -> SqlFunctionCategory.SYSTEM;
        };
    }

    public ScalarFunction function() {
        return function;
    }

    @Override
    public boolean isDeterministic() {
        return function.volatility() != Volatility.VOLATILE;
    }

    @Override
    public boolean isDynamicFunction() {
        return function.volatility() == Volatility.STABLE;
    }

    private static RelDataType returnType(SqlOperatorBinding binding) {
        ScalarFunction function = ((RegistrySqlFunction) binding.getOperator()).function;
        ArrowType type = function.resultType(new CalciteArgumentTypes(binding));
        RelDataTypeFactory typeFactory = binding.getTypeFactory();
        List<Boolean> nullable = new ArrayList<>();
        for (int i = 0; i < binding.getOperandCount(); i++) {
            nullable.add(binding.getOperandType(i).isNullable());
        }
        RelDataType sqlType = requireNonNull(ArrowToCalciteTypes.sqlType(typeFactory, type), "no SQL type for " + type);
        return typeFactory.createTypeWithNullability(sqlType, function.nullability().resultNullable(nullable));
    }

    /** Accepts the arguments some signature of the function accepts. */
    private record OperandChecker(ScalarFunction function) implements SqlOperandTypeChecker {
        @Override
        public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
            CalciteArgumentTypes args = new CalciteArgumentTypes(binding);
            Optional<Signature> signature = args.allTyped() ? function.signatureFor(args.types()) : Optional.empty();
            if (signature.isPresent()) {
                checkConstants(binding, args, signature.get());
                return true;
            }
            if (throwOnFailure) {
                throw binding.newValidationSignatureError();
            }
            return false;
        }

        /** Runs the parameters' checks on constant arguments (a regular expression must compile), failing at the argument's position. */
        private static void checkConstants(SqlCallBinding binding, CalciteArgumentTypes args, Signature signature) {
            for (int i = 0; i < args.size(); i++) {
                Parameter parameter = signature.parameter(i);
                if (parameter.check() == Parameter.ConstantCheck.NONE || !args.isConstant(i)) {
                    continue;
                }
                Object value = args.constant(i);
                if (value == null) {
                    continue;
                }
                try {
                    parameter.check().check(value);
                } catch (QuiverException e) {
                    SqlParserPos pos = binding.operand(i).getParserPosition();
                    throw new QuiverException(e.errorCode(), e.getMessage() + " (at line " + pos.getLineNum() + ", column " + pos.getColumnNum() + ")",
                            new QuiverException.SqlPosition(pos.getLineNum(), pos.getColumnNum()), e);
                }
            }
        }

        @Override
        public SqlOperandCountRange getOperandCountRange() {
            int min = function.signatures().stream().mapToInt(Signature::minArguments).min().orElse(0);
            int max = function.signatures().stream().mapToInt(Signature::maxArguments).max().orElse(0);
            return max == Integer.MAX_VALUE ? SqlOperandCountRanges.from(min) : SqlOperandCountRanges.between(min, max);
        }

        @Override
        public String getAllowedSignatures(SqlOperator op, String opName) {
            return function.signatures().stream().map(s -> s.display(opName)).collect(Collectors.joining(", "));
        }
    }
}
