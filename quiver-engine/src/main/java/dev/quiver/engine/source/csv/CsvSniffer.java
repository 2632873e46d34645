package dev.quiver.engine.source.csv;

import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.storage.Location;
import dev.quiver.engine.source.storage.Storage;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Guesses what a CSV file does not say, as DuckDB's sniffer does: the delimiter, from the first
 * rows read with each candidate, and whether the first row is a header, from whether it reads as
 * the types of the rows below it.
 */
final class CsvSniffer {
    /** The delimiters tried, in the order that wins ties. */
    private static final char[] CANDIDATES = {',', ';', '\t', '|'};
    private static final int ROWS = 100;

    private CsvSniffer() {}

    /**
     * The candidate that splits the first rows into the same number of fields (more than one)
     * most often, then into the most fields; a comma when none splits them.
     */
    static char delimiter(Storage storage, Location file, CsvFormat format) {
        char best = ',';
        double bestShare = 0;
        int bestFields = 1;
        for (char candidate : CANDIDATES) {
            if (candidate == format.quote() || candidate == format.escape()) {
                continue;
            }
            Map<Integer, Integer> counts = new HashMap<>();
            int rows = 0;
            try (CsvRowReader reader = CsvFile.open(storage, file, format.withDelimiter(candidate))) {
                for (long skip = 0; skip < format.skipRows() && reader.nextRow(); skip++) {
                    // rows before the header
                }
                while (rows < ROWS && reader.nextRow()) {
                    counts.merge(reader.fieldCount(), 1, Integer::sum);
                    rows++;
                }
            } catch (QuiverException e) {
                continue; // an unclosed quote under this delimiter: not it
            }
            if (rows == 0) {
                continue;
            }
            Map.Entry<Integer, Integer> mode = counts.entrySet().stream()
                    .max(Map.Entry.<Integer, Integer>comparingByValue().thenComparing(Map.Entry.comparingByKey())).orElseThrow();
            double share = (double) mode.getValue() / rows;
            int fields = mode.getKey();
            if (fields > 1 && (share > bestShare || share == bestShare && fields > bestFields)) {
                best = candidate;
                bestShare = share;
                bestFields = fields;
            }
        }
        return best;
    }

    /**
     * Whether {@code firstRow} is a header for columns of {@code types}: yes when every column is
     * VARCHAR (nothing tells), or when a value of it does not read as its column's type.
     */
    static boolean isHeader(List<String> firstRow, List<Field> types) {
        if (types.stream().allMatch(field -> field.getType() instanceof ArrowType.Utf8)) {
            return true;
        }
        for (int c = 0; c < firstRow.size() && c < types.size(); c++) {
            String value = firstRow.get(c);
            if (value != null && !CsvSchemaInference.readsAs(value, types.get(c).getType())) {
                return true;
            }
        }
        return false;
    }
}
