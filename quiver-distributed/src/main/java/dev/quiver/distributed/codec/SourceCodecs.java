package dev.quiver.distributed.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quiver.distributed.codec.spi.DecodeContext;
import dev.quiver.distributed.codec.spi.PlanNodeCodec;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.source.memory.MemoryChunk;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.source.memory.MemoryTableScanExec;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.source.tpch.TpchScanExec;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.spi.TableSource;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Codecs of the built-in leaf scans. */
final class SourceCodecs {
    private SourceCodecs() {}

    static List<PlanNodeCodec<?>> all() {
        return List.of(
                PlanNodeCodec.of("MemoryScanExec", MemoryScanExec.class,
                        (n, out, c) -> {
                            out.set("schema", c.schema(n.schema()));
                            ArrayNode partitions = out.putArray("partitions");
                            for (List<List<Object>> partition : n.partitions()) {
                                partitions.add(OperatorCodecs.rows(partition, c));
                            }
                        },
                        (in, children, c) -> {
                            OperatorCodecs.none(children, "MemoryScanExec");
                            List<List<List<Object>>> partitions = new ArrayList<>();
                            for (JsonNode partition : c.required(in, "partitions")) {
                                partitions.add(OperatorCodecs.rows(partition, c));
                            }
                            return new MemoryScanExec(c.schema(c.required(in, "schema")), partitions);
                        }),
                // the batches travel inside the plan as Arrow IPC messages: a worker has no other way to reach the session's memory
                PlanNodeCodec.of("MemoryTableScanExec", MemoryTableScanExec.class,
                        (n, out, c) -> {
                            out.put("table", n.table());
                            out.set("schema", c.schema(n.schema()));
                            ArrayNode partitions = out.putArray("partitions");
                            for (List<MemoryChunk> partition : n.partitions()) {
                                ArrayNode chunks = partitions.addArray();
                                for (MemoryChunk chunk : partition) {
                                    chunks.addObject().put("rows", chunk.rowCount()).put("ipc", chunk.ipc(n.schema()));
                                }
                            }
                        },
                        SourceCodecs::decodeMemoryTable),
                // rebuilt through the catalog's public scan API: the node's constructor is package-private
                PlanNodeCodec.of("TpchScanExec", TpchScanExec.class,
                        (n, out, c) -> {
                            out.put("table", n.tableName()).put("scaleFactor", n.scaleFactor());
                            putProjection(out, n.projection());
                            out.put("partitions", n.outputPartitioning().partitionCount());
                            out.put("firstPart", n.firstPart()).put("totalParts", n.totalParts());
                        },
                        SourceCodecs::decodeTpch));
    }

    private static MemoryTableScanExec decodeMemoryTable(JsonNode in, List<ExecutionPlan> children, DecodeContext c) {
        OperatorCodecs.none(children, "MemoryTableScanExec");
        List<List<MemoryChunk>> partitions = new ArrayList<>();
        for (JsonNode partition : c.required(in, "partitions")) {
            List<MemoryChunk> chunks = new ArrayList<>();
            for (JsonNode chunk : partition) {
                try {
                    chunks.add(new MemoryChunk.Ipc(c.required(chunk, "ipc").binaryValue(), c.requiredInt(chunk, "rows")));
                } catch (IOException e) {
                    throw new QuiverException(ErrorCode.PLAN_ERROR, "serialized MemoryTableScanExec holds a batch that is not base64: " + e.getMessage(), e);
                }
            }
            partitions.add(chunks);
        }
        return new MemoryTableScanExec(c.requiredText(in, "table"), c.schema(c.required(in, "schema")), partitions);
    }

    private static TpchScanExec decodeTpch(JsonNode in, List<ExecutionPlan> children, DecodeContext c) {
        OperatorCodecs.none(children, "TpchScanExec");
        double scaleFactor = c.required(in, "scaleFactor").doubleValue();
        String table = c.requiredText(in, "table");
        int partitions = c.requiredInt(in, "partitions");
        List<Integer> projection = projection(in, c);
        TpchCatalog catalog = c.service(TpchCatalogProvider.class)
                .map(provider -> provider.catalog(scaleFactor))
                .orElseGet(() -> new TpchCatalog(scaleFactor));
        if (catalog.scaleFactor() != scaleFactor) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "the TPC-H catalog provider gave scale factor " + catalog.scaleFactor()
                    + " for a scan at " + scaleFactor);
        }
        TableSource source = catalog.table(table)
                .orElseThrow(() -> new QuiverException(ErrorCode.PLAN_ERROR, "serialized plan scans unknown TPC-H table '" + table + "'"));
        ExecutionPlan scan = source.scan(new ScanRequest(Optional.of(projection), List.of(), partitions));
        if (!(scan instanceof TpchScanExec tpch) || scan.outputPartitioning().partitionCount() != partitions) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "TPC-H table " + table + " did not rescan into " + partitions
                    + " partitions: " + scan.displayLine());
        }
        int firstPart = in.path("firstPart").asInt(0);
        int totalParts = in.path("totalParts").asInt(partitions);
        return firstPart == 0 && totalParts == partitions ? tpch : tpch.withParts(firstPart, partitions, totalParts);
    }

    /** Writes a scan's projection: the indexes of its table's columns that it reads. */
    static void putProjection(ObjectNode out, List<Integer> projection) {
        ArrayNode indexes = out.putArray("projection");
        projection.forEach(indexes::add);
    }

    static List<Integer> projection(JsonNode in, DecodeContext c) {
        List<Integer> projection = new ArrayList<>();
        for (JsonNode index : c.required(in, "projection")) {
            projection.add(index.intValue());
        }
        return projection;
    }
}
