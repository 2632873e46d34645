package dev.quiver.cli.format;

import java.io.PrintWriter;
import java.math.BigDecimal;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * JSON Lines: one JSON object per row, keyed by column name, one object a line. Numbers
 * (integers, decimals in plain notation with their scale, finite doubles) are JSON numbers;
 * booleans are JSON booleans; NULL is {@code null}; everything else (strings, dates, timestamps,
 * NaN and infinities) is a JSON string with the text the other formats print.
 */
public final class JsonFormatter implements ResultFormatter {
    @Override
    public RowWriter open(List<String> columnNames, List<ArrowType> columnTypes, PrintWriter out) {
        List<String> names = List.copyOf(columnNames);
        List<ArrowType> types = List.copyOf(columnTypes);
        return new RowLineWriter(out) {
            @Override
            void appendRow(StringBuilder line, List<Object> row) {
                line.append('{');
                for (int i = 0; i < types.size(); i++) {
                    if (i > 0) {
                        line.append(',');
                    }
                    appendString(line, names.get(i));
                    line.append(':');
                    appendValue(line, row.get(i), types.get(i));
                }
                line.append("}\n");
            }
        };
    }

    private static void appendValue(StringBuilder line, Object value, ArrowType type) {
        if (value == null) {
            line.append("null");
        } else if (value instanceof Boolean b) {
            line.append(b.booleanValue());
        } else if (isJsonNumber(value, type)) {
            line.append(ValueFormatter.format(value, type));
        } else {
            appendString(line, ValueFormatter.format(value, type));
        }
    }

    private static boolean isJsonNumber(Object value, ArrowType type) {
        if (type instanceof ArrowType.Date || type instanceof ArrowType.Timestamp) {
            return false;
        }
        if (value instanceof Double d) {
            return Double.isFinite(d);
        }
        if (value instanceof Float f) {
            return Float.isFinite(f);
        }
        return value instanceof Integer || value instanceof Long || value instanceof Short
                || value instanceof Byte || value instanceof BigDecimal;
    }

    static void appendString(StringBuilder line, String text) {
        line.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> line.append("\\\"");
                case '\\' -> line.append("\\\\");
                case '\n' -> line.append("\\n");
                case '\r' -> line.append("\\r");
                case '\t' -> line.append("\\t");
                case '\b' -> line.append("\\b");
                case '\f' -> line.append("\\f");
                default -> {
                    if (c < 0x20) {
                        line.append(String.format("\\u%04x", (int) c));
                    } else {
                        line.append(c);
                    }
                }
            }
        }
        line.append('"');
    }
}
