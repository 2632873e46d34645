package dev.quiver.cli.format;

import static java.util.Objects.requireNonNull;

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
 *
 * <p>Of a long result it shows the first and the last rows, at most {@link Display#maxRows()} in
 * all, with a row of {@code ...} between them and {@code N rows (M shown)} in the footer; it holds
 * no more rows than it shows. Lines wider than {@link Display#maxWidth()} are fitted by
 * {@link ColumnFit}: wide values are cut, then middle columns give way to a {@code ...} column.
 */
public final class TableFormatter implements ResultFormatter {
    static final String NULL_TEXT = "NULL";

    private final Display display;

    /** A table showing DuckDB's default of 40 rows, at any width, with the time. */
    public TableFormatter() {
        this(Display.DEFAULT);
    }

    public TableFormatter(Display display) {
        this.display = requireNonNull(display, "display is null");
    }

    /** Keeps the rows it shows until the end: column widths depend on every one of them. */
    @Override
    public RowWriter open(List<String> columnNames, List<ArrowType> columnTypes, PrintWriter out) {
        List<String> names = List.copyOf(columnNames);
        List<ArrowType> types = List.copyOf(columnTypes);
        RowSample sample = new RowSample(display.maxRows());
        return new RowWriter() {
            @Override
            public void writeRows(List<List<Object>> rows) {
                rows.forEach(sample::add);
            }

            @Override
            public void finish(Duration elapsed) {
                out.print(render(names, types, sample, elapsed));
                out.flush();
            }
        };
    }

    private String render(List<String> names, List<ArrowType> types, RowSample sample, Duration elapsed) {
        if (names.isEmpty()) {
            return display.timer() ? "OK (" + seconds(elapsed) + ")\n" : "OK\n";
        }
        List<String[][]> head = cells(sample.head(), types);
        List<String[][]> tail = cells(sample.tail(), types);
        int[] natural = new int[names.size()];
        for (int i = 0; i < natural.length; i++) {
            natural[i] = width(names.get(i));
        }
        widen(natural, head);
        widen(natural, tail);
        if (sample.elided()) {
            for (int i = 0; i < natural.length; i++) {
                natural[i] = Math.max(natural[i], ColumnFit.ELLIPSIS.length());
            }
        }
        ColumnFit fit = ColumnFit.of(natural, display.maxWidth());
        boolean[] rightAligned = new boolean[names.size()];
        for (int i = 0; i < rightAligned.length; i++) {
            rightAligned[i] = isNumeric(types.get(i));
        }
        StringBuilder text = new StringBuilder();
        appendHeader(text, names, fit);
        head.forEach(row -> appendRow(text, row, fit, rightAligned));
        if (sample.elided()) {
            String[][] gap = new String[names.size()][];
            for (int i = 0; i < gap.length; i++) {
                gap[i] = new String[] {ColumnFit.ELLIPSIS};
            }
            appendRow(text, gap, fit, new boolean[names.size()]);
        }
        tail.forEach(row -> appendRow(text, row, fit, rightAligned));
        appendFooter(text, sample, head.size() + tail.size(), names.size(), fit, elapsed);
        return text.toString();
    }

    private void appendFooter(StringBuilder text, RowSample sample, int rowsShown, int columns, ColumnFit fit, Duration elapsed) {
        long rows = sample.count();
        text.append('(').append(rows).append(rows == 1 ? " row" : " rows");
        if (sample.elided()) {
            text.append(" (").append(rowsShown).append(" shown)");
        }
        if (fit.elided()) {
            text.append(", ").append(columns).append(" columns (").append(fit.shown().size()).append(" shown)");
        }
        if (display.timer()) {
            text.append(", ").append(seconds(elapsed));
        }
        text.append(")\n");
    }

    /** The text of each value of {@code rows}, split into its lines. */
    private static List<String[][]> cells(List<List<Object>> rows, List<ArrowType> types) {
        List<String[][]> cells = new ArrayList<>(rows.size());
        for (List<Object> row : rows) {
            String[][] lines = new String[types.size()][];
            for (int i = 0; i < lines.length; i++) {
                Object value = row.get(i);
                String text = value == null ? NULL_TEXT : ValueFormatter.format(value, types.get(i));
                // split keeps no trailing empty strings: a plan's final line break adds no line
                lines[i] = text.isEmpty() ? new String[] {""} : text.split("\r?\n");
            }
            cells.add(lines);
        }
        return cells;
    }

    private static void widen(int[] widths, List<String[][]> rows) {
        for (String[][] row : rows) {
            for (int i = 0; i < widths.length; i++) {
                for (String line : row[i]) {
                    widths[i] = Math.max(widths[i], width(line));
                }
            }
        }
    }

    private static void appendHeader(StringBuilder text, List<String> names, ColumnFit fit) {
        StringBuilder rule = new StringBuilder();
        forEachShown(fit, (column, first) -> {
            if (!first) {
                text.append('|');
                rule.append('+');
            }
            int width = column < 0 ? ColumnFit.ELLIPSIS.length() : fit.widths()[column];
            text.append(' ');
            pad(text, column < 0 ? ColumnFit.ELLIPSIS : cut(names.get(column), width), width, false);
            text.append(' ');
            rule.append("-".repeat(width + 2));
        });
        stripTrailing(text).append('\n').append(rule).append('\n');
    }

    private static void appendRow(StringBuilder text, String[][] row, ColumnFit fit, boolean[] rightAligned) {
        int height = 1;
        for (int column : fit.shown()) {
            height = Math.max(height, row[column].length);
        }
        for (int line = 0; line < height; line++) {
            int lineIndex = line;
            forEachShown(fit, (column, first) -> {
                if (!first) {
                    text.append('|');
                }
                text.append(' ');
                if (column < 0) {
                    pad(text, lineIndex == 0 ? ColumnFit.ELLIPSIS : "", ColumnFit.ELLIPSIS.length(), false);
                } else {
                    String value = lineIndex < row[column].length ? row[column][lineIndex] : "";
                    pad(text, cut(value, fit.widths()[column]), fit.widths()[column], rightAligned[column]);
                }
                text.append(' ');
            });
            stripTrailing(text).append('\n');
        }
    }

    /** Visits the shown columns in order, with -1 for the {@code ...} column where middle columns are left out. */
    private static void forEachShown(ColumnFit fit, ColumnVisitor visitor) {
        List<Integer> shown = fit.shown();
        for (int i = 0; i < shown.size(); i++) {
            visitor.visit(shown.get(i), i == 0);
            if (i == fit.elidedAfter()) {
                visitor.visit(-1, false);
            }
        }
    }

    private interface ColumnVisitor {
        void visit(int column, boolean first);
    }

    /** {@code value} cut to {@code width} characters, ending in {@code ...} when cut. */
    private static String cut(String value, int width) {
        if (width(value) <= width) {
            return value;
        }
        int keep = Math.max(0, width - ColumnFit.ELLIPSIS.length());
        return value.substring(0, value.offsetByCodePoints(0, keep)) + ColumnFit.ELLIPSIS;
    }

    private static void pad(StringBuilder text, String value, int width, boolean right) {
        String padding = " ".repeat(Math.max(0, width - width(value)));
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

    static int width(String text) {
        return text.codePointCount(0, text.length());
    }

    static boolean isNumeric(ArrowType type) {
        return type instanceof ArrowType.Int || type instanceof ArrowType.Decimal
                || type instanceof ArrowType.FloatingPoint;
    }

    static String seconds(Duration elapsed) {
        return String.format(Locale.ROOT, "%.3f s", elapsed.toNanos() / 1e9);
    }
}
