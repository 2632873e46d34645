package dev.quiver.session.sqllogic;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The update mode's edit of a file: each query record given a DuckDB result gets a header with
 * DuckDB's type letters and its rows after {@code ----} (sorted for {@code rowsort}); every other
 * line (comments, SQL, error records) stays as it was.
 */
final class SltRewriter {
    private SltRewriter() {}

    static List<String> rewrite(List<String> lines, Map<SltRecord.Query, DuckDbDatabase.Result> results) {
        List<SltRecord.Query> queries = new ArrayList<>(results.keySet());
        queries.sort(Comparator.comparingInt(q -> q.lines().header()));
        List<String> out = new ArrayList<>(lines.size());
        int copied = 0;
        for (SltRecord.Query query : queries) {
            SltRecord.Lines at = query.lines();
            out.addAll(lines.subList(copied, at.header()));
            DuckDbDatabase.Result result = results.get(query);
            out.add("query " + ResultMatcher.letters(result.types()) + " " + query.sortMode().label());
            int sqlEnd = at.separator() >= 0 ? at.separator() : at.end();
            out.addAll(lines.subList(at.header() + 1, sqlEnd));
            out.add(SltParser.SEPARATOR);
            out.addAll(ResultMatcher.arranged(result.lines(), query.sortMode()));
            copied = at.end();
        }
        out.addAll(lines.subList(copied, lines.size()));
        return out;
    }
}
