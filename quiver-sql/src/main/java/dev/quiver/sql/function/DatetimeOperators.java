package dev.quiver.sql.function;

import java.util.List;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.fun.SqlAbstractTimeFunction;
import org.apache.calcite.sql.fun.SqlExtractFunction;
import org.apache.calcite.sql.fun.SqlMonotonicBinaryOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * Calcite operators that type date and time arithmetic the way DuckDB and PostgreSQL do, in place
 * of Calcite's standard ones (the operator table hides those): {@code date + integer} and
 * {@code date - integer} are DATEs, {@code date - date} is a BIGINT number of days,
 * {@code date ± interval} is a TIMESTAMP (so {@code date '2024-01-01' + interval '90' minute}
 * keeps its time), and {@code EXTRACT(EPOCH FROM x)} is a DOUBLE. Every other form of {@code +}
 * and {@code -} is the standard operator's, typed by its rules. {@link QuiverConvertletTable}
 * turns the date and time forms into registry calls.
 */
public final class DatetimeOperators {
    /** The result precision of date and time arithmetic: the engine's microseconds. */
    static final int TIMESTAMP_PRECISION = 6;

    public static final SqlBinaryOperator PLUS = new Arithmetic(SqlStdOperatorTable.PLUS, OperandTypes.PLUS_OPERATOR);
    public static final SqlBinaryOperator MINUS = new Arithmetic(SqlStdOperatorTable.MINUS, OperandTypes.MINUS_OPERATOR);
    public static final SqlExtractFunction EXTRACT = new Extract();

    /** Quiver's date and time operators, for the operator table. */
    static final List<SqlOperator> ALL = List.of(PLUS, MINUS, EXTRACT, CurrentTime.CURRENT_TIMESTAMP, CurrentTime.LOCALTIMESTAMP);

    /** The standard operators these replace. */
    static final List<SqlOperator> REPLACED = List.of(SqlStdOperatorTable.PLUS, SqlStdOperatorTable.MINUS, SqlStdOperatorTable.EXTRACT,
            SqlStdOperatorTable.CURRENT_TIMESTAMP, SqlStdOperatorTable.LOCALTIMESTAMP);

    private DatetimeOperators() {}

    /** The date and time forms of {@code +} and {@code -}. */
    enum Form {
        /** {@code date + integer}, {@code date - integer}. */
        DATE_INTEGER,
        /** {@code integer + date}. */
        INTEGER_DATE,
        /** {@code date - date}. */
        DATE_DATE,
        /** {@code date ± interval}, {@code timestamp ± interval}. */
        DATETIME_INTERVAL,
        /** {@code interval + date}, {@code interval + timestamp}. */
        INTERVAL_DATETIME;

        /** The form of a call of {@code kind} (PLUS or MINUS) on these operand types, or null for the standard forms. */
        static Form of(SqlKind kind, RelDataType left, RelDataType right) {
            boolean plus = kind == SqlKind.PLUS;
            if (isDate(left) && SqlTypeUtil.isIntType(right)) {
                return DATE_INTEGER;
            }
            if (plus && SqlTypeUtil.isIntType(left) && isDate(right)) {
                return INTEGER_DATE;
            }
            if (!plus && isDate(left) && isDate(right)) {
                return DATE_DATE;
            }
            if (isDatetime(left) && SqlTypeUtil.isInterval(right)) {
                return DATETIME_INTERVAL;
            }
            if (plus && SqlTypeUtil.isInterval(left) && isDatetime(right)) {
                return INTERVAL_DATETIME;
            }
            return null;
        }

        RelDataType resultType(RelDataTypeFactory typeFactory, RelDataType left, RelDataType right) {
            RelDataType type = switch (this) {
                case DATE_INTEGER, INTEGER_DATE -> typeFactory.createSqlType(SqlTypeName.DATE);
                case DATE_DATE -> typeFactory.createSqlType(SqlTypeName.BIGINT);
                case DATETIME_INTERVAL, INTERVAL_DATETIME -> typeFactory.createSqlType(SqlTypeName.TIMESTAMP, TIMESTAMP_PRECISION);
            };
            return typeFactory.createTypeWithNullability(type, left.isNullable() || right.isNullable());
        }

        private static boolean isDate(RelDataType type) {
            return type.getSqlTypeName() == SqlTypeName.DATE;
        }

        private static boolean isDatetime(RelDataType type) {
            return type.getSqlTypeName() == SqlTypeName.DATE || type.getSqlTypeName() == SqlTypeName.TIMESTAMP;
        }
    }

    /** {@code +} or {@code -}: the standard operator plus the date and time forms. */
    private static final class Arithmetic extends SqlMonotonicBinaryOperator {
        Arithmetic(SqlBinaryOperator standard, SqlOperandTypeChecker standardChecker) {
            // 40: the precedence of Calcite's + and -
            super(standard.getName(), standard.getKind(), 40, true, ReturnTypes.NULLABLE_SUM, InferTypes.FIRST_KNOWN,
                    new DatetimeOrStandard(standard.getKind(), standardChecker));
        }

        @Override
        public RelDataType inferReturnType(SqlOperatorBinding binding) {
            if (binding.getOperandCount() == 2) {
                RelDataType left = binding.getOperandType(0);
                RelDataType right = binding.getOperandType(1);
                Form form = Form.of(getKind(), left, right);
                if (form != null) {
                    return form.resultType(binding.getTypeFactory(), left, right);
                }
            }
            return super.inferReturnType(binding);
        }
    }

    /** Accepts the date and time forms, and whatever the standard operator accepts. */
    private record DatetimeOrStandard(SqlKind kind, SqlOperandTypeChecker standard) implements SqlOperandTypeChecker {
        @Override
        public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
            if (binding.getOperandCount() == 2 && Form.of(kind, binding.getOperandType(0), binding.getOperandType(1)) != null) {
                return true;
            }
            return standard.checkOperandTypes(binding, throwOnFailure);
        }

        @Override
        public SqlOperandCountRange getOperandCountRange() {
            return SqlOperandCountRanges.of(2);
        }

        @Override
        public String getAllowedSignatures(SqlOperator op, String opName) {
            String dates = kind == SqlKind.PLUS ? "'<DATE> + <INTEGER>'\n'<INTEGER> + <DATE>'" : "'<DATE> - <INTEGER>'\n'<DATE> - <DATE>'";
            return standard.getAllowedSignatures(op, opName) + "\n" + dates;
        }
    }

    /** EXTRACT with DuckDB's result types: DOUBLE for EPOCH, BIGINT otherwise. */
    private static final class Extract extends SqlExtractFunction {
        Extract() {
            super("EXTRACT", false);
        }

        @Override
        public RelDataType inferReturnType(SqlOperatorBinding binding) {
            TimeUnitRange unit = binding.getOperandLiteralValue(0, TimeUnitRange.class);
            RelDataTypeFactory typeFactory = binding.getTypeFactory();
            RelDataType type = typeFactory.createSqlType(unit == TimeUnitRange.EPOCH ? SqlTypeName.DOUBLE : SqlTypeName.BIGINT);
            return typeFactory.createTypeWithNullability(type, binding.getOperandType(1).isNullable());
        }
    }

    /** {@code CURRENT_TIMESTAMP} and {@code LOCALTIMESTAMP} to the microsecond by default (Calcite's default precision is 0, DuckDB's 6). */
    static final class CurrentTime extends SqlAbstractTimeFunction {
        static final CurrentTime CURRENT_TIMESTAMP = new CurrentTime("CURRENT_TIMESTAMP");
        static final CurrentTime LOCALTIMESTAMP = new CurrentTime("LOCALTIMESTAMP");

        private CurrentTime(String name) {
            super(name, SqlTypeName.TIMESTAMP);
        }

        @Override
        public RelDataType inferReturnType(SqlOperatorBinding binding) {
            if (binding.getOperandCount() == 0) {
                return binding.getTypeFactory().createSqlType(SqlTypeName.TIMESTAMP, TIMESTAMP_PRECISION);
            }
            return super.inferReturnType(binding);
        }
    }
}
