package dev.tablequeue.maven;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.inject.Inject;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.descriptor.PluginDescriptor;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.apache.maven.project.MavenProject;
import org.apache.maven.toolchain.Toolchain;
import org.apache.maven.toolchain.ToolchainManager;

/**
 * Checks every queue binding of the project against its Flyway-migrated schema: migrates a scratch database
 * per configured database, finds every {@code static final RoleBinding} constant in the compiled classes, and
 * for each binding and database prepares every statement the broker will run, checks each role's column and
 * type, the dead-letter tables, and the jOOQ classes for drift, and warns where no index serves a claim.
 * Every violation is reported together, then the build fails once.
 *
 * <p>The checker runs the project's own classes, toolkit and jOOQ, as the service runs them, and its own
 * Flyway and drivers in isolation from the project's ({@link CheckerLoader}); the plugin and the project's
 * toolkit must be of one version. jOOQ 3.21 needs Java 21: where Maven's own JVM is older the check runs in a
 * forked JVM of the toolchain's JDK (maven-toolchains-plugin); where it is new enough, in process.
 */
@Mojo(name = "check", defaultPhase = LifecyclePhase.PROCESS_CLASSES, threadSafe = true,
        requiresDependencyResolution = ResolutionScope.RUNTIME)
public class CheckMojo extends AbstractMojo {
    private static final String DEFAULT_LOCATION = "classpath:db/migration";

    /** Skips the check. */
    @Parameter(property = "tablequeue.check.skip", defaultValue = "false")
    boolean skip;

    /** Flyway's migration locations; by default Flyway's own, {@code db/migration} on the project's resources. */
    @Parameter
    List<String> locations;

    /** Flyway placeholders, for every database. */
    @Parameter
    Map<String, String> placeholders;

    /** The databases to check on; by default one embedded SQLite file under the build directory. */
    @Parameter
    List<Database> databases;

    /**
     * The bindings to check, each a constant ({@code com.example.Queues.SEND_EMAIL}), a class or a package (and
     * its subpackages); by default every {@code static final RoleBinding} constant of the compiled classes.
     */
    @Parameter
    List<String> bindings;

    /** Bindings left out, named as {@code bindings} names them. */
    @Parameter
    List<String> excludes;

    /** The dead-letter tables subscriptions move rows into ({@code deadLetterTable(..)}), per binding. */
    @Parameter
    List<DeadLetterTable> deadLetterTables;

    /** Fails the build on a warning (a claim no index serves) too. */
    @Parameter(property = "tablequeue.check.failOnWarning", defaultValue = "false")
    boolean failOnWarning;

    /**
     * Where the check runs: {@code auto} forks a JVM where Maven's is older than Java 21 and runs in process
     * otherwise; {@code always} forks; {@code never} runs in process (Maven's JVM must then be Java 21+).
     */
    @Parameter(property = "tablequeue.check.fork", defaultValue = "auto")
    String fork;

    /** The {@code java} a fork runs; by default the toolchain's (maven-toolchains-plugin), else Maven's own. */
    @Parameter(property = "tablequeue.check.jvm")
    String jvm;

    @Parameter(defaultValue = "${project.build.outputDirectory}", readonly = true, required = true)
    File classesDirectory;

    @Parameter(defaultValue = "${project.build.directory}/tablequeue-check", readonly = true, required = true)
    File workDirectory;

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    MavenProject project;

    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    MavenSession session;

    @Parameter(defaultValue = "${plugin}", readonly = true, required = true)
    PluginDescriptor plugin;

    private final ToolchainManager toolchains;

    @Inject
    public CheckMojo(ToolchainManager toolchains) {
        this.toolchains = toolchains;
    }

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skip) {
            getLog().info("tablequeue:check is skipped (tablequeue.check.skip)");
            return;
        }
        boolean inProcess = runsInProcess();
        Optional<String> versions = ToolkitVersion.refusal(plugin.getVersion(), project.getArtifacts());
        if (versions.isPresent()) {
            throw new MojoExecutionException(versions.get());
        }
        CheckRequest request = request();
        Path file = workDirectory.toPath().resolve("request.properties");
        Report report = new Report(getLog());
        CheckerLaunch launch = new CheckerLaunch(projectClasspath(), checkerClasspath(), file, report);
        try {
            request.write(file);
            if (inProcess) {
                getLog().debug("tablequeue:check runs in Maven's JVM (Java " + Runtime.version().feature() + ")");
                launch.inProcess();
            } else {
                String java = java();
                getLog().debug("tablequeue:check forks " + java);
                int exit = launch.forked(java);
                if (!report.ended()) {
                    throw new MojoExecutionException("tablequeue:check: the checker JVM (" + java + ") ended with exit"
                            + " code " + exit + " before its report was done:" + System.lineSeparator() + report.tail());
                }
            }
        } catch (MojoExecutionException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoExecutionException("tablequeue:check was interrupted", e);
        } catch (Exception e) {
            throw new MojoExecutionException("tablequeue:check could not run: " + e, e);
        }
        if (!report.ended()) {
            throw new MojoExecutionException("tablequeue:check: the checker ended before its report was done:"
                    + System.lineSeparator() + report.tail());
        }
        if (report.violations() > 0) {
            throw new MojoFailureException("tablequeue:check found " + report.violations() + " violation(s) of the"
                    + " migrated schema (listed above)");
        }
        if (failOnWarning && report.warnings() > 0) {
            throw new MojoFailureException("tablequeue:check found " + report.warnings() + " warning(s), and"
                    + " failOnWarning is set (listed above)");
        }
    }

    private boolean runsInProcess() throws MojoExecutionException {
        String mode = fork == null ? "auto" : fork.trim().toLowerCase(Locale.ROOT);
        boolean modern = Runtime.version().feature() >= 21;
        switch (mode) {
            case "auto":
                return modern && jvm == null;
            case "always":
                return false;
            case "never":
                if (!modern) {
                    throw new MojoExecutionException("tablequeue:check: fork is 'never', and Maven runs on Java "
                            + Runtime.version().feature() + ": jOOQ 3.21 needs Java 21+. Set fork to 'auto'");
                }
                return true;
            default:
                throw new MojoExecutionException("tablequeue:check: fork is '" + fork + "'; it takes auto, always or"
                        + " never");
        }
    }

    /** The {@code java} of the fork: the configured one, else the toolchain's, else this JVM's where it will do. */
    private String java() throws MojoExecutionException {
        if (jvm != null && !jvm.isBlank()) {
            return jvm;
        }
        Toolchain jdk = toolchains.getToolchainFromBuildContext("jdk", session);
        if (jdk != null && jdk.findTool("java") != null) {
            return jdk.findTool("java");
        }
        if (Runtime.version().feature() >= 21) {
            return Path.of(System.getProperty("java.home"), "bin", "java").toString();
        }
        throw new MojoExecutionException("tablequeue:check needs a JDK 21+ (jOOQ 3.21 does), and Maven runs on Java "
                + Runtime.version().feature() + " with no JDK toolchain selected: add maven-toolchains-plugin's"
                + " select-jdk-toolchain (version [21,)) to the build, or set <jvm> to a JDK 21+'s java");
    }

    /** The project's runtime class path: its classes and dependencies, as the service runs them. */
    private List<File> projectClasspath() throws MojoExecutionException {
        List<File> files = new ArrayList<>();
        try {
            for (String element : project.getRuntimeClasspathElements()) {
                files.add(new File(element));
            }
        } catch (Exception e) {
            throw new MojoExecutionException("tablequeue:check cannot read the project's runtime class path: " + e, e);
        }
        return files;
    }

    /**
     * The checker's own class path: the plugin's jar and every dependency it brings (Flyway, the drivers,
     * Testcontainers), whatever versions of them the project holds; the loader keeps the two apart.
     */
    private List<File> checkerClasspath() {
        Set<File> files = new LinkedHashSet<>();
        files.add(plugin.getPluginArtifact().getFile());
        for (Artifact a : plugin.getArtifacts()) {
            if (a.getFile() != null) {
                files.add(a.getFile());
            }
        }
        return new ArrayList<>(files);
    }

    private CheckRequest request() throws MojoExecutionException {
        CheckRequest request = new CheckRequest()
                .put("classes", classesDirectory.getAbsolutePath())
                .put("work", workDirectory.getAbsolutePath())
                .putList("bindings", bindings)
                .putList("excludes", excludes)
                .putList("locations", locations == null || locations.isEmpty() ? List.of(DEFAULT_LOCATION) : locations)
                .putMap("placeholder", placeholders);
        List<Database> checked = databases == null || databases.isEmpty() ? List.of(new Database()) : databases;
        request.put("databases", Integer.toString(checked.size()));
        for (int i = 0; i < checked.size(); i++) {
            Database d = checked.get(i);
            boolean url = d.url != null && !d.url.isBlank();
            boolean container = d.container != null && !d.container.isBlank();
            if (url && container) {
                throw new MojoExecutionException("tablequeue:check: " + d.describe(i) + " sets both <url> and"
                        + " <container>; give one");
            }
            String key = "database." + i;
            request.put(key + ".id", d.id)
                    .put(key + ".url", url ? d.url.trim() : null)
                    .put(key + ".container", container ? d.container.trim() : null)
                    .put(key + ".optional", Boolean.toString(d.optional))
                    .putList(key + ".locations", d.locations)
                    .putList(key + ".bindings", d.bindings)
                    .putList(key + ".excludes", d.excludes)
                    .putMap(key + ".placeholder", d.placeholders);
        }
        List<DeadLetterTable> dead = deadLetterTables == null ? List.of() : deadLetterTables;
        request.put("deadLetters", Integer.toString(dead.size()));
        for (int i = 0; i < dead.size(); i++) {
            DeadLetterTable t = dead.get(i);
            if (t.binding == null || t.binding.isBlank() || t.table == null || t.table.isBlank()) {
                throw new MojoExecutionException("tablequeue:check: deadLetterTables[" + i + "] needs both <binding>"
                        + " and <table>");
            }
            request.put("deadLetter." + i + ".binding", t.binding.trim()).put("deadLetter." + i + ".table", t.table.trim());
        }
        return request;
    }
}
