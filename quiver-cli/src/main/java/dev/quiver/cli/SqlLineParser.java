package dev.quiver.cli;

import dev.quiver.session.ScriptStatement;
import java.util.List;
import org.jline.reader.CompletingParsedLine;
import org.jline.reader.EOFError;
import org.jline.reader.ParsedLine;
import org.jline.reader.Parser;

/**
 * How the shell's line reader sees its buffer. On Enter, SQL is accepted only once it ends with a
 * {@code ;} outside quotes and comments ({@link ScriptStatement#endsStatement}); before that the
 * reader asks for another line under the continuation prompt. A meta command ({@code .tables},
 * {@code \d}) and an empty line are accepted at once. For completion, the word under the cursor is
 * the identifier-like run of characters before it, so that {@code count(l_} completes {@code l_}.
 */
final class SqlLineParser implements Parser {
    @Override
    public ParsedLine parse(String line, int cursor, ParseContext context) {
        if (context == ParseContext.ACCEPT_LINE && !isComplete(line)) {
            throw new EOFError(-1, -1, "the statement does not end with ;", "...");
        }
        return new Word(line, cursor);
    }

    /** Whether Enter runs {@code buffer}: a blank line, a meta command, or SQL ending with {@code ;}. */
    static boolean isComplete(String buffer) {
        String text = buffer.strip();
        return text.isEmpty() || MetaCommands.isMetaCommand(text) || ScriptStatement.endsStatement(text);
    }

    static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$' || c == '.';
    }

    /** The buffer with the word ending at the cursor. */
    private static final class Word implements CompletingParsedLine {
        private final String line;
        private final int cursor;
        private final int wordStart;

        Word(String line, int cursor) {
            this.line = line;
            this.cursor = Math.max(0, Math.min(cursor, line.length()));
            int start = this.cursor;
            while (start > 0 && isWordChar(line.charAt(start - 1))) {
                start--;
            }
            this.wordStart = start;
        }

        @Override
        public String word() {
            return line.substring(wordStart, cursor);
        }

        @Override
        public int wordCursor() {
            return cursor - wordStart;
        }

        @Override
        public int wordIndex() {
            return 0;
        }

        @Override
        public List<String> words() {
            return List.of(word());
        }

        @Override
        public String line() {
            return line;
        }

        @Override
        public int cursor() {
            return cursor;
        }

        @Override
        public CharSequence escape(CharSequence candidate, boolean complete) {
            return candidate;
        }

        @Override
        public int rawWordCursor() {
            return wordCursor();
        }

        @Override
        public int rawWordLength() {
            return word().length();
        }
    }
}
