package dev.quiver.session.distributed;

import dev.quiver.distributed.protocol.QuiverVersion;
import dev.quiver.distributed.worker.WorkerServer;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.session.SqlPlanCodec;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * A worker process for tests: starts a {@link WorkerServer} on 127.0.0.1 (a free port; or on the
 * host and port given as the two arguments) that decodes
 * the SQL layer's plans, prints {@code LISTENING host:port}, answers each {@code status} line on
 * stdin with {@code STATUS tasks=N pool=BYTES}, and stops when stdin closes.
 */
public final class WorkerProcessMain {
    static final String LISTENING = "LISTENING ";
    static final String STATUS = "STATUS ";

    private WorkerProcessMain() {}

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        try (TpchCatalog small = TpchCatalog.cached(0.01, 256L << 20);
                WorkerServer server = WorkerServer.builder().name("worker-process").version(QuiverVersion.CURRENT)
                        .host(args.length == 2 ? args[0] : "127.0.0.1").port(args.length == 2 ? Integer.parseInt(args[1]) : 0)
                        .codec(SqlPlanCodec.builder().tpchCatalogs(sf -> sf == small.scaleFactor() ? small : new TpchCatalog(sf)).build())
                        .start()) {
            out.println(LISTENING + server.address());
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null) {
                if (line.strip().equals("status")) {
                    out.println(STATUS + "tasks=" + server.activeTasks() + " pool=" + server.poolUsedBytes());
                }
            }
        }
    }
}
