package dev.quiver.session.distributed;

import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.session.ChildOutput;
import dev.quiver.session.JavaCommand;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@link WorkerProcessMain} in its own JVM, started with this test JVM's class path and the
 * JVM flags of the surefire argLine that Arrow and Flight need.
 */
final class WorkerProcess implements AutoCloseable {
    private final Process process;
    private final BufferedReader stdout;
    private final PrintStream stdin;
    private final WorkerAddress address;
    private final Path log;

    private WorkerProcess(Process process, Path log) throws IOException {
        this.process = process;
        this.log = log;
        this.stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.stdin = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
        String line = ChildOutput.awaitLine(stdout, l -> l.startsWith(WorkerProcessMain.LISTENING), log, "worker process before it listened");
        this.address = WorkerAddress.parse(line.substring(WorkerProcessMain.LISTENING.length()).strip());
    }

    static WorkerProcess start() throws IOException {
        return start(JavaCommand.of(WorkerProcessMain.class));
    }

    /** A worker listening on {@code host:port} (e.g. 127.0.0.2, a loopback address of its own, on the port the others use). */
    static WorkerProcess start(String host, int port) throws IOException {
        return start(JavaCommand.of(WorkerProcessMain.class, host, Integer.toString(port)));
    }

    /**
     * A worker listening on {@code host} (a free port), its command line run behind {@code prefix}
     * (e.g. {@code ip netns exec NAME}, to run it in another network namespace).
     */
    static WorkerProcess start(List<String> prefix, String host) throws IOException {
        List<String> command = new ArrayList<>(prefix);
        command.addAll(JavaCommand.of(WorkerProcessMain.class, host, "0"));
        return start(command);
    }

    private static WorkerProcess start(List<String> command) throws IOException {
        Path log = Files.createTempFile("quiver-worker-", ".log");
        Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
        try {
            return new WorkerProcess(process, log);
        } catch (IOException | RuntimeException e) {
            process.destroyForcibly();
            throw e;
        }
    }

    WorkerAddress address() {
        return address;
    }

    /** How many tasks the worker still holds, asked over stdin. */
    int activeTasks() {
        String line = status();
        return Integer.parseInt(line.substring(line.indexOf("tasks=") + 6, line.indexOf(' ', line.indexOf("tasks="))));
    }

    /** The bytes the worker's memory pool has handed out and not got back, asked over stdin. */
    long poolUsedBytes() {
        String line = status();
        return Long.parseLong(line.substring(line.indexOf("pool=") + 5).strip());
    }

    private String status() {
        stdin.println("status");
        try {
            String line;
            while ((line = stdout.readLine()) != null) {
                if (line.startsWith(WorkerProcessMain.STATUS)) {
                    return line;
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("the worker at " + address + " did not answer", e);
        }
        throw new IllegalStateException("the worker at " + address + " ended");
    }

    /** Freezes the process (SIGSTOP): its connections stay open but it answers nothing, as a hung machine would. */
    void freeze() throws IOException, InterruptedException {
        Process stop = new ProcessBuilder("kill", "-STOP", Long.toString(process.pid())).start();
        stop.waitFor(10, TimeUnit.SECONDS);
    }

    /** Kills the process at once, as a crash would. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws Exception {
        stdin.close();
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        Files.deleteIfExists(log);
    }
}
