package dev.quiver.session;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of a JVM like this test's, for tests that need a second process (a worker, the
 * CLI, a lock holder): the same java, class path and the JVM flags Arrow and Flight need.
 */
public final class JavaCommand {
    private JavaCommand() {}

    /** {@code java [flags] -Xmx768m -cp <test class path> mainClass args...}. */
    public static List<String> of(Class<?> mainClass, String... args) {
        return of(List.of(), mainClass, args);
    }

    /** {@code java [flags] -Xmx768m jvmOptions... -cp <test class path> mainClass args...}, e.g. with {@code -Duser.home=DIR}. */
    public static List<String> of(List<String> jvmOptions, Class<?> mainClass, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String flag : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (flag.startsWith("--add-opens") || flag.startsWith("--enable-native-access") || flag.startsWith("--sun-misc-unsafe-memory-access")
                    || flag.startsWith("-XX:+IgnoreUnrecognizedVMOptions") || flag.startsWith("-Darrow")) {
                command.add(flag);
            }
        }
        command.add("-Xmx768m");
        command.add("-XX:MaxDirectMemorySize=768m");
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")).replace(File.pathSeparator + File.pathSeparator, File.pathSeparator));
        command.add(mainClass.getName());
        command.addAll(List.of(args));
        return command;
    }
}
