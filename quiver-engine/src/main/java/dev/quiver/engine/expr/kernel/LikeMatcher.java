package dev.quiver.engine.expr.kernel;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.ArrowBuf;

/**
 * A LIKE pattern compiled once. A pattern without wildcards compares bytes; one with {@code %}
 * but no {@code _} ({@code prefix%}, {@code %infix%}, {@code %special%requests%}, {@code a%b})
 * finds its literal pieces in turn, each at its leftmost place after the last; anything else runs a
 * backtracking wildcard matcher over the UTF-8 bytes, where {@code _} steps over one whole character.
 */
public final class LikeMatcher {
    private static final int PERCENT = -1;
    private static final int ANY_ONE = -2;

    private enum Kind { EXACT, SEGMENTS, GENERAL }

    private final Kind kind;
    private final int[] tokens;
    /**
     * The literal pieces between the {@code %}s, in order, none empty: for EXACT the one piece
     * (none for an empty pattern), for SEGMENTS those the text must hold in turn.
     */
    private final byte[][] segments;
    private final boolean anchoredStart;
    private final boolean anchoredEnd;

    private LikeMatcher(Kind kind, int[] tokens, byte[][] segments, boolean anchoredStart, boolean anchoredEnd) {
        this.kind = kind;
        this.tokens = tokens;
        this.segments = segments;
        this.anchoredStart = anchoredStart;
        this.anchoredEnd = anchoredEnd;
    }

    public static LikeMatcher compile(String pattern, Optional<Character> escape) {
        List<Integer> tokens = new ArrayList<>();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (escape.isPresent() && c == escape.get()) {
                if (i + 1 >= pattern.length()) {
                    throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "LIKE pattern ends with the escape character: " + pattern);
                }
                i++;
                int codePoint = pattern.codePointAt(i);
                i += Character.charCount(codePoint) - 1;
                addLiteral(tokens, new String(Character.toChars(codePoint)));
            } else if (c == '%') {
                if (tokens.isEmpty() || tokens.get(tokens.size() - 1) != PERCENT) {
                    tokens.add(PERCENT);
                }
            } else if (c == '_') {
                tokens.add(ANY_ONE);
            } else {
                int codePoint = pattern.codePointAt(i);
                i += Character.charCount(codePoint) - 1;
                addLiteral(tokens, new String(Character.toChars(codePoint)));
            }
        }
        int[] compiled = tokens.stream().mapToInt(Integer::intValue).toArray();
        if (tokens.contains(ANY_ONE)) {
            return new LikeMatcher(Kind.GENERAL, compiled, null, false, false);
        }
        if (!tokens.contains(PERCENT)) {
            return new LikeMatcher(Kind.EXACT, compiled, segments(compiled), true, true);
        }
        boolean leading = compiled[0] == PERCENT;
        boolean trailing = compiled[compiled.length - 1] == PERCENT;
        return new LikeMatcher(Kind.SEGMENTS, compiled, segments(compiled), !leading, !trailing);
    }

    /** The literal runs of {@code tokens} (bytes and {@code %} only), in order. */
    private static byte[][] segments(int[] tokens) {
        List<byte[]> pieces = new ArrayList<>();
        ByteArrayOutputStream piece = new ByteArrayOutputStream();
        for (int token : tokens) {
            if (token == PERCENT) {
                if (piece.size() > 0) {
                    pieces.add(piece.toByteArray());
                    piece.reset();
                }
            } else {
                piece.write(token);
            }
        }
        if (piece.size() > 0) {
            pieces.add(piece.toByteArray());
        }
        return pieces.toArray(new byte[0][]);
    }

    private static void addLiteral(List<Integer> tokens, String character) {
        for (byte b : character.getBytes(StandardCharsets.UTF_8)) {
            tokens.add(b & 0xFF);
        }
    }

    /** Whether the UTF-8 bytes {@code data[start, end)} match. */
    public boolean matches(ArrowBuf data, int start, int end) {
        return switch (kind) {
            case EXACT -> segments.length == 0 ? end == start
                    : end - start == segments[0].length && regionEquals(data, start, segments[0], 0, segments[0].length);
            case SEGMENTS -> segmentsMatch(data, start, end);
            case GENERAL -> general(data, start, end);
        };
    }

    private static boolean regionEquals(ArrowBuf data, int offset, byte[] bytes, int bytesOffset, int count) {
        for (int k = 0; k < count; k++) {
            if (data.getByte(offset + k) != bytes[bytesOffset + k]) {
                return false;
            }
        }
        return true;
    }

    /** Where {@code bytes} first occurs in {@code data[start, end)}, or -1. */
    private static int indexOf(ArrowBuf data, int start, int end, byte[] bytes) {
        if (bytes.length == 0) {
            return start;
        }
        byte first = bytes[0];
        for (int i = start; i <= end - bytes.length; i++) {
            if (data.getByte(i) == first && regionEquals(data, i + 1, bytes, 1, bytes.length - 1)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Pieces separated by {@code %}: the first at the start when anchored there, the last at the end
     * when anchored there, each other at its leftmost place after the one before. Taking the leftmost
     * place never loses a match, since a later piece can only gain from more text after it.
     */
    private boolean segmentsMatch(ArrowBuf data, int start, int end) {
        int position = start;
        int first = 0;
        int last = segments.length;
        if (anchoredStart) {
            byte[] head = segments[0];
            if (end - start < head.length || !regionEquals(data, start, head, 0, head.length)) {
                return false;
            }
            position += head.length;
            first = 1;
        }
        int tailStart = end;
        if (anchoredEnd) {
            byte[] tail = segments[segments.length - 1];
            tailStart = end - tail.length;
            if (tailStart < position || !regionEquals(data, tailStart, tail, 0, tail.length)) {
                return false;
            }
            last--;
        }
        for (int k = first; k < last; k++) {
            int at = indexOf(data, position, tailStart, segments[k]);
            if (at < 0) {
                return false;
            }
            position = at + segments[k].length;
        }
        return true;
    }

    /** Greedy matching with backtracking to the last {@code %}: linear in practice, O(n*m) at worst. */
    private boolean general(ArrowBuf data, int start, int end) {
        int i = start;
        int j = 0;
        int starToken = -1;
        int starText = -1;
        int n = tokens.length;
        while (i < end) {
            if (j < n && tokens[j] == ANY_ONE) {
                i += charLength(data.getByte(i));
                j++;
            } else if (j < n && tokens[j] >= 0 && tokens[j] == (data.getByte(i) & 0xFF)) {
                i++;
                j++;
            } else if (j < n && tokens[j] == PERCENT) {
                starToken = j++;
                starText = i;
            } else if (starToken >= 0) {
                j = starToken + 1;
                starText += charLength(data.getByte(starText));
                i = starText;
            } else {
                return false;
            }
        }
        while (j < n && tokens[j] == PERCENT) {
            j++;
        }
        return j == n && i == end;
    }

    static int charLength(byte lead) {
        int b = lead & 0xFF;
        if (b < 0x80) {
            return 1;
        }
        if (b >= 0xF0) {
            return 4;
        }
        if (b >= 0xE0) {
            return 3;
        }
        return b >= 0xC0 ? 2 : 1;
    }
}
