package dev.quiver.engine.source.tpch;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.types.QuiverTypes;
import io.trino.tpch.TpchEntity;
import java.nio.charset.StandardCharsets;
import java.util.function.DoubleFunction;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * One column of a TPC-H table: its SQL name and type, how a generated row's value is written into
 * an Arrow vector, and what is known of it for statistics.
 *
 * <p>Money and quantity columns are DECIMAL(15,2) written from the generator's exact cents (the
 * generator's doubles are {@code cents / 100.0}, which is not exact), so sums are exact.
 *
 * @param name the standard TPC-H column name, e.g. {@code l_extendedprice}
 * @param type the Arrow type
 * @param writer writes one row's value
 * @param averageWidth estimated bytes per value in Arrow (data plus offsets)
 * @param distinctCount the number of distinct values at a scale factor
 */
record TpchColumnDef<E extends TpchEntity>(String name, ArrowType type, ColumnWriter<E> writer, int averageWidth,
        DoubleFunction<Estimate> distinctCount) {
    static final ArrowType MONEY = QuiverTypes.decimal(15, 2);

    TpchColumnDef {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        requireNonNull(writer, "writer is null");
        requireNonNull(distinctCount, "distinctCount is null");
    }

    /** Writes one value of a generated row into a vector allocated for at least {@code row + 1} values. */
    @FunctionalInterface
    interface ColumnWriter<E> {
        void write(FieldVector vector, int row, E entity);
    }

    Field field() {
        return QuiverTypes.field(name, type, false);
    }

    /** Allocates {@code vector} for {@code rows} values of this column. */
    void allocate(FieldVector vector, int rows) {
        if (vector instanceof BaseVariableWidthVector variable) {
            variable.allocateNew((long) rows * Math.max(1, averageWidth - Integer.BYTES), rows);
        } else {
            ((BaseFixedWidthVector) vector).allocateNew(rows);
        }
    }

    TpchColumnDef<E> withDistinct(DoubleFunction<Estimate> distinct) {
        return new TpchColumnDef<>(name, type, writer, averageWidth, distinct);
    }

    static <E extends TpchEntity> TpchColumnDef<E> bigint(String name, ToLongFunction<E> value) {
        return new TpchColumnDef<>(name, QuiverTypes.INT64,
                (vector, row, entity) -> ((BigIntVector) vector).set(row, value.applyAsLong(entity)), Long.BYTES, sf -> Estimate.absent());
    }

    static <E extends TpchEntity> TpchColumnDef<E> integer(String name, ToIntFunction<E> value) {
        return new TpchColumnDef<>(name, QuiverTypes.INT32,
                (vector, row, entity) -> ((IntVector) vector).set(row, value.applyAsInt(entity)), Integer.BYTES, sf -> Estimate.absent());
    }

    /** A DATE column; the generator's dates are days since 1970-01-01, as Arrow's. */
    static <E extends TpchEntity> TpchColumnDef<E> date(String name, ToIntFunction<E> epochDays) {
        return new TpchColumnDef<>(name, QuiverTypes.DATE32,
                (vector, row, entity) -> ((DateDayVector) vector).set(row, epochDays.applyAsInt(entity)), Integer.BYTES, sf -> Estimate.absent());
    }

    /** A DECIMAL(15,2) column from a value in hundredths (cents, or percent for discount and tax). */
    static <E extends TpchEntity> TpchColumnDef<E> money(String name, ToLongFunction<E> hundredths) {
        // DecimalVector.set(int, long) stores the long as the unscaled value
        return new TpchColumnDef<>(name, MONEY,
                (vector, row, entity) -> ((DecimalVector) vector).set(row, hundredths.applyAsLong(entity)), 16, sf -> Estimate.absent());
    }

    static <E extends TpchEntity> TpchColumnDef<E> varchar(String name, Function<E, String> value, int averageLength) {
        return new TpchColumnDef<>(name, QuiverTypes.UTF8,
                (vector, row, entity) -> ((VarCharVector) vector).setSafe(row, value.apply(entity).getBytes(StandardCharsets.UTF_8)),
                averageLength + Integer.BYTES, sf -> Estimate.absent());
    }
}
