package dev.tablequeue.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.test.Engine;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The demo on a SQLite file, and on the default one: a fresh temporary file. */
class SqliteDemoIT extends DemoContract {

    @Override
    protected Engine engine() {
        return Engine.SQLITE;
    }

    @Test
    void without_a_url_the_demo_runs_on_a_fresh_temporary_sqlite_file_and_deletes_it() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        Summary summary = run(out, "--jobs", "50");

        String printed = out.toString(StandardCharsets.UTF_8);
        assertThat(summary.ok()).as(printed).isTrue();
        Matcher file = Pattern.compile("on jdbc:sqlite:(\\S+)\\?\\S* \\(a temporary file, deleted at the end\\)")
                .matcher(printed);
        assertThat(file.find()).as(printed).isTrue();
        assertThat(printed).contains("6 migration(s) applied");
        assertThat(Path.of(file.group(1))).doesNotExist();
        assertThat(Files.exists(Path.of(file.group(1)).getParent())).isFalse();
    }
}
