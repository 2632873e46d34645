package dev.quiver.engine.expr.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Random;
import java.util.regex.Pattern;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

/** Every kind of compiled pattern against a regular expression of the same pattern, on random text. */
class LikeMatcherTest {
    private static final String[] PIECES = {"a", "b", "ab", "ba", "é", "€", "%", "_", "%", "\\%"};
    private static final String[] TEXT = {"a", "b", "é", "€", "%", "_"};

    @Test
    void agreesWithARegularExpressionOfThePattern() {
        Random random = new Random(42);
        try (BufferAllocator allocator = new RootAllocator(); ArrowBuf buffer = allocator.buffer(256)) {
            for (int p = 0; p < 3000; p++) {
                StringBuilder pattern = new StringBuilder();
                for (int i = random.nextInt(6); i > 0; i--) {
                    pattern.append(PIECES[random.nextInt(PIECES.length)]);
                }
                LikeMatcher matcher = LikeMatcher.compile(pattern.toString(), Optional.of('\\'));
                Pattern expected = regex(pattern.toString());
                for (int t = 0; t < 30; t++) {
                    StringBuilder text = new StringBuilder();
                    for (int i = random.nextInt(9); i > 0; i--) {
                        text.append(TEXT[random.nextInt(TEXT.length)]);
                    }
                    byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
                    // the value sits between other bytes, as in a string column's data buffer
                    int start = 7;
                    buffer.setBytes(0, "xxxxxxx".getBytes(StandardCharsets.UTF_8));
                    buffer.setBytes(start, bytes);
                    buffer.setBytes(start + bytes.length, "yyyyyyy".getBytes(StandardCharsets.UTF_8));
                    assertThat(matcher.matches(buffer, start, start + bytes.length)).as("'%s' LIKE '%s'", text, pattern)
                            .isEqualTo(expected.matcher(text).matches());
                }
            }
        }
    }

    @Test
    void piecesBetweenPercentsMatchInOrderWithoutOverlap() {
        try (BufferAllocator allocator = new RootAllocator(); ArrowBuf buffer = allocator.buffer(64)) {
            assertThat(matches(buffer, "special requests", "%special%requests%")).isTrue();
            assertThat(matches(buffer, "requests special", "%special%requests%")).isFalse();
            assertThat(matches(buffer, "ab", "ab%ab")).isFalse();
            assertThat(matches(buffer, "abab", "ab%ab")).isTrue();
            assertThat(matches(buffer, "aXbYc", "a%b%c")).isTrue();
            assertThat(matches(buffer, "aXbYcZ", "a%b%c")).isFalse();
            assertThat(matches(buffer, "Customer said Complaints", "%Customer%Complaints%")).isTrue();
        }
    }

    private static boolean matches(ArrowBuf buffer, String text, String pattern) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        buffer.setBytes(0, bytes);
        return LikeMatcher.compile(pattern, Optional.empty()).matches(buffer, 0, bytes.length);
    }

    /** {@code %} as any text, {@code _} as one character, {@code \} escaping the next. */
    private static Pattern regex(String like) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < like.length(); i++) {
            char c = like.charAt(i);
            if (c == '\\' && i + 1 < like.length()) {
                regex.append(Pattern.quote(String.valueOf(like.charAt(++i))));
            } else if (c == '%') {
                regex.append(".*");
            } else if (c == '_') {
                regex.append('.');
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }
}
