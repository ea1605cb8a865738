package dev.tablequeue.maven;

import java.util.Collection;
import java.util.Optional;
import org.apache.maven.artifact.Artifact;

/**
 * The rule that the plugin and the project's toolkit (and outbox, where it has one) are of one version: the
 * checker runs the project's own toolkit, and its code is built against the toolkit of its own version.
 */
final class ToolkitVersion {
    static final String GROUP = "dev.tablequeue";

    private ToolkitVersion() {}

    /**
     * Why the plugin of {@code pluginVersion} cannot check a project with {@code artifacts} on its runtime class
     * path, or empty where it can.
     */
    static Optional<String> refusal(String pluginVersion, Collection<Artifact> artifacts) {
        Artifact toolkit = null;
        StringBuilder others = new StringBuilder();
        for (Artifact a : artifacts) {
            if (!GROUP.equals(a.getGroupId()) || !"jar".equals(a.getType()) || a.getClassifier() != null) {
                continue;
            }
            if ("tablequeue-toolkit".equals(a.getArtifactId())) {
                toolkit = a;
            } else if ("tablequeue-outbox".equals(a.getArtifactId()) && !pluginVersion.equals(a.getBaseVersion())) {
                others.append(", and its tablequeue-outbox is ").append(a.getBaseVersion());
            }
        }
        if (toolkit == null) {
            return Optional.of("tablequeue:check runs the project's own tablequeue-toolkit, and the project's runtime"
                    + " class path has none: add " + GROUP + ":tablequeue-toolkit:" + pluginVersion + " to its"
                    + " dependencies (the bindings are built with it)");
        }
        if (!pluginVersion.equals(toolkit.getBaseVersion()) || others.length() > 0) {
            return Optional.of("tablequeue:check is version " + pluginVersion + ", and the project's"
                    + " tablequeue-toolkit is " + toolkit.getBaseVersion() + others + ": the check runs the project's"
                    + " toolkit with its own code, so the two must be of one version; set the plugin's version to the"
                    + " toolkit's (or import tablequeue-bom and use ${...} of one property for both)");
        }
        return Optional.empty();
    }
}
