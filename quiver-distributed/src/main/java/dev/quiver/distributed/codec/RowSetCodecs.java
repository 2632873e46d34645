package dev.quiver.distributed.codec;

import static dev.quiver.distributed.codec.OperatorCodecs.none;
import static dev.quiver.distributed.codec.OperatorCodecs.only;

import dev.quiver.distributed.codec.spi.PlanNodeCodec;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.operator.ReplicateRowsExec;
import dev.quiver.engine.operator.recursive.RecursiveUnionExec;
import dev.quiver.engine.operator.recursive.WorkTableScanExec;
import java.util.List;

/**
 * Codecs of the operators behind INTERSECT ALL / EXCEPT ALL ({@link ReplicateRowsExec}) and
 * WITH RECURSIVE ({@link RecursiveUnionExec}, {@link WorkTableScanExec}).
 */
final class RowSetCodecs {
    private RowSetCodecs() {}

    static List<PlanNodeCodec<?>> all() {
        return List.of(
                PlanNodeCodec.of("ReplicateRowsExec", ReplicateRowsExec.class,
                        (n, out, c) -> { },
                        (in, children, c) -> new ReplicateRowsExec(only(children, "ReplicateRowsExec"))),
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
}
