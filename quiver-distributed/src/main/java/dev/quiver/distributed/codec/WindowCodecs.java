package dev.quiver.distributed.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quiver.distributed.codec.spi.DecodeContext;
import dev.quiver.distributed.codec.spi.EncodeContext;
import dev.quiver.distributed.codec.spi.PlanNodeCodec;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.operator.window.FrameBound;
import dev.quiver.engine.operator.window.FrameOffset;
import dev.quiver.engine.operator.window.WindowExec;
import dev.quiver.engine.operator.window.WindowExpr;
import dev.quiver.engine.operator.window.WindowFrame;
import dev.quiver.engine.operator.window.WindowFunction;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The codec of {@link WindowExec}: its keys, and each window expression as its function (a
 * {@code "kind"} and the function's fields; aggregates as the aggregate codec writes them) and its
 * frame ({@code units}, {@code start}, {@code end}, {@code exclusion}; a bound with an offset
 * carries a row/group {@code count}, a {@code number}, or an interval's {@code months} and
 * {@code micros}).
 */
final class WindowCodecs {
    private WindowCodecs() {}

    static List<PlanNodeCodec<?>> all() {
        return List.of(PlanNodeCodec.of("WindowExec", WindowExec.class,
                (n, out, c) -> {
                    out.set("partitionKeys", c.exprs(n.partitionKeys()));
                    out.set("orderKeys", OperatorCodecs.sortKeys(n.orderKeys(), c));
                    ArrayNode exprs = out.putArray("windowExprs");
                    for (WindowExpr expr : n.windowExprs()) {
                        ObjectNode json = exprs.addObject();
                        json.put("name", expr.name());
                        json.set("function", function(expr.function(), c));
                        json.set("frame", frame(expr.frame(), c));
                    }
                },
                (in, children, c) -> {
                    List<WindowExpr> exprs = new ArrayList<>();
                    for (JsonNode json : c.required(in, "windowExprs")) {
                        exprs.add(new WindowExpr(function(c.required(json, "function"), c), frame(c.required(json, "frame"), c),
                                c.requiredText(json, "name")));
                    }
                    return new WindowExec(OperatorCodecs.only(children, "WindowExec"), c.exprs(c.required(in, "partitionKeys")),
                            OperatorCodecs.sortKeys(c.required(in, "orderKeys"), c), exprs);
                }));
    }

    private static ObjectNode function(WindowFunction function, EncodeContext c) {
        ObjectNode out = c.objectNode();
        if (function instanceof WindowFunction.RowNumber) {
            out.put("kind", "row_number");
        } else if (function instanceof WindowFunction.Rank rank) {
            out.put("kind", "rank").put("rank", rank.kind().name());
        } else if (function instanceof WindowFunction.Ntile ntile) {
            out.put("kind", "ntile").set("buckets", c.expr(ntile.buckets()));
        } else if (function instanceof WindowFunction.LagLead lagLead) {
            out.put("kind", lagLead.lead() ? "lead" : "lag").put("ignoreNulls", lagLead.ignoreNulls());
            out.set("value", c.expr(lagLead.value()));
            out.set("offset", c.expr(lagLead.offset()));
            out.set("default", c.expr(lagLead.defaultValue()));
        } else if (function instanceof WindowFunction.FrameValue value) {
            out.put("kind", "frame_value").put("position", value.position().name()).put("ignoreNulls", value.ignoreNulls());
            out.set("value", c.expr(value.value()));
            out.set("n", c.expr(value.n()));
        } else {
            out.put("kind", "aggregate");
            out.set("aggregate", OperatorCodecs.aggregate(((WindowFunction.Aggregate) function).aggregate(), c));
        }
        return out;
    }

    private static WindowFunction function(JsonNode in, DecodeContext c) {
        String kind = c.requiredText(in, "kind");
        return switch (kind) {
            case "row_number" -> new WindowFunction.RowNumber();
            case "rank" -> new WindowFunction.Rank(BuiltinExprCodecs.enumValue(WindowFunction.Rank.Kind.class, c.requiredText(in, "rank")));
            case "ntile" -> new WindowFunction.Ntile(c.expr(c.required(in, "buckets")));
            case "lag", "lead" -> new WindowFunction.LagLead(kind.equals("lead"), c.expr(c.required(in, "value")),
                    c.expr(c.required(in, "offset")), c.expr(c.required(in, "default")), c.requiredBoolean(in, "ignoreNulls"));
            case "frame_value" -> new WindowFunction.FrameValue(
                    BuiltinExprCodecs.enumValue(WindowFunction.FrameValue.Position.class, c.requiredText(in, "position")),
                    c.expr(c.required(in, "value")), c.expr(c.required(in, "n")), c.requiredBoolean(in, "ignoreNulls"));
            case "aggregate" -> new WindowFunction.Aggregate(OperatorCodecs.aggregate(c.required(in, "aggregate"), c));
            default -> throw new QuiverException(ErrorCode.PLAN_ERROR, "unknown window function kind in the serialized plan: " + kind);
        };
    }

    private static ObjectNode frame(WindowFrame frame, EncodeContext c) {
        ObjectNode out = c.objectNode();
        out.put("units", frame.units().name()).put("exclusion", frame.exclusion().name());
        out.set("start", bound(frame.start(), c));
        out.set("end", bound(frame.end(), c));
        return out;
    }

    private static WindowFrame frame(JsonNode in, DecodeContext c) {
        return new WindowFrame(BuiltinExprCodecs.enumValue(WindowFrame.Units.class, c.requiredText(in, "units")),
                bound(c.required(in, "start"), c), bound(c.required(in, "end"), c),
                BuiltinExprCodecs.enumValue(WindowFrame.Exclusion.class, c.requiredText(in, "exclusion")));
    }

    private static ObjectNode bound(FrameBound bound, EncodeContext c) {
        ObjectNode out = c.objectNode();
        out.put("kind", bound.kind().name());
        bound.offset().ifPresent(offset -> {
            if (offset instanceof FrameOffset.Count count) {
                out.put("count", count.value());
            } else if (offset instanceof FrameOffset.Number number) {
                out.put("number", number.value().toPlainString());
            } else {
                FrameOffset.Interval interval = (FrameOffset.Interval) offset;
                out.put("months", interval.months()).put("micros", interval.micros());
            }
        });
        return out;
    }

    private static FrameBound bound(JsonNode in, DecodeContext c) {
        FrameBound.Kind kind = BuiltinExprCodecs.enumValue(FrameBound.Kind.class, c.requiredText(in, "kind"));
        Optional<FrameOffset> offset;
        if (in.has("count")) {
            offset = Optional.of(new FrameOffset.Count(c.requiredLong(in, "count")));
        } else if (in.has("number")) {
            offset = Optional.of(new FrameOffset.Number(new BigDecimal(c.requiredText(in, "number"))));
        } else if (in.has("months")) {
            offset = Optional.of(new FrameOffset.Interval(c.requiredInt(in, "months"), c.requiredLong(in, "micros")));
        } else {
            offset = Optional.empty();
        }
        return new FrameBound(kind, offset);
    }
}
