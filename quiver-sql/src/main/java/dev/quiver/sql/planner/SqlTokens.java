package dev.quiver.sql.planner;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The words and numbers of a SQL text, skipping string literals, quoted identifiers and comments,
 * each with its offset and its line and column as Calcite counts them (from 1). Enough to find
 * keywords in context; not a parser.
 */
final class SqlTokens {
    private final String sql;
    private final List<int[]> tokens = new ArrayList<>();
    /** Offsets of the {@code ?} parameter markers, in order. */
    private final List<Integer> parameterMarkers = new ArrayList<>();

    SqlTokens(String sql) {
        this.sql = sql;
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                i = skipQuoted(i, c);
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? n : end;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (Character.isLetterOrDigit(c) || c == '_' || c == '.') {
                int start = i;
                while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_' || sql.charAt(i) == '.')) {
                    i++;
                }
                tokens.add(new int[] {start, i});
            } else {
                if (c == '?') {
                    parameterMarkers.add(i);
                }
                i++;
            }
        }
    }

    private int skipQuoted(int start, char quote) {
        int i = start + 1;
        while (i < sql.length()) {
            if (sql.charAt(i) == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return i;
    }

    /** The offsets of the {@code ?} parameter markers outside literals and comments, in order. */
    List<Integer> parameterMarkers() {
        return List.copyOf(parameterMarkers);
    }

    int size() {
        return tokens.size();
    }

    int start(int index) {
        return tokens.get(index)[0];
    }

    String text(int index) {
        int[] token = tokens.get(index);
        return sql.substring(token[0], token[1]);
    }

    /** Whether token {@code index} exists and is the word {@code lowerCaseWord}, in any case. */
    boolean is(int index, String lowerCaseWord) {
        return index < tokens.size() && text(index).toLowerCase(Locale.ROOT).equals(lowerCaseWord);
    }

    boolean isNumber(int index) {
        return index < tokens.size() && Character.isDigit(text(index).charAt(0));
    }

    GroupsFrames.Position position(int index) {
        int offset = start(index);
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < offset; i++) {
            if (sql.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return new GroupsFrames.Position(line, offset - lineStart + 1);
    }
}
