package dev.quiver.distributed.codec;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quiver.distributed.codec.spi.EncodeContext;
import dev.quiver.distributed.codec.spi.ExprCodec;
import dev.quiver.distributed.codec.spi.PlanNodeCodec;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.expr.PhysicalExpr;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;

/** Plan and expression trees to Jackson trees, through the registered codecs. */
final class TreeEncoder implements EncodeContext {
    static final String TYPE = "@type";
    static final String CHILDREN = "@children";

    private final CodecRegistry registry;
    private final ObjectMapper mapper;
    private final JsonNodeFactory nodes;

    TreeEncoder(CodecRegistry registry, ObjectMapper mapper) {
        this.registry = requireNonNull(registry, "registry is null");
        this.mapper = requireNonNull(mapper, "mapper is null");
        this.nodes = mapper.getNodeFactory();
    }

    ObjectNode node(ExecutionPlan plan) {
        requireNonNull(plan, "plan is null");
        PlanNodeCodec<?> codec = registry.nodeByClass(plan.getClass())
                .orElseThrow(() -> new QuiverException(ErrorCode.NOT_SUPPORTED, "no codec for " + plan.getClass().getName()
                        + " (plan node " + plan.name() + "); register a PlanNodeCodec for it with QuerySession.Builder.planNodeCodec"
                        + " or a QuiverPlugin (coordinator and workers), or PlanCodec.Builder.nodeCodec"));
        ObjectNode out = nodes.objectNode();
        out.put(TYPE, codec.typeName());
        encodeWith(codec, plan, out);
        out.remove(CHILDREN);
        if (!plan.children().isEmpty()) {
            ArrayNode children = out.putArray(CHILDREN);
            for (ExecutionPlan child : plan.children()) {
                children.add(node(child));
            }
        }
        return out;
    }

    private <T extends ExecutionPlan> void encodeWith(PlanNodeCodec<T> codec, ExecutionPlan plan, ObjectNode out) {
        codec.encode(codec.nodeClass().cast(plan), out, this);
        out.put(TYPE, codec.typeName());
    }

    @Override
    public JsonNode expr(PhysicalExpr expr) {
        requireNonNull(expr, "expr is null");
        ExprCodec<?> codec = registry.exprByClass(expr.getClass())
                .orElseThrow(() -> new QuiverException(ErrorCode.NOT_SUPPORTED, "no codec for " + expr.getClass().getName()
                        + " (expression " + expr.display() + "); register an ExprCodec for it with QuerySession.Builder.exprCodec"
                        + " or a QuiverPlugin (coordinator and workers), or PlanCodec.Builder.exprCodec"));
        ObjectNode out = nodes.objectNode();
        out.put(TYPE, codec.typeName());
        encodeExprWith(codec, expr, out);
        return out;
    }

    private <T extends PhysicalExpr> void encodeExprWith(ExprCodec<T> codec, PhysicalExpr expr, ObjectNode out) {
        codec.encode(codec.exprClass().cast(expr), out, this);
        out.put(TYPE, codec.typeName());
    }

    @Override
    public ObjectNode objectNode() {
        return nodes.objectNode();
    }

    @Override
    public ArrayNode arrayNode() {
        return nodes.arrayNode();
    }

    @Override
    public ArrayNode exprs(List<? extends PhysicalExpr> exprs) {
        ArrayNode array = nodes.arrayNode();
        for (PhysicalExpr expr : exprs) {
            array.add(expr(expr));
        }
        return array;
    }

    @Override
    public JsonNode type(ArrowType type) {
        return mapper.valueToTree(requireNonNull(type, "type is null"));
    }

    @Override
    public JsonNode schema(Schema schema) {
        return mapper.valueToTree(requireNonNull(schema, "schema is null"));
    }

    @Override
    public JsonNode value(Object value) {
        return ValueCodec.encode(value, nodes);
    }

    @Override
    public ArrayNode values(List<?> values) {
        ArrayNode array = nodes.arrayNode();
        for (Object value : values) {
            array.add(value(value));
        }
        return array;
    }

    @Override
    public JsonNode partitioning(Partitioning partitioning) {
        ObjectNode out = nodes.objectNode();
        requireNonNull(partitioning, "partitioning is null");
        if (partitioning instanceof Partitioning.Single) {
            out.put("kind", "single");
        } else if (partitioning instanceof Partitioning.Unknown unknown) {
            out.put("kind", "unknown").put("count", unknown.partitionCount());
        } else if (partitioning instanceof Partitioning.RoundRobin roundRobin) {
            out.put("kind", "round_robin").put("count", roundRobin.partitionCount());
        } else if (partitioning instanceof Partitioning.Hash hash) {
            out.put("kind", "hash").put("count", hash.partitionCount());
            out.set("keys", exprs(hash.keys()));
        } else {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "no codec for partitioning " + partitioning);
        }
        return out;
    }
}
