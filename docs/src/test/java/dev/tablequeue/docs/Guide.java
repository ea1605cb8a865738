package dev.tablequeue.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The adoption guide as its tests read it: the fenced block after each {@code <!-- run: KEY -->} marker is
 * what a test executes.
 */
final class Guide {
    private final List<String> lines;

    private Guide(List<String> lines) {
        this.lines = lines;
    }

    /** {@code docs/adopting.md}, which the build copies onto the test class path. */
    static Guide adopting() {
        try (InputStream in = Guide.class.getResourceAsStream("/adopting.md")) {
            if (in == null) {
                throw new IllegalStateException("adopting.md is not on the class path (the docs module copies it there)");
            }
            return new Guide(new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the guide adopting.md", e);
        }
    }

    /** The text of the fenced block marked {@code <!-- run: key -->}. */
    String block(String key) {
        String marker = "<!-- run: " + key + " -->";
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).trim().equals(marker)) {
                int open = i + 1;
                if (open >= lines.size() || !lines.get(open).startsWith("```")) {
                    throw new IllegalStateException("the guide's marker " + marker + " is not followed by a fenced block");
                }
                StringBuilder text = new StringBuilder();
                for (int j = open + 1; j < lines.size(); j++) {
                    if (lines.get(j).startsWith("```")) {
                        return text.toString();
                    }
                    text.append(lines.get(j)).append('\n');
                }
                throw new IllegalStateException("the guide's block " + marker + " is not closed");
            }
        }
        throw new IllegalStateException("the guide has no block marked " + marker);
    }

    /** The SQL statements of the block marked {@code key}: its text split at each {@code ;} that ends a line. */
    List<String> statements(String key) {
        List<String> statements = new ArrayList<>();
        for (String part : block(key).split(";\\s*\\n")) {
            if (!part.isBlank()) {
                statements.add(part.trim());
            }
        }
        return statements;
    }

}
