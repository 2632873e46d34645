package dev.quiver.image;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * A container image as Jib's {@code buildTar} writes it (the {@code docker save} layout): a
 * {@code manifest.json} naming the config and the gzipped layer blobs, each named by its digest.
 * Reads the manifest and config (one pass over the tarball, nothing decompressed), and on demand
 * every layer's files with their digests (which decompresses and hashes all of it), so tests can
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
    /** Read on the first {@link #layers()}: only the tests of the layers pay for hashing them. */
    private List<Layer> layers;

    private ImageTarball(Path tarball, JsonNode manifest, JsonNode config) {
        this.tarball = requireNonNull(tarball, "tarball is null");
        this.manifest = requireNonNull(manifest, "manifest is null");
        this.config = requireNonNull(config, "config is null");
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
            return new ImageTarball(tarball, manifest, config);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the image tarball " + tarball, e);
        }
    }

    /** The texts of a JSON array of strings (an entrypoint, an environment, container arguments). */
    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(node -> out.add(node.asText()));
        return out;
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
    synchronized List<Layer> layers() {
        if (layers == null) {
            layers = readLayers();
        }
        return layers;
    }

    private List<Layer> readLayers() {
        List<String> blobs = blobs();
        Map<String, Layer> byBlob = new LinkedHashMap<>();
        try {
            forEachEntry(tarball, (entry, in) -> {
                if (blobs.contains(entry.getName())) {
                    byBlob.put(entry.getName(), readLayer(entry.getName(), in));
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the layers of " + tarball, e);
        }
        return blobs.stream().map(byBlob::get).toList();
    }

    /** The layer blobs' names in the tarball, base first, as the manifest lists them. */
    private List<String> blobs() {
        return strings(manifest.get("Layers"));
    }

    /** A file as the container sees it: from the last layer that has it. */
    LayerFile file(String path) {
        LayerFile found = null;
        for (Layer layer : layers()) {
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
            for (String blob : blobs()) {
                forEachEntry(tarball, (entry, in) -> {
                    if (entry.getName().equals(blob)) {
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
                    Files.copy(tar, path, StandardCopyOption.REPLACE_EXISTING);
                } else {
                    throw new IOException("unexpected layer entry (not a file or directory): " + entry.getName());
                }
                Files.setPosixFilePermissions(path, permissions(entry.getMode()));
            }
        }
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] bits = PosixFilePermission.values();
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
            uncompressed.transferTo(OutputStream.nullOutputStream());
        }
        compressed.transferTo(OutputStream.nullOutputStream());
        HexFormat hex = HexFormat.of();
        return new Layer(blob, "sha256:" + hex.formatHex(blobDigest.digest()), "sha256:" + hex.formatHex(tarDigest.digest()), files);
    }

    private static InputStream nonClosing(InputStream in) {
        return new FilterInputStream(in) {
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
