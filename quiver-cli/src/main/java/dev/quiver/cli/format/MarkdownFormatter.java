package dev.quiver.cli.format;

import java.io.PrintWriter;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * A GitHub-flavoured Markdown table, written as rows arrive (so any number of rows, unpadded):
 * <pre>
 * | name | total |
 * |---|---:|
 * | alpha | 12.50 |
 * </pre>
 * Numbers are right-aligned, a {@code |} in a value is escaped and a line break becomes
 * {@code <br>}; NULL prints as {@code NULL}.
 */
public final class MarkdownFormatter implements ResultFormatter {
    @Override
    public RowWriter open(List<String> columnNames, List<ArrowType> columnTypes, PrintWriter out) {
        List<ArrowType> types = List.copyOf(columnTypes);
        if (!columnNames.isEmpty()) {
            StringBuilder header = new StringBuilder("|");
            StringBuilder rule = new StringBuilder("|");
            for (int i = 0; i < columnNames.size(); i++) {
                header.append(' ').append(escape(columnNames.get(i))).append(" |");
                rule.append(TableFormatter.isNumeric(types.get(i)) ? "---:|" : "---|");
            }
            out.print(header.append('\n').append(rule).append('\n'));
        }
        return new RowLineWriter(out) {
            @Override
            void appendRow(StringBuilder line, List<Object> row) {
                line.append('|');
                for (int i = 0; i < types.size(); i++) {
                    Object value = row.get(i);
                    String text = value == null ? TableFormatter.NULL_TEXT : ValueFormatter.format(value, types.get(i));
                    line.append(' ').append(escape(text)).append(" |");
                }
                line.append('\n');
            }
        };
    }

    private static String escape(String text) {
        return text.replace("\\", "\\\\").replace("|", "\\|").replace("\r\n", "<br>").replace("\n", "<br>");
    }
}
