package dev.quiver.image;

import java.nio.file.Files;
import java.nio.file.Path;

/** What the image tests need of this machine: tools that run the image or check its files. */
final class HostTools {
    private HostTools() {}

    /** Whether {@code tool} is an executable in a directory of {@code PATH}. */
    static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }
}
