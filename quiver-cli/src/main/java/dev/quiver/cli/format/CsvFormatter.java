package dev.quiver.cli.format;

import java.io.PrintWriter;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * CSV as RFC 4180 gives it, with {@code \n} line ends: a header row of column names, then one row a
 * line. A field holding a comma, a double quote or a line break is quoted, with its quotes doubled.
 * NULL is an empty field; an empty string is {@code ""}, so that the two stay apart.
 */
public final class CsvFormatter implements ResultFormatter {
    @Override
    public RowWriter open(List<String> columnNames, List<ArrowType> columnTypes, PrintWriter out) {
        List<ArrowType> types = List.copyOf(columnTypes);
        if (!columnNames.isEmpty()) {
            // a statement without columns (SET, CREATE VIEW) prints nothing, not an empty line
            StringBuilder header = new StringBuilder();
            for (int i = 0; i < columnNames.size(); i++) {
                if (i > 0) {
                    header.append(',');
                }
                appendField(header, columnNames.get(i), false);
            }
            out.print(header.append('\n'));
        }
        return new RowLineWriter(out) {
            @Override
            void appendRow(StringBuilder line, List<Object> row) {
                for (int i = 0; i < types.size(); i++) {
                    if (i > 0) {
                        line.append(',');
                    }
                    Object value = row.get(i);
                    if (value != null) {
                        appendField(line, ValueFormatter.format(value, types.get(i)), true);
                    }
                }
                line.append('\n');
            }
        };
    }

    private static void appendField(StringBuilder line, String text, boolean quoteEmpty) {
        if ((quoteEmpty && text.isEmpty()) || needsQuotes(text)) {
            line.append('"').append(text.replace("\"", "\"\"")).append('"');
        } else {
            line.append(text);
        }
    }

    private static boolean needsQuotes(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == ',' || c == '"' || c == '\n' || c == '\r') {
                return true;
            }
        }
        return false;
    }
}
