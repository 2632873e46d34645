package dev.quiver.cli;

import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** How {@code quiver sql --server} authenticates and whether it speaks TLS; see docs/server.md. */
final class ServerClientOptions {
    @Option(names = "--user", paramLabel = "NAME",
            description = "With --server: log in as NAME; the password comes from --password-file or $QUIVER_PASSWORD.")
    private String user;

    @Option(names = "--password-file", paramLabel = "FILE", description = "With --server and --user: the password, in FILE.")
    private Path passwordFile;

    @Option(names = "--token-file", paramLabel = "FILE", description = "With --server: present the bearer token in FILE.")
    private Path tokenFile;

    @Option(names = "--tls-trust", paramLabel = "FILE",
            description = "With --server: connect with TLS, trusting the PEM certificate(s) in FILE (the server's, or its CA's).")
    private Path tlsTrust;

    Optional<String> user() {
        return Optional.ofNullable(user);
    }

    Optional<String> password() {
        return passwordFile != null ? Optional.of(ClusterSecrets.text(passwordFile)) : Optional.ofNullable(System.getenv("QUIVER_PASSWORD"));
    }

    Optional<String> token() {
        return Optional.ofNullable(tokenFile).map(ClusterSecrets::text);
    }

    Optional<Path> tlsTrust() {
        return Optional.ofNullable(tlsTrust);
    }
}
