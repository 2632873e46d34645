package dev.quiver.session;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A second process for {@link CatalogDirectoryTest}: opens a session over the catalog directory
 * given as its argument, says {@code ready}, and holds it until its standard input closes.
 */
public final class CatalogLockHolder {
    private CatalogLockHolder() {}

    public static void main(String[] args) throws IOException {
        try (QuerySession session = QuerySession.builder().catalog(new MemoryCatalog()).catalogDirectory(Path.of(args[0])).build()) {
            System.out.println("ready");
            System.out.flush();
            while (System.in.read() >= 0) {
                // hold the directory until the test closes our input
            }
        }
    }
}
