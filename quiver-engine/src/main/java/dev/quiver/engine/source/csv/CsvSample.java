package dev.quiver.engine.source.csv;

import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.files.SampledColumns;
import dev.quiver.engine.stats.ColumnStatistics;
import java.math.BigDecimal;
import dev.quiver.engine.source.storage.Location;
import dev.quiver.engine.source.storage.Storages;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Distinct-count estimates of a CSV table: the start of the sample the table reads at opening is
 * one part, and the first {@value SampledColumns#ROWS_PER_PART} rows after each of
 * {@value SampledColumns#PARTS} − 1 byte offsets spread evenly over the table's files are the
 * others (a reader starting at an offset skips to the next line, as a split does); {@link
 * SampledColumns} turns them into estimates. A table whose sample held a quoted line break (line
 * starts cannot be found from an offset) has the first part only. Values are compared as their
 * column's type (numbers as numbers). NULL counts stay unknown.
 */
final class CsvSample {
    private CsvSample() {}

    /**
     * @param firstRows the sampled values of the first file, by column (null for NULL)
     * @param ranges the table's splits in file order, the first starting at the first file's start
     * @param tableRows the table's estimated rows
     * @param splittable whether a reader may start at any byte offset
     */
    static List<ColumnStatistics> statistics(Storages storages, Schema schema, List<List<String>> firstRows, List<CsvFile> ranges, long tableRows,
            boolean splittable, CsvFormat format) {
        List<Field> fields = schema.getFields();
        SampledColumns sample = new SampledColumns(fields.size());
        for (int c = 0; c < fields.size(); c++) {
            List<String> values = firstRows.get(c);
            sample.add(c, typed(fields.get(c), values.subList(0, Math.min(values.size(), SampledColumns.ROWS_PER_PART))));
        }
        if (splittable) {
            offsets(ranges).forEach(range -> addRange(storages, sample, fields, range, format));
        }
        List<ColumnStatistics> statistics = new ArrayList<>(fields.size());
        for (int c = 0; c < fields.size(); c++) {
            List<String> values = firstRows.get(c);
            long nonNull = values.stream().filter(Objects::nonNull).count();
            long tableNonNull = values.isEmpty() ? tableRows : Math.round((double) tableRows * nonNull / values.size());
            statistics.add(ColumnStatistics.unknown().withDistinctCount(sample.distinct(c, tableNonNull)));
        }
        return statistics;
    }

    /** Readers' starts at {@code PARTS − 1} offsets spread evenly over the files (the first part is the table's start). */
    private static List<CsvFile> offsets(List<CsvFile> ranges) {
        Map<Location, Long> sizes = new LinkedHashMap<>();
        ranges.forEach(range -> sizes.merge(range.path(), range.end(), Math::max));
        long total = sizes.values().stream().mapToLong(Long::longValue).sum();
        List<CsvFile> starts = new ArrayList<>();
        for (int p = 1; p < SampledColumns.PARTS && total > 0; p++) {
            long target = p * total / SampledColumns.PARTS;
            for (Map.Entry<Location, Long> file : sizes.entrySet()) {
                if (target < file.getValue()) {
                    starts.add(new CsvFile(file.getKey(), target, file.getValue()));
                    break;
                }
                target -= file.getValue();
            }
        }
        return starts;
    }

    /** Reads a part from the start of {@code range}; a bad row ends the part (the scan reports it, naming the line). */
    private static void addRange(Storages storages, SampledColumns sample, List<Field> fields, CsvFile range, CsvFormat format) {
        List<List<String>> columns = new ArrayList<>(fields.size());
        fields.forEach(field -> columns.add(new ArrayList<>()));
        try (CsvRowReader reader = range.openRange(storages.of(range.path()), format)) {
            for (int row = 0; row < SampledColumns.ROWS_PER_PART && reader.nextRow() && reader.fieldCount() == fields.size(); row++) {
                List<String> values = reader.values();
                for (int c = 0; c < fields.size(); c++) {
                    columns.get(c).add(values.get(c));
                }
            }
        } catch (QuiverException e) {
            // statistics are optional; the rows read so far still count
        }
        for (int c = 0; c < fields.size(); c++) {
            sample.add(c, typed(fields.get(c), columns.get(c)));
        }
    }

    /** The non-null values as their column's type where they read as it (else as text, which then orders nothing). */
    private static List<Object> typed(Field field, List<String> values) {
        ArrowType type = field.getType();
        List<Object> typed = new ArrayList<>(values.size());
        for (String value : values) {
            if (value == null) {
                continue;
            }
            try {
                if (type instanceof ArrowType.Int) {
                    typed.add(Long.parseLong(value.trim()));
                } else if (type instanceof ArrowType.Decimal) {
                    typed.add(new BigDecimal(value.trim()).stripTrailingZeros());
                } else if (type instanceof ArrowType.FloatingPoint) {
                    typed.add(Double.parseDouble(value.trim()));
                } else {
                    typed.add(value);
                }
            } catch (NumberFormatException e) {
                typed.add(value);
            }
        }
        return typed;
    }
}
