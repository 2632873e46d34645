package dev.quiver.engine.source.parquet;

import dev.quiver.engine.source.storage.FileEntry;
import dev.quiver.engine.source.storage.Storage;
import dev.quiver.engine.stats.Estimate;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.parquet.column.EncodingStats;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.SeekableInputStream;

/**
 * Reads how many values each column chunk's dictionary holds: the header of the dictionary page
 * (a few dozen bytes; the page itself is not read), for distinct-count estimates. The footer does
 * not carry it (parquet-java leaves {@code distinct_count} unset). Best effort: a file whose
 * headers cannot be read gets no counts, and the scan that reads the damaged page reports it.
 */
final class ParquetDictionaries {
    private ParquetDictionaries() {}

    /**
     * Per row group, per column: exact dictionary size when every data page of the chunk is
     * dictionary-encoded; the chunk's row count (inexact) when the writer fell back to plain pages,
     * which it does when the dictionary grows too large; absent without a dictionary or when the
     * footer does not say which pages use it.
     */
    static List<Estimate[]> sizes(Storage storage, FileEntry file, List<BlockMetaData> blocks, List<ParquetColumn> fileColumns) {
        int columns = fileColumns.size();
        List<Estimate[]> sizes = new ArrayList<>(blocks.size());
        SeekableInputStream stream = null;
        try {
            for (BlockMetaData block : blocks) {
                Estimate[] row = absent(columns);
                for (int c = 0; c < columns; c++) {
                    ColumnChunkMetaData chunk = fileColumns.get(c).isNested() ? null : ParquetFooter.chunk(block, fileColumns.get(c));
                    EncodingStats encodings = chunk == null ? null : chunk.getEncodingStats();
                    if (chunk == null || !hasDictionaryPage(chunk) || encodings == null) {
                        continue;
                    }
                    if (encodings.hasNonDictionaryEncodedPages()) {
                        row[c] = Estimate.inexact(block.getRowCount());
                        continue;
                    }
                    if (stream == null) {
                        stream = new StorageInputFile(storage, file.location(), file.size()).newStream();
                    }
                    stream.seek(chunk.getDictionaryPageOffset());
                    PageHeader header = Util.readPageHeader(stream);
                    if (header.getType() == PageType.DICTIONARY_PAGE && header.isSetDictionary_page_header()) {
                        row[c] = Estimate.exact(header.getDictionary_page_header().getNum_values());
                    }
                }
                sizes.add(row);
            }
            return sizes;
        } catch (IOException | RuntimeException e) {
            // statistics are optional: a damaged page is reported by the scan that reads it, naming the row group
            return blocks.stream().map(block -> absent(fileColumns.size())).toList();
        } finally {
            closeQuietly(stream);
        }
    }

    private static Estimate[] absent(int columns) {
        Estimate[] row = new Estimate[columns];
        Arrays.fill(row, Estimate.absent());
        return row;
    }

    private static boolean hasDictionaryPage(ColumnChunkMetaData chunk) {
        long offset = chunk.getDictionaryPageOffset();
        // some writers record offset 0 for "none"; a dictionary page always precedes the data pages
        return chunk.hasDictionaryPage() && offset > 0 && offset < chunk.getFirstDataPageOffset();
    }

    private static void closeQuietly(SeekableInputStream stream) {
        if (stream == null) {
            return;
        }
        try {
            stream.close();
        } catch (IOException e) {
            // read-only stream: nothing was lost
        }
    }
}
