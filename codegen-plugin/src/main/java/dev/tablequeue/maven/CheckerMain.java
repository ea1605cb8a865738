package dev.tablequeue.maven;

import java.io.File;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * The forked JVM's entry point: {@code CheckerMain <request file>}, on a class path of the plugin's jar alone.
 * It reads the project's and the checker's class paths from the files {@link CheckerLaunch} wrote beside the
 * request, and runs the checker in a {@link CheckerLoader} over them, as the goal does in process.
 */
public final class CheckerMain {
    private CheckerMain() {}

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        if (Runtime.version().feature() < 21) {
            out.println("tablequeue:check needs Java 21+ (jOOQ 3.21 does), and this JVM is Java " + Runtime.version()
                    + " at " + System.getProperty("java.home"));
            System.exit(2);
        }
        Path request = Path.of(args[0]);
        Consumer<String> lines = out::println;
        try (CheckerLoader loader = CheckerLoader.of(read(CheckerLaunch.projectFile(request)),
                read(CheckerLaunch.checkerFile(request)))) {
            Thread.currentThread().setContextClassLoader(loader);
            Class.forName(CheckerLaunch.CHECKER, true, loader).getMethod("run", Path.class, Consumer.class)
                    .invoke(null, request, lines);
        } catch (InvocationTargetException e) {
            // the goal shows the lines of a checker that ended before its report; this is the last of them
            e.getCause().printStackTrace(out);
            System.exit(1);
        }
    }

    private static List<File> read(Path file) throws java.io.IOException {
        return Files.readAllLines(file, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).map(File::new)
                .toList();
    }
}
