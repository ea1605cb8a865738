package dev.tablequeue.maven;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.artifact.DefaultArtifact;
import org.apache.maven.artifact.handler.DefaultArtifactHandler;
import org.junit.jupiter.api.Test;

/** The check runs the project's own toolkit with its own code, so the two must be of one version. */
class ToolkitVersionTest {
    private static Artifact artifact(String id, String version) {
        return new DefaultArtifact("dev.tablequeue", id, version, "compile", "jar", null,
                new DefaultArtifactHandler("jar"));
    }

    private static final Artifact JOOQ = new DefaultArtifact("org.jooq", "jooq", "3.19.35", "compile", "jar", null,
            new DefaultArtifactHandler("jar"));

    @Test
    void a_toolkit_of_the_plugins_version_is_checked() {
        assertThat(ToolkitVersion.refusal("0.2.0", List.of(JOOQ, artifact("tablequeue-toolkit", "0.2.0"),
                artifact("tablequeue-outbox", "0.2.0")))).isEmpty();
    }

    @Test
    void a_toolkit_of_another_version_is_refused_naming_both_versions() {
        assertThat(ToolkitVersion.refusal("0.2.0", List.of(JOOQ, artifact("tablequeue-toolkit", "0.1.0"))))
                .hasValueSatisfying(why -> assertThat(why)
                        .contains("tablequeue:check is version 0.2.0, and the project's tablequeue-toolkit is 0.1.0")
                        .contains("must be of one version"));
    }

    @Test
    void an_outbox_of_another_version_is_refused_too() {
        assertThat(ToolkitVersion.refusal("0.2.0", List.of(artifact("tablequeue-toolkit", "0.2.0"),
                artifact("tablequeue-outbox", "0.1.0"))))
                .hasValueSatisfying(why -> assertThat(why).contains("its tablequeue-outbox is 0.1.0"));
    }

    @Test
    void a_project_without_the_toolkit_is_refused_saying_what_to_add() {
        assertThat(ToolkitVersion.refusal("0.2.0", List.of(JOOQ)))
                .hasValueSatisfying(why -> assertThat(why).contains("has none")
                        .contains("dev.tablequeue:tablequeue-toolkit:0.2.0"));
    }
}
