package dev.quiver.engine.source.storage;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The local file system: locations are paths. */
public final class LocalStorage implements Storage {
    public static final LocalStorage INSTANCE = new LocalStorage();

    private LocalStorage() {}

    @Override
    public Optional<FileEntry> stat(Location location) {
        Path path = location.path();
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(path, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot read " + location + ": " + e.getMessage(), e);
        }
        if (attributes.isDirectory()) {
            return Optional.of(FileEntry.directory(location));
        }
        if (!Files.isReadable(path)) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "file " + location + " is not readable");
        }
        return Optional.of(FileEntry.file(location, attributes.size()));
    }

    @Override
    public List<FileEntry> list(Location directory) {
        List<FileEntry> entries = new ArrayList<>();
        try (DirectoryStream<Path> children = Files.newDirectoryStream(directory.path())) {
            for (Path child : children) {
                BasicFileAttributes attributes = Files.readAttributes(child, BasicFileAttributes.class);
                if (attributes.isDirectory()) {
                    entries.add(FileEntry.directory(Location.of(child)));
                } else if (attributes.isRegularFile()) {
                    entries.add(FileEntry.file(Location.of(child), attributes.size()));
                }
            }
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot list directory " + directory + ": " + e.getMessage(), e);
        }
        entries.sort((a, b) -> a.location().compareTo(b.location()));
        return entries;
    }

    @Override
    public RandomReader openRandom(Location location, long size) {
        try {
            return new ChannelReader(FileChannel.open(location.path(), StandardOpenOption.READ), size);
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot open " + location + ": " + e.getMessage(), e);
        }
    }

    @Override
    public InputStream open(Location location, long offset) {
        FileChannel channel = null;
        try {
            channel = FileChannel.open(location.path(), StandardOpenOption.READ);
            channel.position(offset);
            return Channels.newInputStream(channel);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot open " + location + ": " + e.getMessage(), e);
        }
    }

    @Override
    public OutputStream create(Location location) {
        try {
            Path path = location.path();
            if (path.getParent() != null) {
                Files.createDirectories(path.getParent());
            }
            return Files.newOutputStream(path);
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot create " + location + ": " + e.getMessage(), e);
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // already failing
            }
        }
    }

    /** Positional reads of a file channel. */
    private record ChannelReader(FileChannel channel, long size) implements RandomReader {
        @Override
        public void readFully(long position, ByteBuffer buffer) throws IOException {
            long at = position;
            while (buffer.hasRemaining()) {
                int read = channel.read(buffer, at);
                if (read < 0) {
                    throw new EOFException("end of file at byte " + at + " of " + size);
                }
                at += read;
            }
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    @Override
    public String toString() {
        return "local";
    }
}
