package dev.quiver.distributed.codec;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quiver.distributed.codec.spi.DecodeContext;
import dev.quiver.distributed.codec.spi.ExprCodec;
import dev.quiver.distributed.codec.spi.PlanNodeCodec;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.expr.PhysicalExpr;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;

/** Jackson trees back to plans and expressions, through the registered codecs. */
final class TreeDecoder implements DecodeContext {
    private final CodecRegistry registry;
    private final ObjectMapper mapper;
    private final Map<Class<?>, Object> services;

    TreeDecoder(CodecRegistry registry, ObjectMapper mapper, Map<Class<?>, Object> services) {
        this.registry = requireNonNull(registry, "registry is null");
        this.mapper = requireNonNull(mapper, "mapper is null");
        this.services = Map.copyOf(requireNonNull(services, "services is null"));
    }

    ExecutionPlan node(JsonNode json) {
        String typeName = requiredText(json, TreeEncoder.TYPE);
        PlanNodeCodec<?> codec = registry.nodeByName(typeName)
                .orElseThrow(() -> new QuiverException(ErrorCode.NOT_SUPPORTED,
                        "no codec for plan node type '" + typeName + "'; register a PlanNodeCodec for it with QuerySession.Builder.planNodeCodec"
                        + " or a QuiverPlugin (coordinator and workers), or PlanCodec.Builder.nodeCodec"));
        List<ExecutionPlan> children = new ArrayList<>();
        JsonNode childNodes = json.get(TreeEncoder.CHILDREN);
        if (childNodes != null) {
            for (JsonNode child : childNodes) {
                children.add(node(child));
            }
        }
        try {
            return codec.decode(json, List.copyOf(children), this);
        } catch (QuiverException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "cannot decode plan node " + typeName + ": " + e.getMessage(), e);
        }
    }

    @Override
    public PhysicalExpr expr(JsonNode json) {
        String typeName = requiredText(json, TreeEncoder.TYPE);
        ExprCodec<?> codec = registry.exprByName(typeName)
                .orElseThrow(() -> new QuiverException(ErrorCode.NOT_SUPPORTED,
                        "no codec for expression type '" + typeName + "'; register an ExprCodec for it with QuerySession.Builder.exprCodec"
                        + " or a QuiverPlugin (coordinator and workers), or PlanCodec.Builder.exprCodec"));
        try {
            return codec.decode(json, this);
        } catch (QuiverException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "cannot decode expression " + typeName + ": " + e.getMessage(), e);
        }
    }

    @Override
    public List<PhysicalExpr> exprs(JsonNode json) {
        List<PhysicalExpr> exprs = new ArrayList<>();
        for (JsonNode element : array(json)) {
            exprs.add(expr(element));
        }
        return exprs;
    }

    @Override
    public ArrowType type(JsonNode json) {
        return convert(json, ArrowType.class);
    }

    @Override
    public Schema schema(JsonNode json) {
        return convert(json, Schema.class);
    }

    private <T> T convert(JsonNode json, Class<T> type) {
        try {
            return mapper.treeToValue(requireNonNull(json, "json is null"), type);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "bad serialized " + type.getSimpleName() + " " + json + ": " + e.getMessage(), e);
        }
    }

    @Override
    public Object value(JsonNode json) {
        return ValueCodec.decode(json);
    }

    @Override
    public List<Object> values(JsonNode json) {
        List<Object> values = new ArrayList<>();
        for (JsonNode element : array(json)) {
            values.add(value(element));
        }
        return values;
    }

    @Override
    public Partitioning partitioning(JsonNode json) {
        String kind = requiredText(json, "kind");
        return switch (kind) {
            case "single" -> Partitioning.single();
            case "unknown" -> new Partitioning.Unknown(requiredInt(json, "count"));
            case "round_robin" -> new Partitioning.RoundRobin(requiredInt(json, "count"));
            case "hash" -> new Partitioning.Hash(exprs(required(json, "keys")), requiredInt(json, "count"));
            default -> throw new QuiverException(ErrorCode.PLAN_ERROR, "unknown partitioning kind '" + kind + "'");
        };
    }

    @Override
    public JsonNode required(JsonNode json, String name) {
        JsonNode field = json == null ? null : json.get(name);
        if (field == null) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "serialized plan lacks field '" + name + "' in " + abbreviate(json));
        }
        return field;
    }

    @Override
    public String requiredText(JsonNode json, String name) {
        JsonNode field = required(json, name);
        if (!field.isTextual()) {
            throw wrongKind(name, "a string", field);
        }
        return field.textValue();
    }

    @Override
    public int requiredInt(JsonNode json, String name) {
        JsonNode field = required(json, name);
        if (!field.canConvertToInt() || !field.isIntegralNumber()) {
            throw wrongKind(name, "an int", field);
        }
        return field.intValue();
    }

    @Override
    public long requiredLong(JsonNode json, String name) {
        JsonNode field = required(json, name);
        if (!field.canConvertToLong() || !field.isIntegralNumber()) {
            throw wrongKind(name, "a long", field);
        }
        return field.longValue();
    }

    @Override
    public boolean requiredBoolean(JsonNode json, String name) {
        JsonNode field = required(json, name);
        if (!field.isBoolean()) {
            throw wrongKind(name, "a boolean", field);
        }
        return field.booleanValue();
    }

    @Override
    public <S> Optional<S> service(Class<S> type) {
        return Optional.ofNullable(services.get(type)).map(type::cast);
    }

    private static JsonNode array(JsonNode json) {
        if (json == null || !json.isArray()) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "expected an array in the serialized plan, got " + abbreviate(json));
        }
        return json;
    }

    private static QuiverException wrongKind(String name, String expected, JsonNode field) {
        return new QuiverException(ErrorCode.PLAN_ERROR, "field '" + name + "' of the serialized plan must be " + expected + ", got " + abbreviate(field));
    }

    private static String abbreviate(JsonNode json) {
        String text = String.valueOf(json);
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }
}
