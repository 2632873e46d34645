package dev.quiver.sql.physical;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

class TypeMappingTest {
    private final RelDataTypeFactory types = new JavaTypeFactoryImpl();

    @Test
    void mapsCalciteTypesToArrow() {
        assertThat(TypeMapping.toArrow(types.createSqlType(SqlTypeName.BIGINT))).isEqualTo(QuiverTypes.INT64);
        assertThat(TypeMapping.toArrow(types.createSqlType(SqlTypeName.INTEGER))).isEqualTo(QuiverTypes.INT32);
        assertThat(TypeMapping.toArrow(types.createSqlType(SqlTypeName.DECIMAL, 15, 2))).isEqualTo(QuiverTypes.decimal(15, 2));
        assertThat(TypeMapping.toArrow(types.createSqlType(SqlTypeName.DOUBLE))).isEqualTo(QuiverTypes.FLOAT64);
        assertThat(TypeMapping.toArrow(types.createSqlType(SqlTypeName.CHAR, 3))).isEqualTo(QuiverTypes.UTF8);
        assertThat(TypeMapping.toArrow(types.createSqlType(SqlTypeName.DATE))).isEqualTo(QuiverTypes.DATE32);
        assertThat(TypeMapping.toArrow(types.createSqlType(SqlTypeName.BOOLEAN))).isEqualTo(QuiverTypes.BOOLEAN);
        assertThat(TypeMapping.toArrow(types.createSqlType(SqlTypeName.TIMESTAMP))).isEqualTo(QuiverTypes.TIMESTAMP);
        assertThatThrownBy(() -> TypeMapping.toArrow(types.createSqlType(SqlTypeName.VARBINARY)))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NOT_SUPPORTED))
                .hasMessageContaining("VARBINARY");
    }

    @Test
    void commonTypeHoldsBothSides() {
        assertThat(TypeMapping.commonType(QuiverTypes.INT32, QuiverTypes.INT64)).isEqualTo(QuiverTypes.INT64);
        assertThat(TypeMapping.commonType(QuiverTypes.decimal(15, 2), QuiverTypes.decimal(10, 4))).isEqualTo(QuiverTypes.decimal(17, 4));
        assertThat(TypeMapping.commonType(QuiverTypes.INT64, QuiverTypes.decimal(15, 2))).isEqualTo(QuiverTypes.decimal(21, 2));
        assertThat(TypeMapping.commonType(QuiverTypes.INT32, QuiverTypes.FLOAT64)).isEqualTo(QuiverTypes.FLOAT64);
        assertThat(TypeMapping.commonType(QuiverTypes.NULL, QuiverTypes.UTF8)).isEqualTo(QuiverTypes.UTF8);
        assertThatThrownBy(() -> TypeMapping.commonType(QuiverTypes.UTF8, QuiverTypes.INT64))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TYPE_MISMATCH));
    }

    @Test
    void numbersConvertExactlyOrFail() {
        assertThat(Literals.convertNumber(24, QuiverTypes.decimal(15, 2))).isEqualTo(new BigDecimal("24.00"));
        assertThat(Literals.convertNumber(new BigDecimal("0.125"), QuiverTypes.decimal(4, 2))).isEqualTo(new BigDecimal("0.13"));
        assertThat(Literals.convertNumber(7L, QuiverTypes.INT32)).isEqualTo(7);
        assertThat(Literals.convertNumber(3, QuiverTypes.FLOAT64)).isEqualTo(3.0);
        assertThatThrownBy(() -> Literals.convertNumber(3_000_000_000L, QuiverTypes.INT32))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE));
        assertThatThrownBy(() -> Literals.convertNumber(new BigDecimal("1000"), QuiverTypes.decimal(4, 2)))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE));
    }
}
