package dev.tablequeue.maven;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * What the goal asks the checker to check, handed over as a properties file: the goal runs in Maven's JVM
 * (Java 17 or later) and the checker in a JVM or class loader of the project's JDK 21+, so nothing but text
 * crosses between them. Lists are stored one element per indexed key ({@code locations.0}, ...), maps one
 * entry per key under a prefix ({@code placeholder.name}).
 */
public final class CheckRequest {
    private final Properties properties;

    public CheckRequest() {
        this(new Properties());
    }

    private CheckRequest(Properties properties) {
        this.properties = properties;
    }

    /** Reads a request written by {@link #write}. */
    public static CheckRequest read(Path file) throws IOException {
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(in);
        }
        return new CheckRequest(properties);
    }

    /** Writes the request to {@code file}. */
    public void write(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            properties.store(out, "tablequeue:check request");
        }
    }

    /** Sets {@code key} to {@code value}; a null value leaves the key unset. */
    public CheckRequest put(String key, String value) {
        if (value != null) {
            properties.setProperty(key, value);
        }
        return this;
    }

    /** The value of {@code key}, or null. */
    public String get(String key) {
        return properties.getProperty(key);
    }

    /** Sets the list under {@code key}; a null list leaves it unset. */
    public CheckRequest putList(String key, List<String> values) {
        if (values != null) {
            put(key + ".size", Integer.toString(values.size()));
            for (int i = 0; i < values.size(); i++) {
                put(key + "." + i, values.get(i));
            }
        }
        return this;
    }

    /** The list under {@code key}, or null where none was set (an empty list is set, and not null). */
    public List<String> getList(String key) {
        String size = get(key + ".size");
        if (size == null) {
            return null;
        }
        List<String> values = new ArrayList<>();
        for (int i = 0; i < Integer.parseInt(size); i++) {
            values.add(get(key + "." + i));
        }
        return values;
    }

    /** Sets every entry of {@code map} under {@code prefix}. */
    public CheckRequest putMap(String prefix, Map<String, String> map) {
        if (map != null) {
            map.forEach((k, v) -> put(prefix + "." + k, v == null ? "" : v));
        }
        return this;
    }

    /** The entries set under {@code prefix}. */
    public Map<String, String> getMap(String prefix) {
        Map<String, String> map = new LinkedHashMap<>();
        String start = prefix + ".";
        properties.stringPropertyNames().stream().sorted().filter(k -> k.startsWith(start))
                .forEach(k -> map.put(k.substring(start.length()), properties.getProperty(k)));
        return map;
    }
}
