package dev.quiver.cli.format;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Aligned columns for reading in a terminal:
 * <pre>
 *  name  | total
 * -------+--------
 *  alpha |  12.50
 *  beta  |   NULL
 * (2 rows, 0.012 s)
 * </pre>
 * Numbers are right-aligned, everything else left-aligned; NULL prints as {@code NULL}. A value
 * that spans several lines (an EXPLAIN plan) takes several lines of its column. A statement
 * without result columns (SET, CREATE VIEW) prints {@code OK} and the time.
 */
public final class TableFormatter implements ResultFormatter {
    static final String NULL_TEXT = "NULL";

    /** Keeps the rows until the end: column widths depend on every row. */
    @Override
    public RowWriter open(List<String> columnNames, List<ArrowType> columnTypes, PrintWriter out) {
        List<String> names = List.copyOf(columnNames);
        List<ArrowType> types = List.copyOf(columnTypes);
        List<List<Object>> rows = new ArrayList<>();
        return new RowWriter() {
            @Override
            public void writeRows(List<List<Object>> more) {
                rows.addAll(more);
            }

            @Override
            public void finish(Duration elapsed) {
                write(new ResultTable(names, types, rows), Integer.MAX_VALUE, elapsed, out);
            }
        };
    }

    /**
     * Writes at most {@code maxRows} rows of {@code result}; the footer still counts them all and
     * says how many it shows.
     */
    public void write(ResultTable result, int maxRows, Duration elapsed, PrintWriter out) {
        if (result.columnCount() == 0) {
            out.println("OK (" + seconds(elapsed) + ")");
            out.flush();
            return;
        }
        List<List<Object>> shown = result.rows().subList(0, Math.min(maxRows, result.rows().size()));
        List<String[][]> cells = new ArrayList<>(shown.size());
        int[] widths = new int[result.columnCount()];
        for (int i = 0; i < widths.length; i++) {
            widths[i] = width(result.columnNames().get(i));
        }
        for (List<Object> row : shown) {
            String[][] lines = new String[widths.length][];
            for (int i = 0; i < widths.length; i++) {
                Object value = row.get(i);
                String text = value == null ? NULL_TEXT : ValueFormatter.format(value, result.columnTypes().get(i));
                // split keeps no trailing empty strings: a plan's final line break adds no line
                lines[i] = text.isEmpty() ? new String[] {""} : text.split("\r?\n");
                for (String line : lines[i]) {
                    widths[i] = Math.max(widths[i], width(line));
                }
            }
            cells.add(lines);
        }
        boolean[] rightAligned = new boolean[widths.length];
        for (int i = 0; i < widths.length; i++) {
            rightAligned[i] = isNumeric(result.columnTypes().get(i));
        }
        StringBuilder text = new StringBuilder();
        appendHeader(text, result.columnNames(), widths);
        for (String[][] row : cells) {
            appendRow(text, row, widths, rightAligned);
        }
        int rows = result.rows().size();
        text.append('(').append(rows).append(rows == 1 ? " row, " : " rows, ");
        if (shown.size() < rows) {
            text.append("first ").append(shown.size()).append(" shown, ");
        }
        text.append(seconds(elapsed)).append(")\n");
        out.print(text);
        out.flush();
    }

    private static void appendHeader(StringBuilder text, List<String> names, int[] widths) {
        StringBuilder rule = new StringBuilder();
        for (int i = 0; i < widths.length; i++) {
            if (i > 0) {
                text.append('|');
                rule.append('+');
            }
            text.append(' ');
            pad(text, names.get(i), widths[i], false);
            text.append(' ');
            rule.append("-".repeat(widths[i] + 2));
        }
        stripTrailing(text).append('\n').append(rule).append('\n');
    }

    private static void appendRow(StringBuilder text, String[][] row, int[] widths, boolean[] rightAligned) {
        int height = 1;
        for (String[] lines : row) {
            height = Math.max(height, lines.length);
        }
        for (int line = 0; line < height; line++) {
            for (int i = 0; i < widths.length; i++) {
                if (i > 0) {
                    text.append('|');
                }
                text.append(' ');
                pad(text, line < row[i].length ? row[i][line] : "", widths[i], rightAligned[i]);
                text.append(' ');
            }
            stripTrailing(text).append('\n');
        }
    }

    private static void pad(StringBuilder text, String value, int width, boolean right) {
        String padding = " ".repeat(width - width(value));
        if (right) {
            text.append(padding).append(value);
        } else {
            text.append(value).append(padding);
        }
    }

    private static StringBuilder stripTrailing(StringBuilder text) {
        int end = text.length();
        while (end > 0 && text.charAt(end - 1) == ' ') {
            end--;
        }
        text.setLength(end);
        return text;
    }

    private static int width(String text) {
        return text.codePointCount(0, text.length());
    }

    private static boolean isNumeric(ArrowType type) {
        return type instanceof ArrowType.Int || type instanceof ArrowType.Decimal
                || type instanceof ArrowType.FloatingPoint;
    }

    static String seconds(Duration elapsed) {
        return String.format(Locale.ROOT, "%.3f s", elapsed.toNanos() / 1e9);
    }
}
