package dev.quiver.sql.physical;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.config.DivisionByZero;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.BinaryExpr;
import dev.quiver.engine.expr.BinaryOperator;
import dev.quiver.engine.expr.CaseExpr;
import dev.quiver.engine.expr.CastExpr;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.InListExpr;
import dev.quiver.engine.expr.IsNullExpr;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.NegateExpr;
import dev.quiver.engine.expr.NotExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.expr.TryCastExpr;
import dev.quiver.engine.expr.function.ConditionalFunctions;
import dev.quiver.engine.expr.function.FunctionRegistry;
import dev.quiver.engine.expr.function.ScalarFunction;
import dev.quiver.engine.expr.kernel.CastKernels;
import dev.quiver.engine.types.QuiverTypes;
import dev.quiver.sql.function.RegistrySqlFunction;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Translates Calcite row expressions over one input into {@link PhysicalExpr}s over the input's
 * physical {@link Schema}. Column references take their type and nullability from the physical
 * schema; every call takes Calcite's type of the call as its result type.
 */
public final class RexTranslator {
    private static final Map<SqlKind, BinaryOperator> COMPARISONS = Map.of(
            SqlKind.EQUALS, BinaryOperator.EQ,
            SqlKind.NOT_EQUALS, BinaryOperator.NOT_EQ,
            SqlKind.LESS_THAN, BinaryOperator.LT,
            SqlKind.LESS_THAN_OR_EQUAL, BinaryOperator.LT_EQ,
            SqlKind.GREATER_THAN, BinaryOperator.GT,
            SqlKind.GREATER_THAN_OR_EQUAL, BinaryOperator.GT_EQ,
            SqlKind.IS_DISTINCT_FROM, BinaryOperator.IS_DISTINCT_FROM,
            SqlKind.IS_NOT_DISTINCT_FROM, BinaryOperator.IS_NOT_DISTINCT_FROM);
    private static final Map<SqlKind, BinaryOperator> ARITHMETIC = Map.of(
            SqlKind.PLUS, BinaryOperator.PLUS,
            SqlKind.MINUS, BinaryOperator.MINUS,
            SqlKind.TIMES, BinaryOperator.MULTIPLY,
            SqlKind.DIVIDE, BinaryOperator.DIVIDE,
            SqlKind.MOD, BinaryOperator.MODULO);

    /** The registry functions whose second argument is a divisor. */
    private static final Set<String> DIVISIONS = Set.of("mod", "divide");
    private static final ScalarFunction NULLIF = FunctionRegistry.builtins().lookup("nullif").orElseThrow();

    private final Schema input;
    private final RexBuilder rexBuilder;
    private final DivisionByZero divisionByZero;

    /**
     * @param divisionByZero what a division or remainder by zero gives: with {@code NULL}, each
     *     divisor {@code y} is translated as {@code nullif(y, 0)}
     */
    public RexTranslator(Schema input, RexBuilder rexBuilder, DivisionByZero divisionByZero) {
        this.input = requireNonNull(input, "input is null");
        this.rexBuilder = requireNonNull(rexBuilder, "rexBuilder is null");
        this.divisionByZero = requireNonNull(divisionByZero, "divisionByZero is null");
    }

    public List<PhysicalExpr> translate(List<? extends RexNode> nodes) {
        List<PhysicalExpr> exprs = new ArrayList<>(nodes.size());
        for (RexNode node : nodes) {
            exprs.add(translate(node));
        }
        return exprs;
    }

    public PhysicalExpr translate(RexNode node) {
        if (node instanceof RexInputRef ref) {
            return column(ref.getIndex());
        }
        if (node instanceof RexLiteral literal) {
            ArrowType type = TypeMapping.toArrow(literal.getType());
            return new LiteralExpr(Literals.value(literal, type), type);
        }
        if (node instanceof RexCall call) {
            return call(call);
        }
        throw new QuiverException(ErrorCode.NOT_SUPPORTED, "The expression " + node + " (" + node.getKind() + ") is not supported");
    }

    public RexBuilder rexBuilder() {
        return rexBuilder;
    }

    /** A reference to input column {@code index}. */
    public ColumnExpr column(int index) {
        return column(input, index);
    }

    /** A reference to column {@code index} of {@code schema}. */
    public static ColumnExpr column(Schema schema, int index) {
        Field field = schema.getFields().get(index);
        return new ColumnExpr(index, field.getName(), field.getType(), field.isNullable());
    }

    private PhysicalExpr call(RexCall call) {
        ArrowType type = TypeMapping.toArrow(call.getType());
        List<RexNode> operands = call.getOperands();
        BinaryOperator comparison = COMPARISONS.get(call.getKind());
        if (comparison != null) {
            return comparison(comparison, call);
        }
        BinaryOperator arithmetic = ARITHMETIC.get(call.getKind());
        if (arithmetic != null) {
            boolean dateArithmetic = (type instanceof ArrowType.Date || type instanceof ArrowType.Timestamp)
                    && (arithmetic == BinaryOperator.PLUS || arithmetic == BinaryOperator.MINUS);
            return dateArithmetic ? StandardCalls.translate(this, call, type) : arithmetic(arithmetic, call, type);
        }
        switch (call.getKind()) {
            case AND:
                return andOr(BinaryOperator.AND, call);
            case OR:
                return andOr(BinaryOperator.OR, call);
            case NOT:
                return new NotExpr(translate(operands.get(0)));
            case IS_NULL:
                return new IsNullExpr(translate(operands.get(0)), false);
            case IS_NOT_NULL:
                return new IsNullExpr(translate(operands.get(0)), true);
            case IS_TRUE:
                return coalesce(translate(operands.get(0)), false);
            case IS_NOT_TRUE:
                return new NotExpr(coalesce(translate(operands.get(0)), false));
            case IS_FALSE:
                return coalesce(new NotExpr(translate(operands.get(0))), false);
            case IS_NOT_FALSE:
                return coalesce(translate(operands.get(0)), true);
            case MINUS_PREFIX:
                return new NegateExpr(castTo(translate(operands.get(0)), type));
            case PLUS_PREFIX:
                return translate(operands.get(0));
            case CASE:
                return caseExpr(call, type);
            case CAST:
                return positioned(castTo(translate(operands.get(0)), type), call);
            case SAFE_CAST:
                return new TryCastExpr(translate(operands.get(0)), type);
            case SEARCH:
                return translate(RexUtil.expandSearch(rexBuilder, null, call));
            default:
                if (call.getOperator() instanceof RegistrySqlFunction function) {
                    List<PhysicalExpr> arguments = translate(operands);
                    if (DIVISIONS.contains(function.function().name())) {
                        arguments.set(1, divisor(arguments.get(1)));
                    }
                    return function.function().call(arguments, type);
                }
                return StandardCalls.translate(this, call, type);
        }
    }

    private PhysicalExpr arithmetic(BinaryOperator op, RexCall call, ArrowType type) {
        PhysicalExpr left = translate(call.getOperands().get(0));
        PhysicalExpr right = translate(call.getOperands().get(1));
        // Decimal operands of mixed scales (and INTEGER mixed with DECIMAL) are handled by the
        // evaluation itself; other mixes are brought to the result type first.
        if (!(type instanceof ArrowType.Decimal)) {
            // x % y has y's type (it always fits), but x may be wider: both take the common type
            ArrowType operandType = op == BinaryOperator.MODULO ? TypeMapping.commonType(left.type(), right.type()) : type;
            left = castTo(left, operandType);
            right = castTo(right, operandType);
        }
        if (op == BinaryOperator.DIVIDE || op == BinaryOperator.MODULO) {
            right = divisor(right);
        }
        return new BinaryExpr(op, left, right, type);
    }

    /** A divisor as {@code division_by_zero} wants it: itself, or NULL where it is zero. */
    private PhysicalExpr divisor(PhysicalExpr divisor) {
        if (divisionByZero == DivisionByZero.ERROR || divisor instanceof LiteralExpr literal && !isZero(literal.value())) {
            return divisor;
        }
        PhysicalExpr zero = castTo(new LiteralExpr(0, QuiverTypes.INT32), divisor.type());
        return NULLIF.call(List.of(divisor, zero), divisor.type());
    }

    private static boolean isZero(Object value) {
        return value instanceof BigDecimal decimal ? decimal.signum() == 0 : value instanceof Number number && number.doubleValue() == 0;
    }

    private PhysicalExpr comparison(BinaryOperator op, RexCall call) {
        PhysicalExpr left = translate(call.getOperands().get(0));
        PhysicalExpr right = translate(call.getOperands().get(1));
        ArrowType l = left.type();
        ArrowType r = right.type();
        if (!l.equals(r) && !(l instanceof ArrowType.Decimal && QuiverTypes.isNumeric(r) && !(r instanceof ArrowType.FloatingPoint))
                && !(r instanceof ArrowType.Decimal && QuiverTypes.isNumeric(l) && !(l instanceof ArrowType.FloatingPoint))) {
            ArrowType common = TypeMapping.commonType(l, r);
            left = castTo(left, common);
            right = castTo(right, common);
        }
        return new BinaryExpr(op, left, right, QuiverTypes.BOOLEAN);
    }

    private PhysicalExpr andOr(BinaryOperator op, RexCall call) {
        Optional<PhysicalExpr> inList = op == BinaryOperator.OR ? inList(call, SqlKind.EQUALS, false) : inList(call, SqlKind.NOT_EQUALS, true);
        if (inList.isPresent()) {
            return inList.get();
        }
        PhysicalExpr result = translate(call.getOperands().get(0));
        for (int i = 1; i < call.getOperands().size(); i++) {
            result = new BinaryExpr(op, result, translate(call.getOperands().get(i)), QuiverTypes.BOOLEAN);
        }
        return result;
    }

    /**
     * {@code x = a OR x = b ...} as {@code x IN (a, b)}, and {@code x <> a AND x <> b} as
     * {@code x NOT IN (a, b)} (the same three-valued result), which is how Calcite expands IN lists.
     */
    private Optional<PhysicalExpr> inList(RexCall call, SqlKind kind, boolean negated) {
        RexNode target = null;
        List<RexLiteral> literals = new ArrayList<>();
        for (RexNode operand : call.getOperands()) {
            if (operand.getKind() != kind) {
                return Optional.empty();
            }
            List<RexNode> sides = ((RexCall) operand).getOperands();
            RexNode value = sides.get(0);
            RexNode constant = sides.get(1);
            if (value instanceof RexLiteral) {
                value = sides.get(1);
                constant = sides.get(0);
            }
            if (!(constant instanceof RexLiteral literal) || value instanceof RexLiteral || literal.isNull()) {
                return Optional.empty();
            }
            if (target == null) {
                target = value;
            } else if (!target.equals(value)) {
                return Optional.empty();
            }
            literals.add(literal);
        }
        PhysicalExpr input = translate(target);
        ArrowType type = input.type();
        List<Object> values = new ArrayList<>();
        for (RexLiteral literal : literals) {
            ArrowType literalType = TypeMapping.toArrow(literal.getType());
            if (!literalType.equals(type) && !(type instanceof ArrowType.Decimal && literalType instanceof ArrowType.Decimal)
                    && !(type instanceof ArrowType.Decimal && literalType instanceof ArrowType.Int)) {
                return Optional.empty();
            }
            values.add(Literals.value(literal, type));
        }
        return Optional.of(new InListExpr(input, values, negated));
    }

    private PhysicalExpr caseExpr(RexCall call, ArrowType type) {
        List<RexNode> operands = call.getOperands();
        List<CaseExpr.WhenThen> branches = new ArrayList<>();
        for (int i = 0; i + 1 < operands.size(); i += 2) {
            branches.add(new CaseExpr.WhenThen(translate(operands.get(i)), castTo(translate(operands.get(i + 1)), type)));
        }
        Optional<PhysicalExpr> elseValue = operands.size() % 2 == 1
                ? Optional.of(castTo(translate(operands.get(operands.size() - 1)), type))
                : Optional.empty();
        return new CaseExpr(branches, elseValue, type);
    }

    /**
     * A cast the SQL text spells ({@code CAST(x AS t)}, {@code x::t}) with its place there, so that
     * a value it rejects names it; a coercion Calcite added has no place (line 0).
     */
    private static PhysicalExpr positioned(PhysicalExpr cast, RexCall call) {
        SqlParserPos pos = call.getParserPosition();
        if (cast instanceof CastExpr plain && pos.getLineNum() > 0) {
            return new CastExpr(plain.input(), plain.type(), Optional.of(new QuiverException.SqlPosition(pos.getLineNum(), pos.getColumnNum())));
        }
        return cast;
    }

    private static PhysicalExpr coalesce(PhysicalExpr condition, boolean whenNull) {
        return ConditionalFunctions.COALESCE.call(List.of(condition, new LiteralExpr(whenNull, QuiverTypes.BOOLEAN)), QuiverTypes.BOOLEAN);
    }

    /**
     * {@code expr} as {@code type}, as {@link CastExpr#to}, except that a literal is converted now,
     * by the cast kernel itself, so kernels see a constant; a literal the cast rejects stays a
     * cast, which fails when the query runs.
     */
    static PhysicalExpr castTo(PhysicalExpr expr, ArrowType type) {
        if (!expr.type().equals(type) && expr instanceof LiteralExpr literal && literal.value() != null) {
            try {
                return new LiteralExpr(CastKernels.castConstant(literal.value(), literal.type(), type, "CAST"), type);
            } catch (QuiverException e) {
                return new CastExpr(expr, type);
            }
        }
        return CastExpr.to(expr, type);
    }
}
