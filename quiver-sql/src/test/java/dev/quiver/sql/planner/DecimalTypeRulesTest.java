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
            "l_extendedprice / l_quantity; DECIMAL(33, 6)",
            "sum(l_extendedprice); DECIMAL(38, 2)",
            "avg(l_extendedprice); DECIMAL(15, 2)",
            "sum(l_linenumber); BIGINT",
            "avg(l_linenumber); DOUBLE",
            "count(*); BIGINT",
            "sum(l_extendedprice) / sum(l_quantity); DECIMAL(38, 6)",
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
