package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.source.tpch.TpchCatalog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every SQL example of docs/window-functions.md runs as written on the TPC-H tables, and the EXPLAIN example shows what it says. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WindowDocsTest {
    private static final Path PAGE = Path.of("..", "docs", "window-functions.md");
    private TpchCatalog catalog;

    @BeforeAll
    void start() {
        catalog = TpchCatalog.cached(0.01, 256L << 20);
    }

    @AfterAll
    void stop() {
        catalog.close();
    }

    Stream<String> examples() throws IOException {
        String page = Files.readString(PAGE, StandardCharsets.UTF_8);
        Matcher blocks = Pattern.compile("```sql\\n(.*?)```", Pattern.DOTALL).matcher(page);
        List<String> sql = new ArrayList<>();
        while (blocks.find()) {
            sql.add(blocks.group(1).strip());
        }
        assertThat(sql).as("SQL examples on the page").hasSizeGreaterThanOrEqualTo(5);
        return sql.stream();
    }

    @ParameterizedTest
    @MethodSource("examples")
    void exampleRuns(String sql) {
        try (QuerySession session = QuerySession.builder().catalog(catalog).targetPartitions(2).build()) {
            assertThat(session.executeScript(sql).rows()).as(sql).isNotEmpty();
        }
    }

    @Test
    void explainShowsTheWindowInAStageReadingAShuffleOnItsKeys() throws IOException {
        String page = Files.readString(PAGE, StandardCharsets.UTF_8);
        Matcher command = Pattern.compile("--local-workers 4 \"(explain [^\"]*)\"").matcher(page);
        assertThat(command.find()).isTrue();
        try (QuerySession session = QuerySession.builder().catalog(catalog).targetPartitions(2).localWorkers(4).build()) {
            String plan = (String) session.executeScript(command.group(1)).rows().get(0).get(0);
            assertThat(plan).containsPattern("(?s)WindowExec.*SortExec.*StageInputExec: stage=\\d+, shuffle Hash\\(\\[o_custkey");
        }
    }
}
