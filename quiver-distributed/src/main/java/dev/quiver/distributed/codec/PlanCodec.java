package dev.quiver.distributed.codec;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quiver.distributed.codec.spi.ExprCodec;
import dev.quiver.distributed.codec.spi.PlanNodeCodec;
import dev.quiver.distributed.protocol.PlanTreeCodec;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.expr.PhysicalExpr;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * Serializes {@link ExecutionPlan} trees to bytes (JSON, optionally gzip-compressed) and back, so
 * that the coordinator can send a stage's plan to workers. Every built-in operator, scan of a
 * built-in source and {@link PhysicalExpr} has a codec; custom nodes and expressions get theirs
 * through {@link Builder#nodeCodec} and {@link Builder#exprCodec}. A node without a codec fails
 * with {@link ErrorCode#NOT_SUPPORTED} naming its class. Metrics are not serialized: a decoded
 * plan starts with empty metrics.
 *
 * <p>A {@code PlanCodec} is immutable and thread-safe.
 *
 * <p>Wire format: {@code {"format": "quiver-plan", "version": 1, "plan": NODE}} where a node is an
 * object with {@code "@type"} (the codec's type name), the codec's fields and {@code "@children"};
 * an expression is an object with {@code "@type"} and its fields.
 */
public final class PlanCodec implements PlanTreeCodec {
    /** The format version written into every plan; a plan of another version is refused. */
    public static final int FORMAT_VERSION = 1;
    private static final String FORMAT = "quiver-plan";

    private final CodecRegistry registry;
    private final Map<Class<?>, Object> services;
    private final boolean compress;
    private final ObjectMapper mapper = new ObjectMapper();

    private PlanCodec(Builder builder) {
        this.registry = new CodecRegistry();
        BuiltinExprCodecs.all().forEach(registry::addExpr);
        OperatorCodecs.all().forEach(registry::addNode);
        SourceCodecs.all().forEach(registry::addNode);
        FileScanCodecs.all().forEach(registry::addNode);
        DistributedCodecs.all().forEach(registry::addNode);
        builder.exprCodecs.forEach(registry::addExpr);
        builder.nodeCodecs.forEach(registry::addNode);
        this.services = Map.copyOf(builder.services);
        this.compress = builder.compress;
    }

    /** A codec with the built-in codecs only, writing uncompressed JSON. */
    public static PlanCodec create() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The plan as bytes; compressed when the builder asked for it. */
    public byte[] encode(ExecutionPlan plan) {
        ObjectNode tree = toTree(plan);
        try {
            if (!compress) {
                return mapper.writeValueAsBytes(tree);
            }
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (OutputStream out = new GZIPOutputStream(bytes)) {
                mapper.writeValue(out, tree);
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.INTERNAL_ERROR, "cannot write plan " + plan.name() + " as JSON: " + e.getMessage(), e);
        }
    }

    /** The plan of {@link #encode}'s bytes, compressed or not (told apart by the gzip magic). */
    public ExecutionPlan decode(byte[] bytes) {
        requireNonNull(bytes, "bytes is null");
        JsonNode tree;
        try {
            boolean gzip = bytes.length >= 2 && (bytes[0] & 0xff) == 0x1f && (bytes[1] & 0xff) == 0x8b;
            try (InputStream in = gzip ? new GZIPInputStream(new ByteArrayInputStream(bytes)) : new ByteArrayInputStream(bytes)) {
                tree = mapper.readTree(in);
            }
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "serialized plan is not valid JSON: " + e.getMessage(), e);
        }
        return fromTree(tree);
    }

    /** The plan as a Jackson tree, for embedding in a larger message. */
    @Override
    public ObjectNode toTree(ExecutionPlan plan) {
        ObjectNode tree = mapper.createObjectNode();
        tree.put("format", FORMAT).put("version", FORMAT_VERSION);
        tree.set("plan", new TreeEncoder(registry, mapper).node(plan));
        return tree;
    }

    /** The plan of a tree written by {@link #toTree}. */
    @Override
    public ExecutionPlan fromTree(JsonNode tree) {
        TreeDecoder decoder = new TreeDecoder(registry, mapper, services);
        if (tree == null || !FORMAT.equals(tree.path("format").asText())) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "not a serialized Quiver plan (no \"format\": \"" + FORMAT + "\")");
        }
        int version = decoder.requiredInt(tree, "version");
        if (version != FORMAT_VERSION) {
            throw new QuiverException(ErrorCode.PLAN_ERROR,
                    "serialized plan has format version " + version + "; this Quiver reads version " + FORMAT_VERSION);
        }
        return decoder.node(decoder.required(tree, "plan"));
    }

    /** One expression as a Jackson tree. */
    @Override
    public JsonNode exprToTree(PhysicalExpr expr) {
        return new TreeEncoder(registry, mapper).expr(expr);
    }

    @Override
    public PhysicalExpr exprFromTree(JsonNode tree) {
        return new TreeDecoder(registry, mapper, services).expr(tree);
    }

    /** Registers custom codecs and decoding services; {@link #build()} fails on a duplicate name or class. */
    public static final class Builder {
        private final List<PlanNodeCodec<?>> nodeCodecs = new ArrayList<>();
        private final List<ExprCodec<?>> exprCodecs = new ArrayList<>();
        private final Map<Class<?>, Object> services = new LinkedHashMap<>();
        private final CodecRegistry check = new CodecRegistry();
        private boolean compress;

        private Builder() {
            BuiltinExprCodecs.all().forEach(check::addExpr);
            OperatorCodecs.all().forEach(check::addNode);
            SourceCodecs.all().forEach(check::addNode);
            FileScanCodecs.all().forEach(check::addNode);
            DistributedCodecs.all().forEach(check::addNode);
        }

        /** Adds a codec for a custom plan node; its type name and class must not be registered yet. */
        public Builder nodeCodec(PlanNodeCodec<?> codec) {
            check.addNode(codec);
            nodeCodecs.add(codec);
            return this;
        }

        /** Adds a codec for a custom expression; its type name and class must not be registered yet. */
        public Builder exprCodec(ExprCodec<?> codec) {
            check.addExpr(codec);
            exprCodecs.add(codec);
            return this;
        }

        /** Something codecs can ask the decoding side for ({@link dev.quiver.distributed.codec.spi.DecodeContext#service}). */
        public <S> Builder service(Class<S> type, S service) {
            requireNonNull(type, "type is null");
            requireNonNull(service, "service is null");
            if (services.putIfAbsent(type, service) != null) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "a decoding service for " + type.getName() + " is already registered");
            }
            return this;
        }

        /** The TPC-H catalogs decoded scans use (default: a new uncached catalog per scan). */
        public Builder tpchCatalogs(TpchCatalogProvider provider) {
            return service(TpchCatalogProvider.class, provider);
        }

        /** Whether {@link PlanCodec#encode} gzips the JSON (decoding accepts both). */
        public Builder compress(boolean compress) {
            this.compress = compress;
            return this;
        }

        public PlanCodec build() {
            return new PlanCodec(this);
        }
    }
}
