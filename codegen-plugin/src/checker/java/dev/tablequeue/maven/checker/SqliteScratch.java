package dev.tablequeue.maven.checker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A fresh SQLite file under the check's folder, deleted afterwards. */
final class SqliteScratch implements Scratch {
    private final String label;
    private final Path file;

    private SqliteScratch(String label, Path file) {
        this.label = label;
        this.file = file;
    }

    /** Creates the file {@code <work>/<label>.db}, replacing one an earlier run left. */
    static SqliteScratch create(String label, Path work) {
        Path file = work.resolve(label.replaceAll("[^A-Za-z0-9_.-]", "_") + ".db");
        try {
            Files.createDirectories(work);
            delete(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make the SQLite file " + file, e);
        }
        return new SqliteScratch(label, file);
    }

    @Override
    public String label() {
        return label;
    }

    @Override
    public String url() {
        return "jdbc:sqlite:" + file;
    }

    @Override
    public void close() {
        try {
            delete(file);
        } catch (IOException e) {
            // under target/: the next run replaces it
        }
    }

    private static void delete(Path file) throws IOException {
        for (String suffix : new String[] {"", "-wal", "-shm", "-journal"}) {
            Files.deleteIfExists(file.resolveSibling(file.getFileName() + suffix));
        }
    }
}
