package dev.quiver.distributed.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quiver.distributed.codec.spi.DecodeContext;
import dev.quiver.distributed.codec.spi.EncodeContext;
import dev.quiver.engine.stats.ColumnStatistics;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.stats.Precision;
import dev.quiver.engine.stats.Statistics;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Statistics as JSON: estimates as {@code [precision, value]}, column bounds as typed values. */
final class StatisticsJson {
    private StatisticsJson() {}

    static ObjectNode statistics(Statistics statistics, EncodeContext c) {
        ObjectNode out = c.objectNode();
        out.set("rows", estimate(statistics.rowCount(), c));
        out.set("bytes", estimate(statistics.totalBytes(), c));
        out.set("columns", columns(statistics.columns(), c));
        return out;
    }

    static Statistics statistics(JsonNode in, DecodeContext c) {
        return new Statistics(estimate(c.required(in, "rows"), c), estimate(c.required(in, "bytes"), c), columns(c.required(in, "columns"), c));
    }

    static ArrayNode columns(List<ColumnStatistics> columns, EncodeContext c) {
        ArrayNode out = c.arrayNode();
        for (ColumnStatistics column : columns) {
            ObjectNode node = out.addObject();
            node.set("nulls", estimate(column.nullCount(), c));
            node.set("distinct", estimate(column.distinctCount(), c));
            column.min().ifPresent(min -> node.set("min", c.value(min)));
            column.max().ifPresent(max -> node.set("max", c.value(max)));
            node.put("boundsExact", column.boundsExact());
        }
        return out;
    }

    static List<ColumnStatistics> columns(JsonNode in, DecodeContext c) {
        List<ColumnStatistics> columns = new ArrayList<>();
        for (JsonNode node : in) {
            columns.add(new ColumnStatistics(estimate(c.required(node, "nulls"), c), estimate(c.required(node, "distinct"), c),
                    node.has("min") ? Optional.ofNullable(c.value(node.get("min"))) : Optional.empty(),
                    node.has("max") ? Optional.ofNullable(c.value(node.get("max"))) : Optional.empty(),
                    c.requiredBoolean(node, "boundsExact")));
        }
        return columns;
    }

    private static ArrayNode estimate(Estimate estimate, EncodeContext c) {
        return c.arrayNode().add(estimate.precision().name()).add(estimate.value());
    }

    private static Estimate estimate(JsonNode in, DecodeContext c) {
        Precision precision = Precision.valueOf(in.path(0).asText());
        return new Estimate(precision, in.path(1).asLong());
    }
}
