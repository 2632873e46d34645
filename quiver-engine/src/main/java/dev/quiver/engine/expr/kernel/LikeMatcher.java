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
 * A LIKE pattern compiled once: exact, prefix%, %suffix and %infix% patterns compare bytes
 * directly; other patterns without {@code _} ({@code %special%requests%}, {@code a%b}) find their
 * literal pieces in turn, each at its leftmost place after the last; anything else runs a
 * backtracking wildcard matcher over the UTF-8 bytes, where {@code _} steps over one whole character.
 */
public final class LikeMatcher {
    private static final int PERCENT = -1;
    private static final int ANY_ONE = -2;

    private enum Kind { EXACT, PREFIX, SUFFIX, CONTAINS, ANY, SEGMENTS, GENERAL }

    private final Kind kind;
    private final byte[] literal;
    private final int[] tokens;
    /** For SEGMENTS: the literal pieces between the {@code %}s, in order, none empty. */
    private final byte[][] segments;
    private final boolean anchoredStart;
    private final boolean anchoredEnd;

    private LikeMatcher(Kind kind, byte[] literal, int[] tokens) {
        this(kind, literal, tokens, null, false, false);
    }

    private LikeMatcher(Kind kind, byte[] literal, int[] tokens, byte[][] segments, boolean anchoredStart, boolean anchoredEnd) {
        this.kind = kind;
        this.literal = literal;
        this.tokens = tokens;
        this.segments = segments;
        this.anchoredStart = anchoredStart;
        this.anchoredEnd = anchoredEnd;
    }

    public static LikeMatcher compile(String pattern, Optional<Character> escape) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
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
        int percents = 0;
        boolean anyOne = false;
        for (int token : compiled) {
            percents += token == PERCENT ? 1 : 0;
            anyOne |= token == ANY_ONE;
        }
        if (!anyOne) {
            boolean leading = compiled.length > 0 && compiled[0] == PERCENT;
            boolean trailing = compiled.length > 0 && compiled[compiled.length - 1] == PERCENT;
            for (int token : compiled) {
                if (token >= 0) {
                    bytes.write(token);
                }
            }
            byte[] literal = bytes.toByteArray();
            if (percents == 0) {
                return new LikeMatcher(Kind.EXACT, literal, compiled);
            }
            if (percents == 1 && compiled.length == 1) {
                return new LikeMatcher(Kind.ANY, literal, compiled);
            }
            if (percents == 1 && trailing) {
                return new LikeMatcher(Kind.PREFIX, literal, compiled);
            }
            if (percents == 1 && leading) {
                return new LikeMatcher(Kind.SUFFIX, literal, compiled);
            }
            if (percents == 2 && leading && trailing) {
                return new LikeMatcher(Kind.CONTAINS, literal, compiled);
            }
            return new LikeMatcher(Kind.SEGMENTS, null, compiled, segments(compiled), !leading, !trailing);
        }
        return new LikeMatcher(Kind.GENERAL, null, compiled);
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
        int length = end - start;
        return switch (kind) {
            case ANY -> true;
            case EXACT -> length == literal.length && regionEquals(data, start, 0, literal.length);
            case PREFIX -> length >= literal.length && regionEquals(data, start, 0, literal.length);
            case SUFFIX -> length >= literal.length && regionEquals(data, end - literal.length, 0, literal.length);
            case CONTAINS -> indexOf(data, start, end, literal) >= 0;
            case SEGMENTS -> segmentsMatch(data, start, end);
            case GENERAL -> general(data, start, end);
        };
    }

    private boolean regionEquals(ArrowBuf data, int offset, int literalOffset, int count) {
        return regionEquals(data, offset, literal, literalOffset, count);
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
