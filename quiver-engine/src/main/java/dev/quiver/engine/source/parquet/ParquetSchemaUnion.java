package dev.quiver.engine.source.parquet;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/** The columns of a table of several Parquet files, from the columns of each. */
final class ParquetSchemaUnion {
    private ParquetSchemaUnion() {}

    /** Every file has the first file's columns (names and types); nullability is unioned. */
    static Schema same(List<ParquetFooter> footers) {
        Schema schema = footers.get(0).schema();
        for (ParquetFooter footer : footers.subList(1, footers.size())) {
            schema = unify(schema, footer, footers.get(0));
        }
        return schema;
    }

    private static Schema unify(Schema schema, ParquetFooter footer, ParquetFooter first) {
        List<Field> fields = schema.getFields();
        List<Field> other = footer.schema().getFields();
        boolean same = fields.size() == other.size();
        List<Field> unified = new ArrayList<>();
        for (int i = 0; same && i < fields.size(); i++) {
            Field a = fields.get(i);
            Field b = other.get(i);
            same = a.getName().equalsIgnoreCase(b.getName()) && a.getType().equals(b.getType()) && a.getChildren().equals(b.getChildren());
            unified.add(a.isNullable() || !b.isNullable() ? a : b);
        }
        if (!same) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "Parquet file " + footer.file() + " has columns (" + describe(other)
                    + "), unlike " + first.file() + " with (" + describe(fields) + "); union_by_name = true reads files with different columns");
        }
        return new Schema(unified);
    }

    /**
     * Every column of any file, in the order first seen, matched by name in any case: NULL
     * (so nullable) in the files that lack it, of the common type of its types in the files.
     */
    static Schema byName(List<ParquetFooter> footers) {
        Map<String, Field> columns = new LinkedHashMap<>();
        Map<String, Integer> seenIn = new LinkedHashMap<>();
        for (ParquetFooter footer : footers) {
            for (Field field : footer.schema().getFields()) {
                String key = field.getName().toLowerCase(Locale.ROOT);
                seenIn.merge(key, 1, Integer::sum);
                Field known = columns.get(key);
                columns.put(key, known == null ? field : widen(known, field, footer));
            }
        }
        List<Field> fields = new ArrayList<>();
        columns.forEach((key, field) -> fields.add(seenIn.get(key) == footers.size() ? field : nullable(field)));
        return new Schema(fields);
    }

    private static Field widen(Field known, Field field, ParquetFooter footer) {
        boolean nullable = known.isNullable() || field.isNullable();
        if (known.getType().equals(field.getType()) && known.getChildren().equals(field.getChildren())) {
            return nullable == known.isNullable() ? known : nullable(known);
        }
        if (!known.getChildren().isEmpty() || !field.getChildren().isEmpty()) {
            throw mismatch(known, field, footer);
        }
        try {
            return QuiverTypes.field(known.getName(), QuiverTypes.commonType(known.getType(), field.getType()), nullable);
        } catch (QuiverException e) {
            throw mismatch(known, field, footer);
        }
    }

    private static QuiverException mismatch(Field known, Field field, ParquetFooter footer) {
        return new QuiverException(ErrorCode.SOURCE_ERROR, "Parquet file " + footer.file() + ": column '" + field.getName() + "' is "
                + typeName(field) + ", but an earlier file has it as " + typeName(known) + ", and no type holds both");
    }

    /** Checks a footer read after the table opened against the table's file columns. */
    static void checkMatches(ParquetFooter footer, Schema table, int fileColumns, dev.quiver.engine.source.storage.Location first) {
        List<Field> expected = table.getFields().subList(0, fileColumns);
        List<Field> actual = footer.schema().getFields();
        boolean same = expected.size() == actual.size();
        for (int i = 0; same && i < expected.size(); i++) {
            same = expected.get(i).getName().equalsIgnoreCase(actual.get(i).getName()) && expected.get(i).getType().equals(actual.get(i).getType());
        }
        if (!same) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "Parquet file " + footer.file() + " has columns (" + describe(actual)
                    + "), unlike " + first + " with (" + describe(expected) + "); union_by_name = true reads files with different columns");
        }
    }

    static Field nullable(Field field) {
        if (field.isNullable()) {
            return field;
        }
        FieldType type = field.getFieldType();
        return new Field(field.getName(), new FieldType(true, type.getType(), type.getDictionary(), type.getMetadata()), field.getChildren());
    }

    private static String describe(List<Field> fields) {
        return fields.stream().map(f -> f.getName() + " " + typeName(f)).collect(Collectors.joining(", "));
    }

    private static String typeName(Field field) {
        return QuiverTypes.sqlName(field.getType());
    }
}
