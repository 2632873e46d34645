package dev.quiver.bench;

import java.io.PrintStream;
import java.util.Locale;
import java.util.stream.Collectors;

/** The lines a profiled query adds to the benchmark's output. */
final class ProfileSummary {
    /** Components below this share of the samples are left out of the line. */
    private static final double SHOWN_COMPONENT = 0.02;
    private static final int SHOWN_METHODS = 5;

    private ProfileSummary() {}

    static void print(PrintStream out, QueryProfiler.Profile profile, int runs) {
        out.printf(Locale.ROOT, "     %s profile: %d samples of %d ms over %d runs, all threads%n", profile.name(), profile.samples(),
                QueryProfiler.SAMPLE_MILLIS, runs);
        out.println("       by component: " + profile.components().stream().filter(s -> s.fraction() >= SHOWN_COMPONENT)
                .map(ProfileSummary::share).collect(Collectors.joining(", ")));
        out.println("       top methods:  " + profile.topMethods().stream().limit(SHOWN_METHODS).map(ProfileSummary::share)
                .collect(Collectors.joining(", ")));
        out.flush();
    }

    private static String share(QueryProfiler.Share share) {
        return String.format(Locale.ROOT, "%s %.0f%%", shortName(share.name()), share.fraction() * 100);
    }

    /**
     * A Quiver method without its package ({@code HashProbe.start}); others keep theirs, as two
     * libraries may have a class of the same name ({@code jdk.internal.misc.Unsafe}, {@code sun.misc.Unsafe}).
     */
    private static String shortName(String name) {
        int method = name.lastIndexOf('.');
        int type = method > 0 ? name.lastIndexOf('.', method - 1) : -1;
        return name.startsWith("dev.quiver.") && type >= 0 ? name.substring(type + 1) : name;
    }
}
