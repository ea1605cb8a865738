package dev.tablequeue.maven.checker;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Runs the checker in the test's JVM and keeps its report. */
final class CheckerRun {
    private CheckerRun() {}

    static List<String> run(Path request) throws Exception {
        List<String> lines = new ArrayList<>();
        Checker.run(request, lines::add);
        return lines;
    }
}
