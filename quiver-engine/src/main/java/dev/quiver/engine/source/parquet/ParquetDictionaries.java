package dev.quiver.engine.source.parquet;

import dev.quiver.engine.source.storage.FileEntry;
import dev.quiver.engine.source.storage.RandomReader;
import dev.quiver.engine.source.storage.Storage;
import dev.quiver.engine.stats.Estimate;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.parquet.column.EncodingStats;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;

/**
 * Reads how many values each column chunk's dictionary holds: the header of the dictionary page
 * (a few dozen bytes; the page itself is not read), for distinct-count estimates. The footer does
 * not carry it (parquet-java leaves {@code distinct_count} unset). Best effort: a file whose
 * headers cannot be read gets no counts, and the scan that reads the damaged page reports it.
 *
 * <p>The headers of a file are read together: those less than {@value #HOLE_BYTES} bytes apart in
 * one read, and the reads handed to {@link RandomReader#readRanges} at once, which an object store
 * fetches several at a time. One ranged GET per header, one after the other, was most of the time
 * S3 took to open a table.
 */
final class ParquetDictionaries {
    /** Bytes read for one header: a dictionary page header is a few dozen (it has no statistics). */
    static final int HEADER_BYTES = 256;
    /** Headers closer than this share a read: fetching the gap costs less than another request. */
    static final int HOLE_BYTES = 64 << 10;
    /** The most one shared read spans. */
    static final int SPAN_BYTES = 1 << 20;

    private ParquetDictionaries() {}

    /** Where one chunk's dictionary page header is: its row group, its column, and the bytes that hold it. */
    private record Header(int rowGroup, int column, long position, int length) {
        long end() {
            return position + length;
        }
    }

    /** One read covering {@code headers}, in file order. */
    private record Span(long position, int length, List<Header> headers) {}

    /**
     * Per row group, per column: exact dictionary size when every data page of the chunk is
     * dictionary-encoded; the chunk's row count (inexact) when the writer fell back to plain pages,
     * which it does when the dictionary grows too large; absent without a dictionary, when the
     * footer does not say which pages use it, or when the header cannot be read.
     */
    static List<Estimate[]> sizes(Storage storage, FileEntry file, List<BlockMetaData> blocks, List<ParquetColumn> fileColumns) {
        int columns = fileColumns.size();
        List<Estimate[]> sizes = new ArrayList<>(blocks.size());
        List<Header> headers = new ArrayList<>();
        for (int b = 0; b < blocks.size(); b++) {
            BlockMetaData block = blocks.get(b);
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
                long position = chunk.getDictionaryPageOffset();
                long room = Math.min(chunk.getFirstDataPageOffset(), file.size()) - position;
                headers.add(new Header(b, c, position, (int) Math.min(HEADER_BYTES, room)));
            }
            sizes.add(row);
        }
        if (headers.isEmpty()) {
            return sizes;
        }
        try (RandomReader reader = storage.openRandom(file.location(), file.size())) {
            List<Span> spans = spans(headers);
            List<RandomReader.Range> reads = spans.stream().map(span -> new RandomReader.Range(span.position(), ByteBuffer.allocate(span.length()))).toList();
            reader.readRanges(reads);
            for (int s = 0; s < spans.size(); s++) {
                byte[] bytes = reads.get(s).buffer().array();
                for (Header header : spans.get(s).headers()) {
                    sizes.get(header.rowGroup())[header.column()] = dictionarySize(bytes, (int) (header.position() - spans.get(s).position()), header.length());
                }
            }
            return sizes;
        } catch (IOException | RuntimeException e) {
            // statistics are optional: a damaged page is reported by the scan that reads it, naming the row group
            return blocks.stream().map(block -> absent(columns)).toList();
        }
    }

    /** The headers grouped into reads: neighbours less than {@link #HOLE_BYTES} apart share one of at most {@link #SPAN_BYTES}. */
    private static List<Span> spans(List<Header> headers) {
        List<Header> sorted = new ArrayList<>(headers);
        sorted.sort(Comparator.comparingLong(Header::position));
        List<Span> spans = new ArrayList<>();
        List<Header> current = new ArrayList<>();
        long start = 0;
        long end = 0;
        for (Header header : sorted) {
            if (!current.isEmpty() && (header.position() - end > HOLE_BYTES || Math.max(end, header.end()) - start > SPAN_BYTES)) {
                spans.add(new Span(start, (int) (end - start), List.copyOf(current)));
                current.clear();
            }
            if (current.isEmpty()) {
                start = header.position();
                end = header.end();
            }
            current.add(header);
            end = Math.max(end, header.end());
        }
        spans.add(new Span(start, (int) (end - start), List.copyOf(current)));
        return spans;
    }

    /** The dictionary's value count from the header at {@code offset}; absent when those bytes hold no dictionary page header. */
    private static Estimate dictionarySize(byte[] bytes, int offset, int length) {
        try {
            PageHeader header = Util.readPageHeader(new ByteArrayInputStream(bytes, offset, length));
            if (header.getType() == PageType.DICTIONARY_PAGE && header.isSetDictionary_page_header()) {
                return Estimate.exact(header.getDictionary_page_header().getNum_values());
            }
        } catch (IOException | RuntimeException e) {
            // a header longer than HEADER_BYTES, or not a header: this chunk's count stays unknown
        }
        return Estimate.absent();
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
}
