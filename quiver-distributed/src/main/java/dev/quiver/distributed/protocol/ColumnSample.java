package dev.quiver.distributed.protocol;

import static java.util.Objects.requireNonNull;


/**
 * What a sampler saw of one output column.
 *
 * @param nullFraction null values / sampled rows (0 when no row was sampled)
 * @param distinctFraction distinct non-null values / non-null sampled rows (HyperLogLog estimate);
 *        -1 when the column's type cannot be hashed (lists, structs)
 */
public record ColumnSample(String name, double nullFraction, double distinctFraction) {
    public ColumnSample {
        requireNonNull(name, "name is null");
        if (nullFraction < 0 || nullFraction > 1) {
            throw new IllegalArgumentException("null fraction of " + name + " must be in [0, 1]: " + nullFraction);
        }
        if (distinctFraction != -1 && (distinctFraction < 0 || distinctFraction > 1)) {
            throw new IllegalArgumentException("distinct fraction of " + name + " must be in [0, 1] or -1: " + distinctFraction);
        }
    }

    public boolean distinctKnown() {
        return distinctFraction >= 0;
    }
}
