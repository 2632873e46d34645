package dev.quiver.distributed.coordinator.discovery;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Reads the forms {@code --workers} takes, each element of its comma-separated list one of:
 * <ul>
 *   <li>{@code host:port} — one worker ({@link StaticWorkerResolver}, the {@code host:port}
 *       elements together);</li>
 *   <li>{@code dns:NAME:PORT} — every address of a DNS name ({@link DnsWorkerResolver});</li>
 *   <li>{@code file:PATH} — the {@code host:port} lines of a file, read before every query
 *       ({@link FileWorkerResolver}).</li>
 * </ul>
 * Several elements resolve to the union of their workers, in order, each worker once.
 */
public final class WorkerResolvers {
    private WorkerResolvers() {}

    /** The resolver of {@code elements}, e.g. {@code ["dns:quiver-workers:7070"]} or {@code ["h1:7070", "h2:7070"]}. */
    public static WorkerResolver parse(List<String> elements) {
        requireNonNull(elements, "elements is null");
        if (elements.isEmpty()) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "no worker given: write host:port,..., dns:NAME:PORT or file:PATH");
        }
        List<WorkerAddress> listed = new ArrayList<>();
        List<WorkerResolver> resolvers = new ArrayList<>();
        for (String element : elements) {
            String text = requireNonNull(element, "element is null").trim();
            if (text.startsWith("dns:")) {
                WorkerAddress nameAndPort = WorkerAddress.parse(text.substring("dns:".length()));
                resolvers.add(new DnsWorkerResolver(nameAndPort.host(), nameAndPort.port()));
            } else if (text.startsWith("file:")) {
                String path = text.substring("file:".length());
                if (path.isBlank()) {
                    throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "'" + text + "' names no file: write file:PATH");
                }
                resolvers.add(new FileWorkerResolver(Path.of(path)));
            } else {
                listed.add(WorkerAddress.parse(text));
            }
        }
        if (!listed.isEmpty()) {
            resolvers.add(0, new StaticWorkerResolver(listed));
        }
        return resolvers.size() == 1 ? resolvers.get(0) : new Union(resolvers);
    }

    /** Several resolvers' workers, in order, each once. */
    private record Union(List<WorkerResolver> parts) implements WorkerResolver {
        Union {
            parts = List.copyOf(parts);
        }

        @Override
        public List<WorkerAddress> resolve() {
            LinkedHashSet<WorkerAddress> workers = new LinkedHashSet<>();
            parts.forEach(part -> workers.addAll(part.resolve()));
            return List.copyOf(workers);
        }

        @Override
        public String describe() {
            return parts.stream().map(WorkerResolver::describe).collect(Collectors.joining(","));
        }
    }
}
