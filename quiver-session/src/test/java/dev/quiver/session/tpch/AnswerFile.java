package dev.quiver.session.tpch;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An answer file of the io.trino.tpch query set: a header line
 * {@code -- delimiter: |; ignoreOrder: false; types: ...}, then one row per line, values separated
 * by the delimiter, sometimes with a trailing delimiter; {@code null} is SQL NULL. Values stay text:
 * {@link ResultComparator} reads them by the type of the column they are compared with.
 *
 * @param ignoreOrder whether the rows may come in any order
 * @param rows the rows, values as printed ({@code null} for SQL NULL)
 */
public record AnswerFile(boolean ignoreOrder, List<List<Object>> rows) {
    private static final Pattern DELIMITER = Pattern.compile("delimiter:\\s*(\\S)");
    private static final Pattern IGNORE_ORDER = Pattern.compile("ignoreOrder:\\s*(true|false)");

    public AnswerFile {
        rows = List.copyOf(requireNonNull(rows, "rows is null"));
    }

    public static AnswerFile parse(String text) {
        List<String> lines = text.lines().toList();
        if (lines.isEmpty() || !lines.get(0).startsWith("--")) {
            throw new IllegalArgumentException("answer file does not start with a '--' header line");
        }
        String header = lines.get(0);
        String delimiter = find(DELIMITER, header, "|");
        boolean ignoreOrder = Boolean.parseBoolean(find(IGNORE_ORDER, header, "false"));
        List<List<Object>> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            List<Object> values = new ArrayList<>(Arrays.asList((Object[]) line.split(Pattern.quote(delimiter), -1)));
            if (line.endsWith(delimiter)) {
                values.remove(values.size() - 1);
            }
            values.replaceAll(value -> "null".equals(value) ? null : value);
            rows.add(values);
        }
        return new AnswerFile(ignoreOrder, rows);
    }

    private static String find(Pattern pattern, String header, String absent) {
        Matcher matcher = pattern.matcher(header);
        return matcher.find() ? matcher.group(1) : absent;
    }
}
