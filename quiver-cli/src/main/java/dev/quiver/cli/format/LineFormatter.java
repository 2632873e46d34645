package dev.quiver.cli.format;

import java.io.PrintWriter;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * One {@code column = value} line per column, the names right-aligned, and a blank line between
 * rows, as the line mode of sqlite's and DuckDB's shells: for results too wide for a table. Written
 * as rows arrive; NULL prints as {@code NULL}.
 */
public final class LineFormatter implements ResultFormatter {
    @Override
    public RowWriter open(List<String> columnNames, List<ArrowType> columnTypes, PrintWriter out) {
        List<String> names = List.copyOf(columnNames);
        List<ArrowType> types = List.copyOf(columnTypes);
        int nameWidth = names.stream().mapToInt(TableFormatter::width).max().orElse(0);
        return new RowLineWriter(out) {
            private boolean first = true;

            @Override
            void appendRow(StringBuilder text, List<Object> row) {
                if (!first) {
                    text.append('\n');
                }
                first = false;
                for (int i = 0; i < names.size(); i++) {
                    Object value = row.get(i);
                    String name = names.get(i);
                    text.append(" ".repeat(nameWidth - TableFormatter.width(name))).append(name).append(" = ")
                            .append(value == null ? TableFormatter.NULL_TEXT : ValueFormatter.format(value, types.get(i)))
                            .append('\n');
                }
            }
        };
    }
}
