package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * One statement of a script as {@link #split} finds it: its text (comments blanked, without the
 * {@code ;}) and where it starts in the script, so that an error in it reports the line and column of
 * the script ({@link QuerySession#execute(ScriptStatement)}).
 *
 * @param script the whole script the statement was split from
 * @param offset where {@code text} starts in {@code script}
 * @param text the statement's SQL
 */
public record ScriptStatement(String script, int offset, String text) {
    public ScriptStatement {
        requireNonNull(script, "script is null");
        requireNonNull(text, "text is null");
        if (offset < 0 || offset > script.length()) {
            throw new IllegalArgumentException("offset " + offset + " is outside the script of " + script.length() + " characters");
        }
    }

    /**
     * The statements of {@code script}, in order: split on semicolons outside quotes, with
     * {@code --} and {@code /* *}{@code /} comments blanked and empty statements dropped.
     */
    public static List<ScriptStatement> split(String script) {
        requireNonNull(script, "script is null");
        return StatementParser.pieces(script).stream()
                .map(piece -> new ScriptStatement(script, piece.offset(), piece.text()))
                .toList();
    }

    /**
     * Whether {@code text} ends a statement: its last character outside comments is a {@code ;}
     * that is not inside quotes. An interactive shell reads more lines until this holds.
     */
    public static boolean endsStatement(String text) {
        return StatementParser.endsWithTerminator(requireNonNull(text, "text is null"));
    }
}
