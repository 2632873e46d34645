package dev.quiver.cli;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The command line that runs the {@code quiver} CLI in a JVM of its own, as the launcher would. */
final class CliProcess {
    private CliProcess() {}

    /** {@code java <the flags Quiver needs> -cp <the test class path> QuiverCli <jvmOptions...> args...}. */
    static List<String> javaCommand(List<String> jvmOptions, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String flag : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (flag.startsWith("--add-opens") || flag.startsWith("--enable-native-access") || flag.startsWith("--sun-misc-unsafe-memory-access")
                    || flag.startsWith("-XX:+IgnoreUnrecognizedVMOptions") || flag.startsWith("-Darrow")) {
                command.add(flag);
            }
        }
        command.add("-Xmx512m");
        command.add("-XX:MaxDirectMemorySize=512m");
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
        command.add(QuiverCli.class.getName());
        command.addAll(List.of(args));
        return command;
    }
}
