package dev.quiver.distributed.codec.spi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.expr.PhysicalExpr;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The inverse of {@link EncodeContext}. The {@code required*} helpers fail with a
 * {@code PLAN_ERROR} naming the missing field instead of returning null.
 */
public interface DecodeContext {
    PhysicalExpr expr(JsonNode json);

    List<PhysicalExpr> exprs(JsonNode json);

    ArrowType type(JsonNode json);

    Schema schema(JsonNode json);

    Object value(JsonNode json);

    List<Object> values(JsonNode json);

    Partitioning partitioning(JsonNode json);

    /** The field {@code name} of {@code json}; fails if it is absent. */
    JsonNode required(JsonNode json, String name);

    String requiredText(JsonNode json, String name);

    int requiredInt(JsonNode json, String name);

    long requiredLong(JsonNode json, String name);

    boolean requiredBoolean(JsonNode json, String name);

    /**
     * A service the decoding side provides for nodes that need more than their data, such as the
     * TPC-H catalog a scan draws from; empty when none was given for {@code type}.
     */
    <S> Optional<S> service(Class<S> type);
}
