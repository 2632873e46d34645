package dev.quiver.distributed.codec.spi;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quiver.engine.execution.ExecutionPlan;
import java.util.List;

/**
 * Serializes one kind of plan node to a Jackson tree and back. The codec writes only the node's
 * own fields: the {@code PlanCodec} writes the type name and the children, and decodes the
 * children before calling {@link #decode}. Metrics are never serialized.
 *
 * <p>Register codecs for custom nodes on {@code PlanCodec.builder().nodeCodec(...)}; type names
 * must be unique among all codecs, built-in ones included.
 *
 * @param <T> the node class this codec handles (exactly: subclasses need their own codec)
 */
public interface PlanNodeCodec<T extends ExecutionPlan> {
    /** The name written into the serialized plan, unique among the registered node codecs. */
    String typeName();

    /** The node class this codec handles; the codec is chosen by the node's exact class. */
    Class<T> nodeClass();

    /** Writes the node's fields (not its children) into {@code out}. */
    void encode(T node, ObjectNode out, EncodeContext context);

    /** Builds the node from what {@link #encode} wrote and its already decoded children. */
    T decode(JsonNode in, List<ExecutionPlan> children, DecodeContext context);

    /** A codec from two functions, for the common case. */
    static <T extends ExecutionPlan> PlanNodeCodec<T> of(String typeName, Class<T> nodeClass, Encoder<T> encoder, Decoder<T> decoder) {
        requireNonNull(typeName, "typeName is null");
        requireNonNull(nodeClass, "nodeClass is null");
        requireNonNull(encoder, "encoder is null");
        requireNonNull(decoder, "decoder is null");
        return new PlanNodeCodec<>() {
            @Override
            public String typeName() {
                return typeName;
            }

            @Override
            public Class<T> nodeClass() {
                return nodeClass;
            }

            @Override
            public void encode(T node, ObjectNode out, EncodeContext context) {
                encoder.encode(node, out, context);
            }

            @Override
            public T decode(JsonNode in, List<ExecutionPlan> children, DecodeContext context) {
                return decoder.decode(in, children, context);
            }

            @Override
            public String toString() {
                return "PlanNodeCodec(" + typeName + ", " + nodeClass.getName() + ")";
            }
        };
    }

    /** The encoding half of {@link #of}. */
    @FunctionalInterface
    interface Encoder<T extends ExecutionPlan> {
        void encode(T node, ObjectNode out, EncodeContext context);
    }

    /** The decoding half of {@link #of}. */
    @FunctionalInterface
    interface Decoder<T extends ExecutionPlan> {
        T decode(JsonNode in, List<ExecutionPlan> children, DecodeContext context);
    }
}
