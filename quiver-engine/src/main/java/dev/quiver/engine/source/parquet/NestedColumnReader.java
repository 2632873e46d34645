package dev.quiver.engine.source.parquet;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.batch.VectorValues;
import dev.quiver.engine.source.parquet.ParquetColumn.ValueKind;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.io.api.RecordMaterializer;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * Reads one nested Parquet column (LIST, MAP, STRUCT, or a bare repeated field) of a row group
 * into Arrow list, map and struct vectors, by parquet-java's record assembly: its converters,
 * called for the values present in each row, write straight into the vectors. Each converter
 * learns where to write from its parent ({@link Position}): a struct's fields write at the
 * struct's index, a list's elements at the list's next element index. What is absent stays NULL
 * (a fresh vector's validity bits are clear); a bare repeated field with no values is an empty
 * list, never NULL. A row at a time, unlike the flat columns' batch decoders: nested columns are
 * rarely the bulk of a scan.
 */
final class NestedColumnReader {
    private final RecordReader<Void> records;
    private final Materializer materializer;

    NestedColumnReader(ParquetColumn column, PageReadStore pages, MessageType fileSchema, String createdBy) {
        requireNonNull(column, "column is null");
        MessageType requested = new MessageType(fileSchema.getName(), column.type());
        MessageColumnIO io = new ColumnIOFactory(createdBy).getColumnIO(requested, fileSchema);
        this.materializer = new Materializer(column.type());
        this.records = io.getRecordReader(pages, materializer);
    }

    /** Reads the next {@code count} rows into {@code vector} (allocated here). */
    void read(FieldVector vector, int count) {
        vector.setInitialCapacity(count);
        vector.allocateNew();
        materializer.root.bind(vector);
        for (int i = 0; i < count; i++) {
            records.read();
        }
        vector.setValueCount(count);
    }

    /** Where a converter writes its next value. */
    @FunctionalInterface
    private interface Position {
        int next();
    }

    /** A converter that writes into a vector given per batch (record assembly needs the converters before the vectors exist). */
    private interface Bound {
        void bind(FieldVector vector);
    }

    private static final class Materializer extends RecordMaterializer<Void> {
        private final RootConverter root;

        Materializer(Type column) {
            this.root = new RootConverter(column);
        }

        @Override
        public Void getCurrentRecord() {
            return null;
        }

        @Override
        public GroupConverter getRootConverter() {
            return root;
        }
    }

    /** The message: one row per record, the column at the row's index. */
    private static final class RootConverter extends GroupConverter {
        private final Converter child;
        private final BareList bare;
        private int row = -1;

        RootConverter(Type column) {
            if (column.isRepetition(Type.Repetition.REPEATED)) {
                bare = new BareList(() -> row);
                child = converter(column, bare::nextElement, true);
            } else {
                bare = null;
                child = converter(column, () -> row, false);
            }
        }

        void bind(FieldVector vector) {
            row = -1;
            if (bare != null) {
                bare.bind(vector);
                ((Bound) child).bind(bare.dataVector());
            } else {
                ((Bound) child).bind(vector);
            }
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return child;
        }

        @Override
        public void start() {
            row++;
            if (bare != null) {
                bare.open();
            }
        }

        @Override
        public void end() {
            if (bare != null) {
                bare.close();
            }
        }
    }

    /**
     * The converter of {@code type}; {@code element} when {@code type} is a repeated field standing
     * for the elements themselves.
     */
    private static Converter converter(Type type, Position position, boolean element) {
        if (type.isRepetition(Type.Repetition.REPEATED) && !element) {
            throw new IllegalStateException("a repeated field " + type.getName() + " outside a list");
        }
        if (type.isPrimitive()) {
            PrimitiveType primitive = type.asPrimitiveType();
            return new ValueConverter(ParquetTypes.kind(primitive), primitive, position);
        }
        GroupType group = type.asGroupType();
        LogicalTypeAnnotation logical = group.getLogicalTypeAnnotation();
        boolean map = (logical instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation
                || logical instanceof LogicalTypeAnnotation.MapKeyValueTypeAnnotation) && ParquetNestedTypes.isMap(group);
        if (map || logical instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation && ParquetNestedTypes.isList(group)) {
            return new ListConverter(group, position, map);
        }
        return new StructConverter(group, position);
    }

    /** A LIST or MAP group: one list value per start, its elements from the repeated field below. */
    private static final class ListConverter extends GroupConverter implements Bound {
        private final Position position;
        private final Converter repeated;
        private ListVector vector;
        private int index;
        private int start;
        private int size;

        ListConverter(GroupType group, Position position, boolean map) {
            this.position = position;
            Type field = group.getType(0);
            if (map || ParquetNestedTypes.isElementItself(group, field)) {
                // a map's key_value group, or an old two-level list: the repeated field is the element
                this.repeated = converter(field, this::nextElement, true);
            } else {
                this.repeated = new ElementWrapper(field.asGroupType(), this::nextElement);
            }
        }

        @Override
        public void bind(FieldVector target) {
            vector = (ListVector) target;
            ((Bound) repeated).bind(vector.getDataVector());
        }

        int nextElement() {
            return start + size++;
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return repeated;
        }

        @Override
        public void start() {
            index = position.next();
            start = vector.startNewValue(index);
            size = 0;
        }

        @Override
        public void end() {
            vector.endValue(index, size);
        }
    }

    /** The repeated group of a three-level list: one element per start; the element is its only field (absent for a NULL element). */
    private static final class ElementWrapper extends GroupConverter implements Bound {
        private final Position next;
        private final Converter element;
        private int current;

        ElementWrapper(GroupType wrapper, Position next) {
            this.next = next;
            this.element = converter(wrapper.getType(0), () -> current, false);
        }

        @Override
        public void bind(FieldVector data) {
            ((Bound) element).bind(data);
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return element;
        }

        @Override
        public void start() {
            current = next.next();
        }

        @Override
        public void end() {}
    }

    /** A group: a struct value at its parent's index, its fields at the same index. */
    private static final class StructConverter extends GroupConverter implements Bound {
        private final Position position;
        private final Converter[] fields;
        private final BareList[] bareLists;
        private StructVector vector;
        private int index;

        StructConverter(GroupType group, Position position) {
            this.position = position;
            this.fields = new Converter[group.getFieldCount()];
            this.bareLists = new BareList[fields.length];
            for (int i = 0; i < fields.length; i++) {
                Type field = group.getType(i);
                if (field.isRepetition(Type.Repetition.REPEATED)) {
                    bareLists[i] = new BareList(() -> index);
                    fields[i] = converter(field, bareLists[i]::nextElement, true);
                } else {
                    fields[i] = converter(field, () -> index, false);
                }
            }
        }

        @Override
        public void bind(FieldVector target) {
            vector = (StructVector) target;
            for (int i = 0; i < fields.length; i++) {
                FieldVector child = (FieldVector) vector.getChildByOrdinal(i);
                if (bareLists[i] != null) {
                    bareLists[i].bind(child);
                    ((Bound) fields[i]).bind(bareLists[i].dataVector());
                } else {
                    ((Bound) fields[i]).bind(child);
                }
            }
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return fields[fieldIndex];
        }

        @Override
        public void start() {
            index = position.next();
            vector.setIndexDefined(index);
            for (BareList bare : bareLists) {
                if (bare != null) {
                    bare.open();
                }
            }
        }

        @Override
        public void end() {
            for (BareList bare : bareLists) {
                if (bare != null) {
                    bare.close();
                }
            }
        }
    }

    /** A repeated field outside a LIST: a list at its parent's index, started by the parent, empty when no value came. */
    private static final class BareList {
        private final Position parent;
        private ListVector vector;
        private int index;
        private int start;
        private int size;

        BareList(Position parent) {
            this.parent = parent;
        }

        void bind(FieldVector target) {
            vector = (ListVector) target;
        }

        FieldVector dataVector() {
            return vector.getDataVector();
        }

        void open() {
            index = parent.next();
            start = vector.startNewValue(index);
            size = 0;
        }

        int nextElement() {
            return start + size++;
        }

        void close() {
            vector.endValue(index, size);
        }
    }

    /** A primitive: each value converted as a flat column of its kind would be, written at the position its parent gives. */
    private static final class ValueConverter extends PrimitiveConverter implements Bound {
        private final ValueKind kind;
        private final PrimitiveType type;
        private final Position position;
        private FieldVector vector;

        ValueConverter(ValueKind kind, PrimitiveType type, Position position) {
            this.kind = kind;
            this.type = type;
            this.position = position;
        }

        @Override
        public void bind(FieldVector target) {
            vector = target;
        }

        private void add(Object raw) {
            VectorValues.set(vector, position.next(), ParquetValues.convert(kind, type, raw));
        }

        @Override
        public void addBinary(Binary value) {
            add(value);
        }

        @Override
        public void addBoolean(boolean value) {
            add(value);
        }

        @Override
        public void addDouble(double value) {
            add(value);
        }

        @Override
        public void addFloat(float value) {
            add(value);
        }

        @Override
        public void addInt(int value) {
            add(value);
        }

        @Override
        public void addLong(long value) {
            add(value);
        }
    }
}
