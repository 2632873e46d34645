package dev.quiver.cli;

import dev.quiver.session.JavaCommand;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** {@code quiver worker OPTIONS} in its own process, as a user starts it; its address read from its first line. */
final class QuiverWorkerProcess implements AutoCloseable {
    private static final String LISTENING = " listening on ";

    private final Process process;
    private final BufferedReader out;
    private final Path log;
    private final String banner;

    private QuiverWorkerProcess(Process process, Path log) throws IOException {
        this.process = process;
        this.log = log;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.banner = out.readLine();
        if (banner == null || !banner.contains(LISTENING)) {
            throw new IllegalStateException("the worker did not start; first line " + banner + ", its log: " + Files.readString(log));
        }
    }

    static QuiverWorkerProcess start(String... options) throws IOException {
        List<String> args = new ArrayList<>(List.of("worker"));
        args.addAll(List.of(options));
        Path log = Files.createTempFile("quiver-worker-", ".log");
        Process process = new ProcessBuilder(JavaCommand.of(QuiverCli.class, args.toArray(String[]::new))).redirectError(log.toFile()).start();
        try {
            return new QuiverWorkerProcess(process, log);
        } catch (IOException | RuntimeException e) {
            process.destroyForcibly();
            Files.deleteIfExists(log);
            throw e;
        }
    }

    /** The first line the worker printed: {@code Quiver worker ... listening on HOST:PORT ...}. */
    String banner() {
        return banner;
    }

    String address() {
        return banner.substring(banner.indexOf(LISTENING) + LISTENING.length()).split(" ")[0];
    }

    Process process() {
        return process;
    }

    /** The worker's standard output after its first line. */
    BufferedReader out() {
        return out;
    }

    String log() throws IOException {
        return Files.readString(log);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
        out.close();
        Files.deleteIfExists(log);
    }
}
