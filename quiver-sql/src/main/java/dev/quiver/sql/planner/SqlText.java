package dev.quiver.sql.planner;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

/** The text of one query, read back by Calcite parser positions (1-based lines and columns, end inclusive). */
final class SqlText {
    private final String sql;
    private final List<Integer> lineStarts = new ArrayList<>();

    SqlText(String sql) {
        this.sql = requireNonNull(sql, "sql is null");
        lineStarts.add(0);
        for (int i = 0; i < sql.length(); i++) {
            if (sql.charAt(i) == '\n') {
                lineStarts.add(i + 1);
            }
        }
    }

    /** The text a node was parsed from, or null for a node the parser made up (position ZERO) or one out of range. */
    @Nullable String of(SqlParserPos pos) {
        int start = offset(pos.getLineNum(), pos.getColumnNum());
        int end = offset(pos.getEndLineNum(), pos.getEndColumnNum());
        if (start < 0 || end < start || end >= sql.length()) {
            return null;
        }
        return sql.substring(start, end + 1);
    }

    /** The word that follows a node's text (after blanks), or null. */
    @Nullable String wordAfter(SqlParserPos pos) {
        int end = offset(pos.getEndLineNum(), pos.getEndColumnNum());
        if (end < 0) {
            return null;
        }
        int start = end + 1;
        while (start < sql.length() && Character.isWhitespace(sql.charAt(start))) {
            start++;
        }
        int stop = start;
        while (stop < sql.length() && Character.isLetter(sql.charAt(stop))) {
            stop++;
        }
        return stop > start ? sql.substring(start, stop) : null;
    }

    /** The offset of a 1-based line and column, or -1. */
    int offset(int line, int column) {
        if (line < 1 || line > lineStarts.size() || column < 1) {
            return -1;
        }
        return lineStarts.get(line - 1) + column - 1;
    }
}
