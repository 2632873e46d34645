package dev.quiver.distributed.codec;

import static dev.quiver.distributed.codec.OperatorCodecs.none;
import static dev.quiver.distributed.codec.OperatorCodecs.only;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.quiver.distributed.codec.spi.PlanNodeCodec;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.operator.ReplicateRowsExec;
import dev.quiver.engine.operator.recursive.RecursiveUnionExec;
import dev.quiver.engine.operator.recursive.WorkTableScanExec;
import dev.quiver.engine.operator.unnest.UnnestExec;
import java.util.ArrayList;
import java.util.List;

/**
 * Codecs of the operators that change how many times a row occurs: INTERSECT ALL / EXCEPT ALL
 * ({@link ReplicateRowsExec}), WITH RECURSIVE ({@link RecursiveUnionExec}, {@link WorkTableScanExec})
 * and UNNEST ({@link UnnestExec}).
 */
final class RowSetCodecs {
    private RowSetCodecs() {}

    static List<PlanNodeCodec<?>> all() {
        return List.of(
                PlanNodeCodec.of("ReplicateRowsExec", ReplicateRowsExec.class,
                        (n, out, c) -> { },
                        (in, children, c) -> new ReplicateRowsExec(only(children, "ReplicateRowsExec"))),
                PlanNodeCodec.of("UnnestExec", UnnestExec.class,
                        (n, out, c) -> {
                            ArrayNode lists = out.putArray("lists");
                            n.lists().forEach(lists::add);
                            out.set("names", OperatorCodecs.strings(n.names(), c));
                        },
                        (in, children, c) -> new UnnestExec(positions(c.required(in, "lists")), OperatorCodecs.strings(c.required(in, "names")),
                                only(children, "UnnestExec"))),
                PlanNodeCodec.of("RecursiveUnionExec", RecursiveUnionExec.class,
                        (n, out, c) -> {
                            out.put("table", n.table());
                            out.put("distinct", n.distinct());
                            out.put("maxIterations", n.maxIterations());
                        },
                        (in, children, c) -> {
                            if (children.size() != 2) {
                                throw new QuiverException(ErrorCode.PLAN_ERROR, "RecursiveUnionExec needs 2 children, got " + children.size());
                            }
                            return new RecursiveUnionExec(children.get(0), children.get(1), c.requiredText(in, "table"),
                                    c.requiredBoolean(in, "distinct"), c.requiredLong(in, "maxIterations"));
                        }),
                PlanNodeCodec.of("WorkTableScanExec", WorkTableScanExec.class,
                        (n, out, c) -> {
                            out.put("table", n.table());
                            out.set("schema", c.schema(n.schema()));
                        },
                        (in, children, c) -> {
                            none(children, "WorkTableScanExec");
                            return new WorkTableScanExec(c.requiredText(in, "table"), c.schema(c.required(in, "schema")));
                        }));
    }

    private static List<Integer> positions(JsonNode json) {
        List<Integer> positions = new ArrayList<>();
        for (JsonNode position : json) {
            if (!position.isInt()) {
                throw new QuiverException(ErrorCode.PLAN_ERROR, "expected a column position in the serialized UnnestExec, got " + position);
            }
            positions.add(position.intValue());
        }
        return positions;
    }
}
