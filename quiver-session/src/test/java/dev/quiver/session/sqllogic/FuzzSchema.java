package dev.quiver.session.sqllogic;

import java.util.List;

/**
 * What the differential fuzzer knows of the suite's tables ({@link SuiteData}): each table's columns
 * with a kind, and which columns may take arithmetic without overflowing (the {@code edge} table's
 * integers sit at their limits, so its columns are only compared, grouped and aggregated).
 */
final class FuzzSchema {
    /** The kinds of value the generator builds expressions of. */
    enum Kind {
        INTEGER, BIGINT, DECIMAL, DOUBLE, TEXT, DATE, BOOLEAN;

        boolean isNumeric() {
            return this == INTEGER || this == BIGINT || this == DECIMAL || this == DOUBLE;
        }

        /** Kinds that compare with each other without a cast. */
        boolean comparesWith(Kind other) {
            return this == other || (isNumeric() && other.isNumeric());
        }
    }

    /** A column; {@code arithmetic} if its values are small enough to add and multiply. */
    record FuzzColumn(String name, Kind kind, boolean arithmetic) {}

    /** A table, and the columns other tables join it on (same kind, overlapping values). */
    record FuzzTable(String name, List<FuzzColumn> columns, List<String> joinKeys) {
        /** Whether a cross join with it stays small (at most a few dozen rows). */
        boolean small() {
            return !List.of("part", "supplier", "customer", "orders").contains(name);
        }

        FuzzColumn column(String column) {
            return columns.stream().filter(c -> c.name().equals(column)).findFirst().orElseThrow();
        }
    }

    static final List<FuzzTable> TABLES = List.of(
            new FuzzTable("t1", List.of(col("id", Kind.INTEGER), col("k", Kind.BIGINT), col("name", Kind.TEXT), col("amount", Kind.DECIMAL),
                    col("d", Kind.DATE), col("flag", Kind.BOOLEAN)), List.of("k", "id")),
            new FuzzTable("t2", List.of(col("k", Kind.BIGINT), col("v", Kind.TEXT), col("qty", Kind.INTEGER)), List.of("k", "qty")),
            new FuzzTable("l", List.of(col("a", Kind.INTEGER), col("b", Kind.TEXT), col("y", Kind.BIGINT)), List.of("a", "b")),
            new FuzzTable("r", List.of(col("a", Kind.INTEGER), col("b", Kind.TEXT), col("z", Kind.BIGINT)), List.of("a", "b")),
            new FuzzTable("edge", List.of(limit("id", Kind.INTEGER), limit("i", Kind.INTEGER), limit("bi", Kind.BIGINT), limit("d", Kind.DOUBLE),
                    limit("dec", Kind.DECIMAL), limit("s", Kind.TEXT), limit("dt", Kind.DATE), limit("b", Kind.BOOLEAN)), List.of("id", "i")),
            new FuzzTable("floats", List.of(limit("id", Kind.INTEGER), limit("f", Kind.DOUBLE)), List.of("id")),
            new FuzzTable("nation", List.of(col("n_nationkey", Kind.BIGINT), col("n_name", Kind.TEXT), col("n_regionkey", Kind.BIGINT)),
                    List.of("n_nationkey", "n_regionkey")),
            new FuzzTable("region", List.of(col("r_regionkey", Kind.BIGINT), col("r_name", Kind.TEXT)), List.of("r_regionkey")),
            new FuzzTable("supplier", List.of(col("s_suppkey", Kind.BIGINT), col("s_name", Kind.TEXT), col("s_nationkey", Kind.BIGINT),
                    col("s_acctbal", Kind.DECIMAL)), List.of("s_nationkey", "s_suppkey")),
            new FuzzTable("part", List.of(col("p_partkey", Kind.BIGINT), col("p_brand", Kind.TEXT), col("p_size", Kind.INTEGER),
                    col("p_retailprice", Kind.DECIMAL)), List.of("p_partkey")),
            // joined only on their unique keys, so that a chain of joins stays at most as long as its first table
            new FuzzTable("customer", List.of(col("c_custkey", Kind.BIGINT), col("c_name", Kind.TEXT), col("c_nationkey", Kind.BIGINT),
                    col("c_acctbal", Kind.DECIMAL), col("c_mktsegment", Kind.TEXT)), List.of("c_custkey")),
            new FuzzTable("orders", List.of(col("o_orderkey", Kind.BIGINT), col("o_custkey", Kind.BIGINT), col("o_orderstatus", Kind.TEXT),
                    col("o_totalprice", Kind.DECIMAL), col("o_orderdate", Kind.DATE), col("o_shippriority", Kind.INTEGER)),
                    List.of("o_orderkey")));

    private FuzzSchema() {}

    private static FuzzColumn col(String name, Kind kind) {
        return new FuzzColumn(name, kind, true);
    }

    private static FuzzColumn limit(String name, Kind kind) {
        return new FuzzColumn(name, kind, false);
    }
}
