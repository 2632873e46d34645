package dev.quiver.session.distributed;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.coordinator.discovery.WorkerResolvers;
import dev.quiver.distributed.coordinator.spi.QueryEvent;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.session.QuerySession;
import dev.quiver.session.tpch.AnswerFile;
import dev.quiver.session.tpch.ResultComparator;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.TreeSet;

/**
 * A coordinator process for discovery tests, for what must be set as its JVM starts (a hosts file,
 * {@code -Djdk.net.hosts.file}): a session over TPC-H SF 0.01 on the workers of its one argument
 * ({@code --workers} form, e.g. {@code dns:quiver-workers:7070}). For each line {@code N} on stdin
 * it runs TPC-H query N (not a script: not 15) and prints {@code RESULT qN ok|mismatch: ...|error: CODE: ... workers=[...] skipped=[...]}
 * (the workers its tasks were dispatched to, those left out); it prints {@code READY} first and stops when stdin closes.
 */
public final class DiscoveryCoordinatorMain {
    static final String READY = "READY";
    static final String RESULT = "RESULT ";

    private DiscoveryCoordinatorMain() {}

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        try (TpchCatalog catalog = TpchCatalog.cached(0.01, 256L << 20);
                QuerySession session = QuerySession.builder().catalog(catalog).targetPartitions(2).workers(WorkerResolvers.parse(List.of(args[0])))
                        // every stage as many tasks as there are workers, so that each query uses them all
                        .set(DistributedSettings.BYTES_PER_PARTITION_FOR_SCANS, 1024L).build()) {
            out.println(READY);
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null) {
                int query = Integer.parseInt(line.strip());
                out.println(RESULT + "q" + query + " " + run(session, query));
            }
        }
    }

    private static String run(QuerySession session, int query) {
        DistributedRun run;
        try {
            run = DistributedRun.script(session, TpchQueries.query(query));
        } catch (QuiverException e) {
            return "error: " + e.errorCode() + ": " + e.getMessage().replace('\n', ' ');
        }
        String verdict = ResultComparator.difference(run.result().schema(), run.result().rows(), AnswerFile.parse(TpchQueries.answer(query)).rows())
                .map(difference -> "mismatch: " + difference.replace('\n', ' ')).orElse("ok");
        TreeSet<String> workers = new TreeSet<>();
        TreeSet<String> skipped = new TreeSet<>();
        for (QueryEvent event : run.events()) {
            if (event instanceof QueryEvent.StageDispatched dispatched) {
                dispatched.taskWorkers().forEach(worker -> workers.add(worker.toString()));
            } else if (event instanceof QueryEvent.WorkerSkipped skip) {
                skipped.add(skip.worker().toString());
            }
        }
        return verdict + " workers=" + workers + " skipped=" + skipped;
    }
}
