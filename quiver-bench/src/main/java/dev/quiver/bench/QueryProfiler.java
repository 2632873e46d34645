package dev.quiver.bench;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a query's time goes: runs work under a JDK Flight Recorder recording that samples the
 * stacks of running Java threads every {@value #SAMPLE_MILLIS} ms, and writes, per profiled name, the
 * recording ({@code NAME.jfr}, for JDK Mission Control or {@code jfr print}), its stacks in the
 * collapsed format that flamegraph.pl and speedscope draw as a flame graph ({@code
 * NAME.collapsed}), and a summary: the methods most often on top of the stack, and the samples
 * by Quiver component (the package of the innermost Quiver frame: a join, an aggregate, a scan,
 * expressions). JFR ships with the JDK, so profiling needs nothing installed; it cannot see
 * native code, so DuckDB is not profiled.
 */
public final class QueryProfiler {
    static final int SAMPLE_MILLIS = 10;
    private static final String QUIVER_PACKAGE = "dev.quiver.";
    private static final String ENGINE_PACKAGE = "dev.quiver.engine.";
    private static final String OUTSIDE_QUIVER = "outside Quiver (JDK, Arrow, Flight, Calcite)";

    private final Path directory;

    private QueryProfiler(Path directory) {
        this.directory = requireNonNull(directory, "directory is null");
    }

    /** A profiler writing into {@code directory}, made if missing. */
    public static QueryProfiler writingTo(Path directory) {
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the profile directory " + directory, e);
        }
        return new QueryProfiler(directory);
    }

    public Path directory() {
        return directory;
    }

    /** One method or component and its share of the samples. */
    public record Share(String name, long samples, double fraction) {
        public Share {
            requireNonNull(name, "name is null");
        }
    }

    /** The profile of one name: samples taken, the top methods (self time) and the components. */
    public record Profile(String name, long samples, List<Share> topMethods, List<Share> components, Path recording, Path collapsed) {
        public Profile {
            requireNonNull(name, "name is null");
            topMethods = List.copyOf(topMethods);
            components = List.copyOf(components);
            requireNonNull(recording, "recording is null");
            requireNonNull(collapsed, "collapsed is null");
        }
    }

    /** Runs {@code work} under a recording named {@code name}, then writes and summarizes it. */
    public Profile profile(String name, Runnable work) {
        Path recording = directory.resolve(name + ".jfr");
        try (Recording jfr = new Recording()) {
            jfr.setName("quiver-" + name);
            jfr.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(SAMPLE_MILLIS));
            jfr.start();
            try {
                work.run();
            } finally {
                jfr.stop();
                jfr.dump(recording);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the recording " + recording, e);
        }
        return summarize(name, recording);
    }

    private Profile summarize(String name, Path recording) {
        Map<String, Long> selfSamples = new HashMap<>();
        Map<String, Long> componentSamples = new HashMap<>();
        Map<String, Long> stacks = new LinkedHashMap<>();
        long samples = 0;
        try (RecordingFile file = new RecordingFile(recording)) {
            while (file.hasMoreEvents()) {
                RecordedEvent event = file.readEvent();
                RecordedStackTrace trace = event.getStackTrace();
                if (!event.getEventType().getName().equals("jdk.ExecutionSample") || trace == null || trace.getFrames().isEmpty()) {
                    continue;
                }
                samples++;
                List<RecordedFrame> frames = trace.getFrames();
                selfSamples.merge(method(frames.get(0)), 1L, Long::sum);
                componentSamples.merge(component(frames), 1L, Long::sum);
                stacks.merge(collapsed(frames), 1L, Long::sum);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the recording " + recording, e);
        }
        Path collapsed = directory.resolve(name + ".collapsed");
        List<String> lines = new ArrayList<>();
        stacks.forEach((stack, count) -> lines.add(stack + " " + count));
        try {
            Files.write(collapsed, lines, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + collapsed, e);
        }
        return new Profile(name, samples, top(selfSamples, samples, 10), top(componentSamples, samples, Integer.MAX_VALUE), recording, collapsed);
    }

    private static List<Share> top(Map<String, Long> counts, long total, int limit) {
        return counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()).thenComparing(Map.Entry.comparingByKey()))
                .limit(limit).map(e -> new Share(e.getKey(), e.getValue(), total == 0 ? 0 : (double) e.getValue() / total)).toList();
    }

    private static String method(RecordedFrame frame) {
        return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
    }

    /**
     * The package of the innermost Quiver frame, below {@code dev.quiver.engine} two levels deep
     * ({@code operator.join}, {@code source.parquet}, {@code expr}), elsewhere one level.
     */
    static String component(List<RecordedFrame> framesTopFirst) {
        for (RecordedFrame frame : framesTopFirst) {
            String type = frame.getMethod().getType().getName();
            if (type.startsWith(QUIVER_PACKAGE)) {
                return packageOf(type);
            }
        }
        return OUTSIDE_QUIVER;
    }

    static String packageOf(String className) {
        String packageName = className.substring(0, Math.max(0, className.lastIndexOf('.')));
        boolean engine = packageName.startsWith(ENGINE_PACKAGE);
        String rest = packageName.substring(engine ? ENGINE_PACKAGE.length() : QUIVER_PACKAGE.length());
        String[] parts = rest.split("\\.");
        int depth = engine ? Math.min(2, parts.length) : 1;
        return (engine ? "engine." : "") + String.join(".", List.of(parts).subList(0, depth));
    }

    private static String collapsed(List<RecordedFrame> framesTopFirst) {
        StringBuilder stack = new StringBuilder();
        for (int i = framesTopFirst.size() - 1; i >= 0; i--) {
            if (stack.length() > 0) {
                stack.append(';');
            }
            stack.append(method(framesTopFirst.get(i)).replace(' ', '_'));
        }
        return stack.toString();
    }
}
