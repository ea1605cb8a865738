package dev.tablequeue.maven.checker;

import dev.tablequeue.maven.CheckRequest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The check the goal asked for, read from its request.
 *
 * @param classes the project's compiled classes, where bindings are looked for
 * @param work the check's own folder under the build directory (SQLite files)
 */
record CheckConfig(Path classes, Path work, List<DatabaseConfig> databases, List<DeadLetterConfig> deadLetters) {

    /** One database to migrate and check on. */
    record DatabaseConfig(String id, String url, String container, boolean optional, List<String> locations,
            Map<String, String> placeholders, Selection selection) {}

    /** The dead-letter table of the bindings {@code binding} names. */
    record DeadLetterConfig(String binding, String table) {}

    static CheckConfig read(Path file) throws IOException {
        CheckRequest r = CheckRequest.read(file);
        List<String> includes = r.getList("bindings");
        List<String> excludes = orEmpty(r.getList("excludes"));
        List<String> locations = r.getList("locations");
        Map<String, String> placeholders = r.getMap("placeholder");
        List<DatabaseConfig> databases = new ArrayList<>();
        for (int i = 0; i < Integer.parseInt(r.get("databases")); i++) {
            String key = "database." + i;
            List<String> own = r.getList(key + ".bindings");
            List<String> dropped = new ArrayList<>(excludes);
            dropped.addAll(orEmpty(r.getList(key + ".excludes")));
            Map<String, String> merged = new LinkedHashMap<>(placeholders);
            merged.putAll(r.getMap(key + ".placeholder"));
            List<String> ownLocations = r.getList(key + ".locations");
            databases.add(new DatabaseConfig(r.get(key + ".id"), r.get(key + ".url"), r.get(key + ".container"),
                    Boolean.parseBoolean(r.get(key + ".optional")),
                    ownLocations == null || ownLocations.isEmpty() ? locations : ownLocations,
                    merged, new Selection(own != null ? own : includes, dropped)));
        }
        List<DeadLetterConfig> deadLetters = new ArrayList<>();
        for (int i = 0; i < Integer.parseInt(r.get("deadLetters")); i++) {
            deadLetters.add(new DeadLetterConfig(r.get("deadLetter." + i + ".binding"), r.get("deadLetter." + i + ".table")));
        }
        return new CheckConfig(Path.of(r.get("classes")), Path.of(r.get("work")), databases, deadLetters);
    }

    private static List<String> orEmpty(List<String> list) {
        return list == null ? List.of() : list;
    }
}
