package dev.quiver.distributed.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quiver.distributed.codec.spi.DecodeContext;
import dev.quiver.distributed.codec.spi.ExprCodec;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.BinaryExpr;
import dev.quiver.engine.expr.BinaryOperator;
import dev.quiver.engine.expr.CaseExpr;
import dev.quiver.engine.error.QuiverException.SqlPosition;
import dev.quiver.engine.expr.CastExpr;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.InListExpr;
import dev.quiver.engine.expr.IsNullExpr;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.NegateExpr;
import dev.quiver.engine.expr.NotExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.expr.ScalarFunctionExpr;
import dev.quiver.engine.expr.TryCastExpr;
import dev.quiver.engine.expr.function.FunctionRegistry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Codecs of the engine's {@link PhysicalExpr} records. */
final class BuiltinExprCodecs {
    private BuiltinExprCodecs() {}

    static List<ExprCodec<?>> all() {
        List<ExprCodec<?>> all = new ArrayList<>(simple());
        all.addAll(composite());
        return all;
    }

    private static List<ExprCodec<?>> simple() {
        return List.of(
                ExprCodec.of("column", ColumnExpr.class,
                        (e, out, c) -> {
                            out.put("index", e.index()).put("name", e.name()).put("nullable", e.nullable());
                            out.set("dataType", c.type(e.type()));
                        },
                        (in, c) -> new ColumnExpr(c.requiredInt(in, "index"), c.requiredText(in, "name"),
                                c.type(c.required(in, "dataType")), c.requiredBoolean(in, "nullable"))),
                ExprCodec.of("literal", LiteralExpr.class,
                        (e, out, c) -> {
                            out.set("value", c.value(e.value()));
                            out.set("dataType", c.type(e.type()));
                        },
                        (in, c) -> new LiteralExpr(c.value(c.required(in, "value")), c.type(c.required(in, "dataType")))),
                ExprCodec.of("binary", BinaryExpr.class,
                        (e, out, c) -> {
                            out.put("op", e.op().name());
                            out.set("left", c.expr(e.left()));
                            out.set("right", c.expr(e.right()));
                            out.set("dataType", c.type(e.type()));
                        },
                        (in, c) -> new BinaryExpr(enumValue(BinaryOperator.class, c.requiredText(in, "op")),
                                c.expr(c.required(in, "left")), c.expr(c.required(in, "right")), c.type(c.required(in, "dataType")))),
                ExprCodec.of("not", NotExpr.class,
                        (e, out, c) -> out.set("input", c.expr(e.input())),
                        (in, c) -> new NotExpr(c.expr(c.required(in, "input")))),
                ExprCodec.of("negate", NegateExpr.class,
                        (e, out, c) -> out.set("input", c.expr(e.input())),
                        (in, c) -> new NegateExpr(c.expr(c.required(in, "input")))),
                ExprCodec.of("is_null", IsNullExpr.class,
                        (e, out, c) -> {
                            out.set("input", c.expr(e.input()));
                            out.put("negated", e.negated());
                        },
                        (in, c) -> new IsNullExpr(c.expr(c.required(in, "input")), c.requiredBoolean(in, "negated"))));
    }

    private static List<ExprCodec<?>> composite() {
        return List.of(
                ExprCodec.of("case", CaseExpr.class,
                        (e, out, c) -> {
                            ArrayNode branches = out.putArray("branches");
                            for (CaseExpr.WhenThen branch : e.branches()) {
                                ObjectNode whenThen = branches.addObject();
                                whenThen.set("when", c.expr(branch.condition()));
                                whenThen.set("then", c.expr(branch.value()));
                            }
                            e.elseValue().ifPresent(value -> out.set("else", c.expr(value)));
                            out.set("dataType", c.type(e.type()));
                        },
                        BuiltinExprCodecs::decodeCase),
                ExprCodec.of("cast", CastExpr.class,
                        (e, out, c) -> {
                            out.set("input", c.expr(e.input()));
                            out.set("dataType", c.type(e.type()));
                            e.position().ifPresent(position -> out.put("line", position.line()).put("column", position.column()));
                        },
                        (in, c) -> new CastExpr(c.expr(c.required(in, "input")), c.type(c.required(in, "dataType")),
                                in.has("line") ? Optional.of(new SqlPosition(in.get("line").asInt(), in.get("column").asInt())) : Optional.empty())),
                ExprCodec.of("try_cast", TryCastExpr.class,
                        (e, out, c) -> {
                            out.set("input", c.expr(e.input()));
                            out.set("dataType", c.type(e.type()));
                        },
                        (in, c) -> new TryCastExpr(c.expr(c.required(in, "input")), c.type(c.required(in, "dataType")))),
                ExprCodec.of("in_list", InListExpr.class,
                        (e, out, c) -> {
                            out.set("input", c.expr(e.input()));
                            out.set("values", c.values(e.values()));
                            out.put("negated", e.negated());
                        },
                        (in, c) -> new InListExpr(c.expr(c.required(in, "input")), c.values(c.required(in, "values")),
                                c.requiredBoolean(in, "negated"))),
                ExprCodec.of("function", ScalarFunctionExpr.class,
                        (e, out, c) -> {
                            out.put("function", e.function().name());
                            out.set("args", c.exprs(e.args()));
                            out.set("dataType", c.type(e.type()));
                        },
                        (in, c) -> new ScalarFunctionExpr(FunctionRegistry.builtins().lookup(c.requiredText(in, "function"))
                                        .orElseThrow(() -> new QuiverException(ErrorCode.PLAN_ERROR,
                                                "unknown function '" + c.requiredText(in, "function") + "' (this build has no such function)")),
                                c.exprs(c.required(in, "args")), c.type(c.required(in, "dataType")))));
    }

    private static CaseExpr decodeCase(JsonNode in, DecodeContext c) {
        List<CaseExpr.WhenThen> branches = new ArrayList<>();
        for (JsonNode branch : c.required(in, "branches")) {
            branches.add(new CaseExpr.WhenThen(c.expr(c.required(branch, "when")), c.expr(c.required(branch, "then"))));
        }
        Optional<PhysicalExpr> elseValue = in.has("else") ? Optional.of(c.expr(in.get("else"))) : Optional.empty();
        return new CaseExpr(branches, elseValue, c.type(c.required(in, "dataType")));
    }

    /** The constant {@code name} of {@code type}; a PLAN_ERROR naming the valid ones otherwise. */
    static <E extends Enum<E>> E enumValue(Class<E> type, String name) {
        try {
            return Enum.valueOf(type, name);
        } catch (IllegalArgumentException e) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "unknown " + type.getSimpleName() + " '" + name + "'; known: "
                    + Arrays.toString(type.getEnumConstants()));
        }
    }
}
