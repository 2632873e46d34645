package dev.quiver.engine.memory;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses and prints byte sizes: {@code 512MiB}, {@code 3g}, {@code 1.5 GiB}, {@code 1024}. */
public final class ByteSize {
    private static final Pattern SIZE = Pattern.compile("(?i)\\s*(\\d+(?:\\.\\d+)?)\\s*([kmgtp]?)(i?b?)\\s*");
    private static final String[] UNITS = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

    private ByteSize() {}

    /** Parses a size; the suffixes k, m, g, t, p are binary (powers of 1024), with or without "iB"/"B". */
    public static long parseBytes(String text) {
        Matcher matcher = SIZE.matcher(text);
        if (!matcher.matches()) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT,
                    "Invalid size '" + text + "': expected a number with an optional unit such as 512MiB or 3GiB");
        }
        double number = Double.parseDouble(matcher.group(1));
        int shift = switch (matcher.group(2).toLowerCase(Locale.ROOT)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            case "t" -> 40;
            case "p" -> 50;
            default -> 0;
        };
        return (long) (number * (1L << shift));
    }

    /** Renders a byte count: {@code 12.0 MiB}. */
    public static String formatBytes(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        double value = bytes;
        int unit = -1;
        while (value >= 1024 && unit < UNITS.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %s", value, UNITS[unit]);
    }
}
