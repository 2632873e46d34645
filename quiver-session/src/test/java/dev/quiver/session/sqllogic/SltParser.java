package dev.quiver.session.sqllogic;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads the records of an {@code .slt} file (the grammar is in README.md beside the files). Records
 * are separated by blank lines; {@code #} lines are comments; {@code skipif MODE} / {@code onlyif MODE}
 * lines before a header limit the modes a record runs in. A malformed file fails with the file and line.
 */
final class SltParser {
    /** The line that separates Quiver's SQL from the text DuckDB runs instead. */
    static final String DUCKDB_MARKER = "-- duckdb:";
    static final String SEPARATOR = "----";

    private final String file;
    private final List<String> lines;
    private int next;

    private SltParser(String file, List<String> lines) {
        this.file = file;
        this.lines = lines;
    }

    static List<SltRecord> parse(String file, List<String> lines) {
        return new SltParser(file, lines).records();
    }

    private List<SltRecord> records() {
        List<SltRecord> records = new ArrayList<>();
        Set<RunMode> modes = EnumSet.allOf(RunMode.class);
        while (next < lines.size()) {
            String line = lines.get(next).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                next++;
                continue;
            }
            String[] words = line.split("\\s+");
            switch (words[0]) {
                case "skipif", "onlyif" -> {
                    RunMode mode = mode(words);
                    if (words[0].equals("skipif")) {
                        modes.remove(mode);
                    } else {
                        modes.retainAll(Set.of(mode));
                    }
                    next++;
                }
                case "statement" -> {
                    records.add(statement(words, modes));
                    modes = EnumSet.allOf(RunMode.class);
                }
                case "query" -> {
                    records.add(query(words, modes));
                    modes = EnumSet.allOf(RunMode.class);
                }
                default -> throw fail(next, "expected 'statement', 'query', 'skipif', 'onlyif', a # comment or a blank line, not: " + line);
            }
        }
        return records;
    }

    private RunMode mode(String[] words) {
        if (words.length != 2) {
            throw fail(next, words[0] + " takes one mode: single, static or adaptive");
        }
        return RunMode.ofLabel(words[1]).orElseThrow(() -> fail(next, "unknown mode '" + words[1] + "': use single, static or adaptive"));
    }

    private SltRecord.Statement statement(String[] words, Set<RunMode> modes) {
        int header = next++;
        Optional<SltRecord.ExpectedError> error;
        if (words.length == 2 && words[1].equals("ok")) {
            error = Optional.empty();
        } else if (words.length >= 3 && words[1].equals("error")) {
            error = Optional.of(expectedError(header, 2));
        } else {
            throw fail(header, "expected 'statement ok' or 'statement error CODE [pattern]'");
        }
        Body body = body(header, false);
        return new SltRecord.Statement(file, header + 1, body.sql(), body.duckDb(), modes, error);
    }

    private SltRecord.Query query(String[] words, Set<RunMode> modes) {
        int header = next++;
        if (words.length >= 3 && words[1].equals("error")) {
            SltRecord.ExpectedError error = expectedError(header, 2);
            Body body = body(header, false);
            return new SltRecord.Query(file, header + 1, body.sql(), body.duckDb(), modes, Optional.of(error), List.of(),
                    SltRecord.SortMode.NOSORT, Optional.empty(), new SltRecord.Lines(header, -1, next));
        }
        if (words.length != 3) {
            throw fail(header, "expected 'query TYPES rowsort|nosort' or 'query error CODE [pattern]'");
        }
        List<ColumnType> types = new ArrayList<>();
        for (char letter : words[1].toCharArray()) {
            types.add(ColumnType.ofLetter(letter, file + ":" + (header + 1)));
        }
        SltRecord.SortMode sort = switch (words[2]) {
            case "rowsort" -> SltRecord.SortMode.ROWSORT;
            case "nosort" -> SltRecord.SortMode.NOSORT;
            default -> throw fail(header, "the sort mode must be rowsort (rows compared as a multiset) or nosort (in order, for an ORDER BY"
                    + " whose order is total), not '" + words[2] + "'");
        };
        Body body = body(header, true);
        if (body.duckDb().isPresent() && body.duckDb().get().isEmpty()) {
            throw fail(header, "a query's expected rows come from DuckDB: give it the SQL after '" + DUCKDB_MARKER + "'");
        }
        int separator = -1;
        Optional<List<String>> expected = Optional.empty();
        if (next < lines.size() && lines.get(next).strip().equals(SEPARATOR)) {
            separator = next++;
            List<String> rows = new ArrayList<>();
            while (next < lines.size() && !lines.get(next).isBlank()) {
                rows.add(lines.get(next++));
            }
            expected = Optional.of(rows);
        }
        return new SltRecord.Query(file, header + 1, body.sql(), body.duckDb(), modes, Optional.empty(), types, sort, expected,
                new SltRecord.Lines(header, separator, next));
    }

    private SltRecord.ExpectedError expectedError(int header, int codeWord) {
        String[] parts = lines.get(header).strip().split("\\s+", codeWord + 2);
        ErrorCode code;
        try {
            code = ErrorCode.valueOf(parts[codeWord]);
        } catch (IllegalArgumentException e) {
            throw fail(header, "unknown error code '" + parts[codeWord] + "' (an ErrorCode name such as DIVISION_BY_ZERO)");
        }
        Optional<Pattern> message = Optional.empty();
        if (parts.length > codeWord + 1) {
            try {
                message = Optional.of(Pattern.compile(parts[codeWord + 1]));
            } catch (PatternSyntaxException e) {
                throw fail(header, "the message pattern does not compile: " + e.getDescription());
            }
        }
        return new SltRecord.ExpectedError(code, message);
    }

    /** Quiver's SQL and DuckDB's alternative text; stops at a blank line, the end, or (for a query) {@code ----}. */
    private Body body(int header, boolean query) {
        List<String> sql = new ArrayList<>();
        List<String> duckDb = null;
        while (next < lines.size() && !lines.get(next).isBlank() && !(query && lines.get(next).strip().equals(SEPARATOR))) {
            String line = lines.get(next++);
            if (line.strip().equals(DUCKDB_MARKER)) {
                if (duckDb != null) {
                    throw fail(next - 1, "a record has at most one '" + DUCKDB_MARKER + "' line");
                }
                duckDb = new ArrayList<>();
            } else if (duckDb != null) {
                duckDb.add(line);
            } else {
                sql.add(line);
            }
        }
        if (sql.isEmpty()) {
            throw fail(header, "the record has no SQL");
        }
        return new Body(String.join("\n", sql), Optional.ofNullable(duckDb).map(text -> String.join("\n", text)));
    }

    private record Body(String sql, Optional<String> duckDb) {}

    private QuiverException fail(int index, String message) {
        return new QuiverException(ErrorCode.INVALID_ARGUMENT, file + ":" + (index + 1) + ": " + message);
    }
}
