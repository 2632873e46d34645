package dev.quiver.distributed.codec.spi;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quiver.engine.expr.PhysicalExpr;

/**
 * Serializes one kind of {@link PhysicalExpr} to a Jackson tree and back. Unlike plan nodes, an
 * expression codec encodes its children itself, through {@link EncodeContext#expr}.
 *
 * @param <T> the expression class this codec handles (exactly)
 */
public interface ExprCodec<T extends PhysicalExpr> {
    /** The name written into the serialized expression, unique among the registered expression codecs. */
    String typeName();

    Class<T> exprClass();

    void encode(T expr, ObjectNode out, EncodeContext context);

    T decode(JsonNode in, DecodeContext context);

    /** A codec from two functions, for the common case. */
    static <T extends PhysicalExpr> ExprCodec<T> of(String typeName, Class<T> exprClass, Encoder<T> encoder, Decoder<T> decoder) {
        requireNonNull(typeName, "typeName is null");
        requireNonNull(exprClass, "exprClass is null");
        requireNonNull(encoder, "encoder is null");
        requireNonNull(decoder, "decoder is null");
        return new ExprCodec<>() {
            @Override
            public String typeName() {
                return typeName;
            }

            @Override
            public Class<T> exprClass() {
                return exprClass;
            }

            @Override
            public void encode(T expr, ObjectNode out, EncodeContext context) {
                encoder.encode(expr, out, context);
            }

            @Override
            public T decode(JsonNode in, DecodeContext context) {
                return decoder.decode(in, context);
            }

            @Override
            public String toString() {
                return "ExprCodec(" + typeName + ", " + exprClass.getName() + ")";
            }
        };
    }

    /** The encoding half of {@link #of}. */
    @FunctionalInterface
    interface Encoder<T extends PhysicalExpr> {
        void encode(T expr, ObjectNode out, EncodeContext context);
    }

    /** The decoding half of {@link #of}. */
    @FunctionalInterface
    interface Decoder<T extends PhysicalExpr> {
        T decode(JsonNode in, DecodeContext context);
    }
}
