package dev.quiver.image;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * A container image as Jib's {@code buildTar} writes it (the {@code docker save} layout): a
 * {@code manifest.json} naming the config and the gzipped layer blobs, each named by its digest.
 * Reads the manifest and config, and lists every layer's files with their digests, so tests can
 * check what a {@code docker load} would get without a daemon.
 */
final class ImageTarball {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One file of a layer: its path without the leading slash, mode bits, size and, for small files, the bytes. */
    record LayerFile(String path, int mode, long size, boolean directory, byte[] content) {}

    /** A layer: its blob name in the tarball, the sha256 of the blob and of the uncompressed tar, and its files. */
    record Layer(String blob, String blobDigest, String diffId, Map<String, LayerFile> files) {}

    private final Path tarball;
    private final JsonNode manifest;
    private final JsonNode config;
    private final List<Layer> layers;

    private ImageTarball(Path tarball, JsonNode manifest, JsonNode config, List<Layer> layers) {
        this.tarball = requireNonNull(tarball, "tarball is null");
        this.manifest = manifest;
        this.config = config;
        this.layers = List.copyOf(layers);
    }

    static ImageTarball read(Path tarball) {
        try {
            Map<String, byte[]> small = new LinkedHashMap<>();
            forEachEntry(tarball, (entry, in) -> {
                if (entry.getName().endsWith(".json")) {
                    small.put(entry.getName(), in.readAllBytes());
                }
            });
            JsonNode manifest = JSON.readTree(requireNonNull(small.get("manifest.json"), "no manifest.json in " + tarball)).get(0);
            JsonNode config = JSON.readTree(requireNonNull(small.get(manifest.get("Config").asText()), "no config in " + tarball));
            List<String> blobs = new ArrayList<>();
            manifest.get("Layers").forEach(layer -> blobs.add(layer.asText()));
            Map<String, Layer> layers = new LinkedHashMap<>();
            forEachEntry(tarball, (entry, in) -> {
                if (blobs.contains(entry.getName())) {
                    layers.put(entry.getName(), readLayer(entry.getName(), in));
                }
            });
            return new ImageTarball(tarball, manifest, config, blobs.stream().map(layers::get).toList());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the image tarball " + tarball, e);
        }
    }

    Path path() {
        return tarball;
    }

    /** The manifest.json entry of the one image. */
    JsonNode manifest() {
        return manifest;
    }

    /** The image configuration (architecture, os, config.Entrypoint, rootfs.diff_ids, ...). */
    JsonNode config() {
        return config;
    }

    /** The layers, base first. */
    List<Layer> layers() {
        return layers;
    }

    /** A file as the container sees it: from the last layer that has it. */
    LayerFile file(String path) {
        LayerFile found = null;
        for (Layer layer : layers) {
            LayerFile file = layer.files().get(path);
            found = file != null ? file : found;
        }
        return found;
    }

    /**
     * Unpacks the layers, base first, into {@code target}: the container's filesystem, with each
     * file's mode. (Jib's layers hold regular files and directories only.)
     */
    void extract(Path target) {
        try {
            for (Layer layer : layers) {
                forEachEntry(tarball, (entry, in) -> {
                    if (entry.getName().equals(layer.blob())) {
                        extractLayer(new GZIPInputStream(nonClosing(in)), target);
                    }
                });
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unpack " + tarball + " into " + target, e);
        }
    }

    private static void extractLayer(InputStream layer, Path target) throws IOException {
        try (TarArchiveInputStream tar = new TarArchiveInputStream(layer)) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                Path path = target.resolve(entry.getName().replaceFirst("^/", "")).normalize();
                if (!path.startsWith(target)) {
                    throw new IOException("layer entry outside the filesystem: " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(path);
                } else if (entry.isFile()) {
                    Files.createDirectories(path.getParent());
                    Files.copy(tar, path, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                } else {
                    throw new IOException("unexpected layer entry (not a file or directory): " + entry.getName());
                }
                Files.setPosixFilePermissions(path, permissions(entry.getMode()));
            }
        }
    }

    private static java.util.Set<java.nio.file.attribute.PosixFilePermission> permissions(int mode) {
        java.util.Set<java.nio.file.attribute.PosixFilePermission> set = java.util.EnumSet.noneOf(java.nio.file.attribute.PosixFilePermission.class);
        java.nio.file.attribute.PosixFilePermission[] bits = java.nio.file.attribute.PosixFilePermission.values();
        // values() runs OWNER_READ .. OTHERS_EXECUTE, i.e. from bit 8 down to bit 0
        for (int i = 0; i < bits.length; i++) {
            if ((mode & (1 << (8 - i))) != 0) {
                set.add(bits[i]);
            }
        }
        return set;
    }

    private interface EntryReader {
        void read(TarArchiveEntry entry, InputStream in) throws IOException;
    }

    private static void forEachEntry(Path tarball, EntryReader reader) throws IOException {
        try (TarArchiveInputStream tar = new TarArchiveInputStream(Files.newInputStream(tarball))) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                reader.read(entry, tar);
            }
        }
    }

    /** Reads a gzipped layer blob to its end, hashing the blob and the tar inside it. */
    private static Layer readLayer(String blob, InputStream in) throws IOException {
        MessageDigest blobDigest = sha256();
        MessageDigest tarDigest = sha256();
        Map<String, LayerFile> files = new LinkedHashMap<>();
        DigestInputStream compressed = new DigestInputStream(nonClosing(in), blobDigest);
        try (DigestInputStream uncompressed = new DigestInputStream(new GZIPInputStream(compressed), tarDigest);
                TarArchiveInputStream tar = new TarArchiveInputStream(uncompressed)) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                String path = entry.getName().replaceFirst("^\\./", "").replaceFirst("/$", "");
                byte[] content = !entry.isDirectory() && entry.getSize() <= 64 * 1024 ? tar.readAllBytes() : null;
                files.put(path, new LayerFile(path, entry.getMode() & 07777, entry.getSize(), entry.isDirectory(), content));
            }
            // the tar's end-of-archive blocks and gzip's trailer count in the digests
            uncompressed.transferTo(java.io.OutputStream.nullOutputStream());
        }
        compressed.transferTo(java.io.OutputStream.nullOutputStream());
        HexFormat hex = HexFormat.of();
        return new Layer(blob, "sha256:" + hex.formatHex(blobDigest.digest()), "sha256:" + hex.formatHex(tarDigest.digest()), files);
    }

    private static InputStream nonClosing(InputStream in) {
        return new java.io.FilterInputStream(in) {
            @Override
            public void close() {
                // the outer tar stream stays open for its next entry
            }
        };
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
