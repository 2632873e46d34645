package org.apache.parquet;

import java.util.Map;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.format.converter.ParquetMetadataConverter;

/**
 * Builds {@link ParquetReadOptions} without Hadoop on the class path. Every public builder of
 * parquet-java 1.17 touches a Hadoop class ({@code Configuration} or {@code FileInputFormat}),
 * while the options' package-private constructor does not; Quiver reads local files through
 * {@code LocalInputFile} with its own codec factory and so never needs Hadoop at run time.
 */
public final class QuiverParquetReadOptions {
    private static final int ALLOCATION_SIZE = 8 << 20;

    private QuiverParquetReadOptions() {}

    public static ParquetReadOptions create(CompressionCodecFactory codecs) {
        return new ParquetReadOptions(
                false, // useSignedStringMinMax
                false, // useStatsFilter: Quiver prunes row groups itself
                false, // useDictionaryFilter
                false, // useRecordFilter
                false, // useColumnIndexFilter
                false, // usePageChecksumVerification
                false, // useBloomFilter
                false, // useOffHeapDecryptBuffer
                true, // useHadoopVectoredIo: only where the stream offers it (an object store's parallel range reads, StorageInputFile)
                FilterCompat.NOOP,
                ParquetMetadataConverter.NO_FILTER,
                codecs,
                new HeapByteBufferAllocator(),
                ALLOCATION_SIZE,
                Map.of(),
                null,
                null,
                new PlainParquetConfiguration());
    }
}
