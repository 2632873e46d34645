package dev.quiver.engine.operator.sort;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.expr.PhysicalExpr;

/** One ORDER BY key: an expression, its direction and where its NULLs go. */
public record SortKey(PhysicalExpr expr, boolean ascending, boolean nullsFirst) {
    public SortKey {
        requireNonNull(expr, "expr is null");
    }

    public String display() {
        return expr.display() + (ascending ? " ASC" : " DESC") + (nullsFirst ? " NULLS FIRST" : " NULLS LAST");
    }
}
