package dev.quiver.distributed.codec.spi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.expr.PhysicalExpr;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;

/** What a codec may use to encode the parts of a node: expressions, types, schemas and values. */
public interface EncodeContext {
    ObjectNode objectNode();

    ArrayNode arrayNode();

    JsonNode expr(PhysicalExpr expr);

    ArrayNode exprs(List<? extends PhysicalExpr> exprs);

    JsonNode type(ArrowType type);

    JsonNode schema(Schema schema);

    /**
     * A constant as a typed tree: Boolean, Integer, Long, Double, BigDecimal (scale kept),
     * String and null keep their Java class through a round trip.
     */
    JsonNode value(Object value);

    ArrayNode values(List<?> values);

    JsonNode partitioning(Partitioning partitioning);
}
