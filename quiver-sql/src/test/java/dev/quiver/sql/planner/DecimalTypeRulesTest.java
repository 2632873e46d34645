package dev.quiver.sql.planner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.calcite.rel.type.RelDataType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Pins the result types that docs/sql.md documents, over TPC-H's DECIMAL(15,2) money columns. */
class DecimalTypeRulesTest {
    private final SqlPlanner planner = new SqlPlanner(new TestingTpchCatalog(), Map.of());

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = ';', value = {
            "l_extendedprice * (1 - l_discount); DECIMAL(31, 4)",
            "l_extendedprice * (1 - l_discount) * (1 + l_tax); DECIMAL(38, 6)",
            "l_extendedprice + l_tax; DECIMAL(16, 2)",
            // products: DECIMAL(p1 + p2, s1 + s2), and past 38 digits the scale gives way, down to 6
            "l_extendedprice * l_extendedprice; DECIMAL(30, 4)",
            "l_extendedprice * 2; DECIMAL(25, 2)",
            "cast(l_extendedprice as decimal(38, 10)) * cast(l_tax as decimal(38, 10)); DECIMAL(38, 6)",
            "cast(l_tax as decimal(20, 18)) * cast(l_tax as decimal(20, 18)); DECIMAL(38, 34)",
            // Spark's division: scale max(6, s1 + p2 + 1), precision p1 - s1 + s2 + scale
            "l_extendedprice / l_quantity; DECIMAL(33, 18)",
            "l_extendedprice / 3; DECIMAL(26, 13)",
            "l_linenumber / l_quantity; DECIMAL(28, 16)",
            "l_extendedprice / 2.5; DECIMAL(20, 6)",
            // past precision 38 the integer digits stay and the scale gives way, down to 6
            "sum(l_extendedprice) / sum(l_quantity); DECIMAL(38, 13)",
            "sum(l_extendedprice) * 100 / sum(l_quantity); DECIMAL(38, 6)",
            "sum(l_extendedprice) / sum(l_quantity) * 100; DECIMAL(38, 6)",
            "sum(l_extendedprice * (1 - l_discount)) / sum(l_quantity); DECIMAL(38, 6)",
            "cast(l_extendedprice as decimal(38, 2)) / cast(l_quantity as decimal(38, 2)); DECIMAL(38, 6)",
            "cast(l_extendedprice as decimal(38, 30)) / l_quantity; DECIMAL(38, 28)",
            "l_extendedprice / cast(l_quantity as decimal(38, 30)); DECIMAL(38, 6)",
            "sum(l_extendedprice); DECIMAL(25, 2)",
            "sum(l_extendedprice * (1 - l_discount)); DECIMAL(38, 4)",
            "avg(l_extendedprice); DECIMAL(19, 6)",
            "avg(cast(l_extendedprice as decimal(38, 36))); DECIMAL(38, 36)",
            "sum(l_linenumber); BIGINT",
            "avg(l_linenumber); DOUBLE",
            "count(*); BIGINT",
    })
    void resultTypes(String expression, String expectedType) {
        RelDataType type = planner.plan("select " + expression + " from lineitem").root().getRowType().getFieldList().get(0).getType();
        assertThat(type.getFullTypeString().replace(" NOT NULL", "")).isEqualTo(expectedType);
    }

    @Test
    void decimalDivisionKeepsAtLeastSixDecimals() {
        RelDataType type = planner.plan("select cast(1 as decimal(15,2)) / cast(3 as decimal(15,2)) from nation").root()
                .getRowType().getFieldList().get(0).getType();
        assertThat(type.getScale()).isGreaterThanOrEqualTo(6);
    }
}
