package dev.quiver.distributed.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quiver.distributed.codec.spi.DecodeContext;
import dev.quiver.distributed.codec.spi.EncodeContext;
import dev.quiver.distributed.codec.spi.PlanNodeCodec;
import dev.quiver.engine.source.arrow.ArrowBlockSplit;
import dev.quiver.engine.source.arrow.ArrowScanExec;
import dev.quiver.engine.source.csv.CsvFile;
import dev.quiver.engine.source.csv.CsvFormat;
import dev.quiver.engine.source.csv.CsvScanExec;
import dev.quiver.engine.source.json.JsonFile;
import dev.quiver.engine.source.json.JsonScanExec;
import dev.quiver.engine.source.parquet.ParquetRowGroup;
import dev.quiver.engine.source.parquet.ParquetScanExec;
import dev.quiver.engine.source.storage.Location;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Codecs of the file scans (Parquet, Arrow IPC, CSV): the table's schema, the projection and each
 * partition's split descriptors (row groups, record batches, byte ranges) with what the scan
 * knows of them, so a worker reads them without re-opening footers. Locations are sent as written:
 * every worker must see local files at the same paths (an {@code s3://} object is the same everywhere).
 */
final class FileScanCodecs {
    private FileScanCodecs() {}

    static List<PlanNodeCodec<?>> all() {
        return List.of(
                PlanNodeCodec.of("ParquetScanExec", ParquetScanExec.class,
                        (n, out, c) -> {
                            common(out, n.tableName(), n.tableSchema(), n.projection(), c);
                            out.set("filters", c.exprs(n.filters()));
                            out.put("fileCount", n.fileCount()).put("rowGroupsTotal", n.rowGroupsTotal());
                            out.set("partitions", partitions(n.partitions(), FileScanCodecs::rowGroup, c));
                        },
                        (in, children, c) -> {
                            OperatorCodecs.none(children, "ParquetScanExec");
                            return new ParquetScanExec(c.requiredText(in, "table"), c.schema(c.required(in, "tableSchema")), SourceCodecs.projection(in, c),
                                    partitions(c.required(in, "partitions"), FileScanCodecs::rowGroup, c), c.exprs(c.required(in, "filters")),
                                    c.requiredInt(in, "fileCount"), c.requiredInt(in, "rowGroupsTotal"));
                        }),
                PlanNodeCodec.of("ArrowScanExec", ArrowScanExec.class,
                        (n, out, c) -> {
                            common(out, n.tableName(), n.tableSchema(), n.projection(), c);
                            out.put("fileCount", n.fileCount());
                            out.set("partitions", partitions(n.partitions(), FileScanCodecs::block, c));
                        },
                        (in, children, c) -> {
                            OperatorCodecs.none(children, "ArrowScanExec");
                            return new ArrowScanExec(c.requiredText(in, "table"), c.schema(c.required(in, "tableSchema")), SourceCodecs.projection(in, c),
                                    partitions(c.required(in, "partitions"), FileScanCodecs::block, c), c.requiredInt(in, "fileCount"));
                        }),
                PlanNodeCodec.of("CsvScanExec", CsvScanExec.class,
                        (n, out, c) -> {
                            common(out, n.tableName(), n.tableSchema(), n.projection(), c);
                            out.put("bytesPerRow", n.bytesPerRow());
                            out.set("format", format(n.format(), c));
                            out.set("partitions", partitions(n.partitions(), FileScanCodecs::range, c));
                        },
                        (in, children, c) -> {
                            OperatorCodecs.none(children, "CsvScanExec");
                            return new CsvScanExec(c.requiredText(in, "table"), c.schema(c.required(in, "tableSchema")), SourceCodecs.projection(in, c),
                                    partitions(c.required(in, "partitions"), FileScanCodecs::range, c), c.required(in, "bytesPerRow").doubleValue(),
                                    format(c.required(in, "format"), c));
                        }),
                PlanNodeCodec.of("JsonScanExec", JsonScanExec.class,
                        (n, out, c) -> {
                            common(out, n.tableName(), n.tableSchema(), n.projection(), c);
                            out.put("bytesPerRow", n.bytesPerRow()).put("ignoreErrors", n.ignoreErrors());
                            out.set("partitions", partitions(n.partitions(), FileScanCodecs::jsonFile, c));
                        },
                        (in, children, c) -> {
                            OperatorCodecs.none(children, "JsonScanExec");
                            return new JsonScanExec(c.requiredText(in, "table"), c.schema(c.required(in, "tableSchema")), SourceCodecs.projection(in, c),
                                    partitions(c.required(in, "partitions"), FileScanCodecs::jsonFile, c), c.required(in, "bytesPerRow").doubleValue(),
                                    c.required(in, "ignoreErrors").asBoolean());
                        }));
    }

    private static void common(ObjectNode out, String table, Schema tableSchema, List<Integer> projection, EncodeContext c) {
        out.put("table", table);
        out.set("tableSchema", c.schema(tableSchema));
        SourceCodecs.putProjection(out, projection);
    }

    /** How one split is written and read back. */
    private interface SplitJson<S> {
        JsonNode write(S split, EncodeContext c);
    }

    private static <S> ArrayNode partitions(List<List<S>> partitions, SplitJson<S> write, EncodeContext c) {
        ArrayNode out = c.arrayNode();
        for (List<S> partition : partitions) {
            ArrayNode splits = out.addArray();
            partition.forEach(split -> splits.add(write.write(split, c)));
        }
        return out;
    }

    private static <S> List<List<S>> partitions(JsonNode in, BiFunction<JsonNode, DecodeContext, S> read, DecodeContext c) {
        List<List<S>> partitions = new ArrayList<>();
        for (JsonNode partition : in) {
            List<S> splits = new ArrayList<>();
            partition.forEach(split -> splits.add(read.apply(split, c)));
            partitions.add(splits);
        }
        return partitions;
    }

    private static JsonNode rowGroup(ParquetRowGroup rowGroup, EncodeContext c) {
        ObjectNode out = c.objectNode();
        out.put("file", rowGroup.file().toString()).put("fileSize", rowGroup.fileSize()).put("index", rowGroup.index()).put("rows", rowGroup.rowCount());
        out.set("columns", StatisticsJson.columns(rowGroup.columns(), c));
        ArrayNode bytes = out.putArray("columnBytes");
        for (long columnBytes : rowGroup.columnBytes()) {
            bytes.add(columnBytes);
        }
        if (!rowGroup.partitionValues().isEmpty()) {
            ArrayNode values = out.putArray("partitionValues");
            rowGroup.partitionValues().forEach(value -> values.add(c.value(value)));
        }
        return out;
    }

    private static ParquetRowGroup rowGroup(JsonNode in, DecodeContext c) {
        List<Object> partitionValues = new ArrayList<>();
        in.path("partitionValues").forEach(value -> partitionValues.add(c.value(value)));
        return new ParquetRowGroup(new Location(c.requiredText(in, "file")), c.requiredLong(in, "fileSize"), c.requiredInt(in, "index"), c.requiredLong(in, "rows"),
                StatisticsJson.columns(c.required(in, "columns"), c), longs(c.required(in, "columnBytes")), partitionValues);
    }

    private static JsonNode block(ArrowBlockSplit block, EncodeContext c) {
        ObjectNode out = c.objectNode();
        out.put("file", block.file().toString()).put("index", block.index()).put("rows", block.rowCount()).put("bodyBytes", block.bodyBytes());
        ArrayNode nulls = out.putArray("nullCounts");
        for (long count : block.nullCounts()) {
            nulls.add(count);
        }
        return out;
    }

    private static ArrowBlockSplit block(JsonNode in, DecodeContext c) {
        return new ArrowBlockSplit(Path.of(c.requiredText(in, "file")), c.requiredInt(in, "index"), c.requiredLong(in, "rows"),
                c.requiredLong(in, "bodyBytes"), longs(c.required(in, "nullCounts")));
    }

    private static JsonNode range(CsvFile range, EncodeContext c) {
        ObjectNode out = c.objectNode().put("file", range.path().toString()).put("start", range.start()).put("end", range.end());
        if (!range.partitionValues().isEmpty()) {
            ArrayNode values = out.putArray("partitionValues");
            range.partitionValues().forEach(value -> values.add(c.value(value)));
        }
        return out;
    }

    private static CsvFile range(JsonNode in, DecodeContext c) {
        List<Object> partitionValues = new ArrayList<>();
        in.path("partitionValues").forEach(value -> partitionValues.add(c.value(value)));
        return new CsvFile(new Location(c.requiredText(in, "file")), c.requiredLong(in, "start"), c.requiredLong(in, "end"), partitionValues);
    }

    private static JsonNode jsonFile(JsonFile file, EncodeContext c) {
        ObjectNode out = c.objectNode().put("file", file.path().toString()).put("bytes", file.bytes());
        if (!file.partitionValues().isEmpty()) {
            ArrayNode values = out.putArray("partitionValues");
            file.partitionValues().forEach(value -> values.add(c.value(value)));
        }
        return out;
    }

    private static JsonFile jsonFile(JsonNode in, DecodeContext c) {
        List<Object> partitionValues = new ArrayList<>();
        in.path("partitionValues").forEach(value -> partitionValues.add(c.value(value)));
        return new JsonFile(new Location(c.requiredText(in, "file")), c.requiredLong(in, "bytes"), partitionValues);
    }

    private static JsonNode format(CsvFormat format, EncodeContext c) {
        ObjectNode out = c.objectNode().put("delimiter", String.valueOf(format.delimiter())).put("quote", String.valueOf(format.quote()))
                .put("escape", String.valueOf(format.escape())).put("header", format.header()).put("skipRows", format.skipRows())
                .put("ignoreErrors", format.ignoreErrors());
        ArrayNode nulls = out.putArray("nullStrings");
        format.nullStrings().forEach(nulls::add);
        return out;
    }

    private static CsvFormat format(JsonNode in, DecodeContext c) {
        List<String> nulls = new ArrayList<>();
        c.required(in, "nullStrings").forEach(value -> nulls.add(value.asText()));
        return new CsvFormat(c.requiredText(in, "delimiter").charAt(0), c.requiredText(in, "quote").charAt(0), c.requiredText(in, "escape").charAt(0),
                c.required(in, "header").asBoolean(), c.requiredLong(in, "skipRows"), nulls, c.required(in, "ignoreErrors").asBoolean());
    }

    private static long[] longs(JsonNode in) {
        long[] values = new long[in.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = in.get(i).asLong();
        }
        return values;
    }
}
