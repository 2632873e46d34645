package dev.quiver.sql.planner;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code GROUPS} window frames, which Calcite 1.42 neither parses nor represents. Before parsing,
 * the keyword {@code GROUPS} that starts a frame ({@code GROUPS BETWEEN ...}, {@code GROUPS
 * UNBOUNDED PRECEDING}, {@code GROUPS CURRENT ROW}, {@code GROUPS n PRECEDING}) is replaced by
 * {@code ROWS} padded to the same length, so positions in error messages stay true, and its
 * position is remembered. After parsing, {@link WindowSyntax} finds the frames whose {@code ROWS}
 * stood at a remembered position and marks their bounds: every bound that is not UNBOUNDED
 * becomes an offset of {@link #OFFSET_MARK} plus its number of groups (CURRENT ROW is 0 groups
 * PRECEDING as a start, 0 FOLLOWING as an end). Such offsets pass Calcite's validation and
 * conversion as ROWS offsets and the physical planner reads them back as GROUPS. A genuine ROWS
 * offset that large is clamped below the mark (no partition has 2^40 rows, so it means the same).
 */
public final class GroupsFrames {
    /** Added to the offsets of a GROUPS frame; 2^40. */
    public static final long OFFSET_MARK = 1L << 40;

    private GroupsFrames() {}

    /** The SQL text to parse and the positions where {@code GROUPS} was replaced. */
    record Rewrite(String sql, Set<Position> positions) {
        static final Rewrite NONE = new Rewrite("", Set.of());

        boolean isGroups(SqlParserPos pos) {
            return !positions.isEmpty() && positions.contains(new Position(pos.getLineNum(), pos.getColumnNum()));
        }
    }

    /** A line and column (from 1) in the SQL text, as Calcite counts them. */
    record Position(int line, int column) {}

    static Rewrite rewrite(String sql) {
        if (!sql.toLowerCase(Locale.ROOT).contains("groups")) {
            return new Rewrite(sql, Set.of());
        }
        SqlTokens tokens = new SqlTokens(sql);
        StringBuilder out = new StringBuilder(sql);
        Set<Position> positions = new HashSet<>();
        for (int i = 0; i < tokens.size(); i++) {
            if (tokens.is(i, "groups") && startsFrame(tokens, i + 1)) {
                int start = tokens.start(i);
                out.replace(start, start + 6, "ROWS  ");
                positions.add(tokens.position(i));
            }
        }
        return new Rewrite(out.toString(), positions);
    }

    /** Whether the tokens from {@code i} continue a frame: BETWEEN bound, or a bound (UNBOUNDED, CURRENT ROW, n PRECEDING). */
    private static boolean startsFrame(SqlTokens tokens, int i) {
        if (tokens.is(i, "between")) {
            return isBound(tokens, i + 1);
        }
        return isBound(tokens, i);
    }

    private static boolean isBound(SqlTokens tokens, int i) {
        if (tokens.is(i, "unbounded")) {
            return tokens.is(i + 1, "preceding") || tokens.is(i + 1, "following");
        }
        if (tokens.is(i, "current")) {
            return tokens.is(i + 1, "row");
        }
        return tokens.isNumber(i) && (tokens.is(i + 1, "preceding") || tokens.is(i + 1, "following"));
    }
}
