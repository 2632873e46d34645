package dev.quiver.engine.source.csv;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.QuiverTypes;
import dev.quiver.engine.source.storage.Location;
import dev.quiver.engine.source.storage.Storage;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * What a CSV table learns from its first file when it opens: the format (the delimiter and the
 * header sniffed unless given), the columns (given, or named by the header and typed from a sample
 * of rows) and the sample itself, for statistics.
 *
 * @param format how the table's lines are read
 * @param schema the files' columns
 * @param sample the sampled values by column, and the bytes per row
 * @param splittable whether files can be split at byte offsets (no quoted line break in the sample)
 */
record CsvFirstFile(CsvFormat format, Schema schema, Sample sample, boolean splittable) {
    /** Sampled values by column (null for NULL) and the average row width in bytes. */
    record Sample(List<List<String>> columns, double bytesPerRow) {}

    CsvFirstFile {
        requireNonNull(format, "format is null");
        requireNonNull(schema, "schema is null");
        requireNonNull(sample, "sample is null");
    }

    static CsvFirstFile read(Storage storage, Location file, Optional<Schema> given, CsvOptions options) {
        char delimiter = options.delimiter().orElseGet(() -> CsvSniffer.delimiter(storage, file, options.format(',', true)));
        CsvFormat format = options.format(delimiter, options.header().orElse(true));
        try (CsvRowReader reader = CsvFile.open(storage, file, format)) {
            for (long row = 0; row < format.skipRows(); row++) {
                reader.nextRow();
            }
            if (!reader.nextRow()) {
                throw new QuiverException(ErrorCode.SOURCE_ERROR, "CSV file " + file + " is empty: it needs a header line naming the columns, or rows");
            }
            List<String> firstRow = reader.values();
            checkText(reader, firstRow);
            long firstRowBytes = reader.rowBytes();
            int columnCount = firstRow.size();
            if (given.isPresent() && given.get().getFields().size() != columnCount && options.header().orElse(true)) {
                throw new QuiverException(ErrorCode.SOURCE_ERROR, "CSV file " + file + " line " + (1 + format.skipRows()) + ": the header has "
                        + columnCount + " columns, but the table has " + given.get().getFields().size() + " ("
                        + String.join(", ", given.get().getFields().stream().map(Field::getName).toList()) + ")");
            }
            Rows rows = sample(reader, given.map(schema -> schema.getFields().size()).orElse(columnCount), options);
            boolean header = options.header().orElseGet(() -> CsvSniffer.isHeader(firstRow,
                    given.map(Schema::getFields).orElseGet(() -> CsvSchemaInference.infer(CsvSchemaInference.generatedNames(columnCount), rows.columns()))));
            format = format.withHeader(header);
            if (!header) {
                rows.addFirst(firstRow, firstRowBytes);
            }
            Schema schema = given.orElseGet(() -> inferred(firstRow, header, rows.columns(), options.allVarchar()));
            schema.getFields().forEach(field -> CsvColumnKind.of(field, file.toString()));
            if (firstRow.size() != schema.getFields().size() && (header || !format.ignoreErrors())) {
                throw new QuiverException(ErrorCode.SOURCE_ERROR, "CSV file " + file + " line " + (1 + format.skipRows()) + ": the "
                        + (header ? "header" : "first row") + " has " + firstRow.size() + " columns, but the table has "
                        + schema.getFields().size() + " (" + String.join(", ", schema.getFields().stream().map(Field::getName).toList()) + ")");
            }
            // a quoted line break would make a line start inside a field: such files are read whole
            return new CsvFirstFile(format, schema, new Sample(rows.columns(), rows.bytesPerRow()), !reader.sawQuotedLineBreak());
        }
    }

    private static Schema inferred(List<String> firstRow, boolean header, List<List<String>> columns, boolean allVarchar) {
        List<String> names = header
                ? CsvSchemaInference.columnNames(firstRow.stream().map(value -> value == null ? "" : value).toList())
                : CsvSchemaInference.generatedNames(firstRow.size());
        if (allVarchar) {
            return new Schema(names.stream().map(name -> QuiverTypes.field(name, QuiverTypes.UTF8, true)).toList());
        }
        return new Schema(CsvSchemaInference.infer(names, columns));
    }

    /** The sampled rows, by column. */
    private static final class Rows {
        private final List<List<String>> columns;
        private long bytes;
        private int count;

        Rows(int columnCount) {
            columns = new ArrayList<>(columnCount);
            for (int c = 0; c < columnCount; c++) {
                columns.add(new ArrayList<>());
            }
        }

        void add(List<String> values, long rowBytes) {
            for (int c = 0; c < columns.size(); c++) {
                columns.get(c).add(values.get(c));
            }
            bytes += rowBytes;
            count++;
        }

        void addFirst(List<String> values, long rowBytes) {
            if (values.size() != columns.size()) {
                return; // a bad first row of a file without a header: ignore_errors skips it
            }
            for (int c = 0; c < columns.size(); c++) {
                columns.get(c).add(0, values.get(c));
            }
            bytes += rowBytes;
            count++;
        }

        List<List<String>> columns() {
            return columns;
        }

        double bytesPerRow() {
            return count == 0 ? 0 : (double) bytes / count;
        }
    }

    private static Rows sample(CsvRowReader reader, int columnCount, CsvOptions options) {
        Rows rows = new Rows(columnCount);
        long limit = options.sampleRows() < 0 ? Long.MAX_VALUE : options.sampleRows();
        for (long read = 0; read < limit && reader.nextRow(); read++) {
            if (reader.fieldCount() != columnCount) {
                if (options.ignoreErrors()) {
                    continue;
                }
                throw reader.rowError("expected " + columnCount + " fields as in the " + (options.header().orElse(true) ? "header" : "first row")
                        + ", found " + reader.fieldCount() + " (ignore_errors = true skips such rows)");
            }
            List<String> values = reader.values();
            checkText(reader, values);
            rows.add(values, reader.rowBytes());
        }
        return rows;
    }

    /** A binary file shows itself by NUL characters, which no CSV text holds. */
    private static void checkText(CsvRowReader reader, List<String> values) {
        for (String value : values) {
            if (value != null && value.indexOf('\0') >= 0) {
                throw reader.rowError("holds NUL bytes; it is not a text CSV file");
            }
        }
    }
}
