package dev.tablequeue.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class ReportWritersTest {
    private final BenchReport report = Fixtures.report();

    @Test
    void the_targets_section_names_issues_13_and_14_and_says_met_not_met_or_not_measured() {
        String md = MarkdownReport.render(report);
        assertThat(md).contains("## Targets (issues 13 and 14)").doesNotContain("issues 4");
        assertThat(md).contains("| PostgreSQL row lock, 8 workers: tablequeue >= 2.0 x db-scheduler at 8 threads"
                + " | 7,600 / 4,000 = 1.90 | **not met** |");
        assertThat(md).contains("| PostgreSQL lease, 8 workers: tablequeue >= 1.6 x db-scheduler at 8 threads"
                + " | not measured | not measured |");
        assertThat(md).contains("| PostgreSQL row lock, 8 workers: tablequeue's heap B/msg <= 2.0 x raw's"
                + " | 1,500 / 1,500 = 1.00 | met |");
        assertThat(md).contains("| PostgreSQL LISTEN/NOTIFY publish-to-handler p50 < 5.0 ms | 5.00 ms | **not met** |");
    }

    @Test
    void the_markdown_puts_tablequeue_beside_raw_with_the_ratio_and_the_spread() {
        String md = MarkdownReport.render(report);
        assertThat(md).contains("| postgres | consume | row lock | 1 | 2,000 (2,100 - 1,900) | 4,000 (4,200 - 3,800)"
                + " | 0.50 | 1,500 | 1,500 | 10,000 | 2.4 |");
        assertThat(md).contains("| postgres | consume | lease | 8 | failed | 5,000 (5,000 - 5,000) | - |");
        assertThat(md).contains("| 8 | 4,000 (4,000 - 4,000) | 1,500 | 7,600 | 1.90 | - | - | - | - |");
        assertThat(md).contains(
                "| postgres | LISTEN/NOTIFY (publisher in another broker) | 100 | 5.00 | 9.90 | 10.00 |");
        assertThat(md).contains("| synchronous_commit (bench database) | off |");
        assertThat(md).contains("- a note on the method");
        assertThat(md).contains("## Failures").contains("timed out \\| after 60 s");
    }

    @Test
    void a_diagnostic_contender_gets_a_table_of_its_own_with_its_ratio_to_raw() {
        CaseResult c = Fixtures.rowLockCase(1, List.of(2_000.0), List.of(4_000.0));
        c.add(CaseResult.RAW_VIRTUAL, Fixtures.at(2_500.0));
        BenchReport r = new BenchReport("full", 1, 3.0, report.started(), report.took(), report.machine(),
                report.settings(), List.of(c), List.of(), List.of(), List.of());
        assertThat(MarkdownReport.render(r)).contains("## Other contenders")
                .contains("| postgres | consume | row lock | 1 | raw JDBC, virtual threads | 2,500 (2,500 - 2,500)"
                        + " | 0.63 | 0.80 | 1,500 |");
        assertThat(MarkdownReport.render(report)).doesNotContain("## Other contenders");
    }

    @Test
    void the_json_holds_every_round_and_the_summaries_and_writes_uncounted_figures_as_null() throws Exception {
        JsonNode root = new ObjectMapper().readTree(JsonReport.render(report));
        assertThat(root.path("mode").asText()).isEqualTo("full");
        assertThat(root.path("tookSeconds").asLong()).isEqualTo(125);
        JsonNode first = root.path("cases").get(0);
        assertThat(first.path("workers").asInt()).isEqualTo(1);
        assertThat(first.path("ratioToRaw").asDouble()).isEqualTo(0.5);
        JsonNode ours = first.path("contenders").path(CaseResult.TABLEQUEUE);
        assertThat(ours.path("rounds")).hasSize(3);
        assertThat(ours.path("median").asDouble()).isEqualTo(2_000.0, org.assertj.core.data.Offset.offset(0.01));
        assertThat(ours.path("best").asDouble()).isEqualTo(2_100.0, org.assertj.core.data.Offset.offset(0.01));
        assertThat(ours.path("bytesPerMessage").asDouble()).isEqualTo(1_500.0);
        assertThat(root.path("cases").get(2).path("failures").get(0).asText()).contains("timed out");
        assertThat(root.path("latencies").get(0).path("p99Millis").asDouble()).isEqualTo(9.9);
        assertThat(root.path("targets")).anySatisfy(t -> assertThat(t.path("met").isNull()).isTrue());
        assertThat(root.path("failures")).hasSize(1);

        CaseResult uncounted = new CaseResult(Databases.SQLITE, Scenarios.CONSUME, Forms.LEASE, 1);
        uncounted.add(CaseResult.RAW, new Measurement(10, 1_000, -1));
        BenchReport r = new BenchReport("quick", 1, 0, report.started(), report.took(), report.machine(),
                report.settings(), List.of(uncounted), List.of(), List.of(), List.of());
        JsonNode round = new ObjectMapper().readTree(JsonReport.render(r)).path("cases").get(0).path("contenders")
                .path(CaseResult.RAW);
        assertThat(round.path("rounds").get(0).path("bytesPerMessage").isNull()).isTrue();
        assertThat(round.path("bytesPerMessage").isNull()).isTrue();
    }

    @Test
    void the_chart_is_well_formed_svg_with_a_panel_per_database_and_form_and_a_line_per_contender() throws Exception {
        String svg = SvgChart.render(report);
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertThat(doc.getDocumentElement().getTagName()).isEqualTo("svg");
        assertThat(doc.getDocumentElement().getAttribute("width")).isEqualTo("960");
        NodeList lines = doc.getElementsByTagName("polyline");
        // postgres row lock: tablequeue, raw, db-scheduler; lease: raw, db-scheduler; advisory: db-scheduler;
        // sqlite advisory: tablequeue, raw
        assertThat(lines.getLength()).isEqualTo(8);
        Element first = (Element) lines.item(0);
        assertThat(first.getAttribute("stroke")).isEqualTo(SvgChart.TABLEQUEUE_COLOUR);
        assertThat(first.getAttribute("points").split(" ")).hasSize(2);
        assertThat(svg).contains("postgres - row lock").contains("sqlite - lease")
                .contains("not served / not measured");
    }

    @Test
    void a_chart_axis_ends_on_a_round_number_at_or_above_the_highest_value() {
        assertThat(SvgChart.niceCeiling(7_700)).isEqualTo(10_000);
        assertThat(SvgChart.niceCeiling(4_100)).isEqualTo(5_000);
        assertThat(SvgChart.niceCeiling(2_100)).isEqualTo(2_500);
        assertThat(SvgChart.niceCeiling(1_000)).isEqualTo(1_000);
        assertThat(SvgChart.niceCeiling(0)).isEqualTo(1);
        assertThat(SvgChart.escape("a<b & \"c\"")).isEqualTo("a&lt;b &amp; &quot;c&quot;");
    }

    @Test
    void options_come_in_one_argument_as_maven_passes_them() {
        BenchOptions o = BenchOptions.parse("--out=/tmp/x", "--quick --databases=postgres,sqlite  --workers=8,1", "");
        assertThat(o.quick()).isTrue();
        assertThat(o.rounds()).isEqualTo(1);
        assertThat(o.databases()).containsExactly(Engine.POSTGRES, Engine.SQLITE);
        assertThat(o.workers()).containsExactly(1, 8);
        assertThat(o.publishThreads()).containsExactly(1, 8);
        BenchOptions full = BenchOptions.parse();
        assertThat(full.quick()).isFalse();
        assertThat(full.rounds()).isEqualTo(3);
        assertThat(full.workers()).containsExactly(1, 4, 8);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> BenchOptions.parse("--fast"))
                .hasMessageContaining("unknown option \"--fast\"");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> BenchOptions.parse("--skip=everything"))
                .hasMessageContaining("--skip takes");
        BenchOptions outbox = BenchOptions.parse("--only=outbox");
        assertThat(outbox.runs("outbox")).isTrue();
        assertThat(BenchOptions.PARTS.stream().filter(outbox::runs)).containsExactly("outbox");
    }

    @Test
    void batch_cases_get_their_table_with_the_ratio_to_the_batched_loop_and_to_db_scheduler_at_the_same_threads() {
        CaseResult batch = new CaseResult(Databases.POSTGRES, Scenarios.consumeBatch(64), Forms.ROW_LOCK, 8);
        batch.add(CaseResult.TABLEQUEUE, Fixtures.at(66_000.0));
        batch.add(CaseResult.RAW_BATCHED, Fixtures.at(80_000.0));
        CaseResult peer = new CaseResult(Databases.POSTGRES, Scenarios.CONSUME, Forms.DB_SCHEDULER, 8);
        peer.add(CaseResult.DB_SCHEDULER, Fixtures.at(12_000.0));
        BenchReport r = new BenchReport("full", 1, 3.0, report.started(), report.took(), report.machine(),
                report.settings(), List.of(batch, peer), List.of(), List.of(), List.of());
        String md = MarkdownReport.render(r);
        assertThat(md).contains("## Batches")
                .contains("| postgres | consume, batch(64) | row lock | 8 | 66,000 (66,000 - 66,000)"
                        + " | 80,000 (80,000 - 80,000) | 0.82 | 5.50 |")
                .contains("| PostgreSQL row lock batch(64), 8 workers: tablequeue >= 5.0 x db-scheduler at 8 threads"
                        + " | 66,000 / 12,000 = 5.50 | met |")
                .contains("| PostgreSQL row lock batch(64), 8 workers: tablequeue >= 0.7 x raw batched"
                        + " | 66,000 / 80,000 = 0.82 | met |")
                .doesNotContain("## Other contenders");
    }

    @Test
    void the_growth_case_compares_a_table_behind_its_acknowledged_rows_with_the_pending_rows_alone() {
        CaseResult grown = new CaseResult(Databases.POSTGRES, Scenarios.CONSUME_GROWN, Forms.ROW_LOCK, 8);
        grown.add(CaseResult.TABLEQUEUE, Fixtures.at(10_000.0));
        grown.add(CaseResult.GROWN, Fixtures.at(8_500.0));
        BenchReport r = new BenchReport("full", 1, 3.0, report.started(), report.took(), report.machine(),
                report.settings(), List.of(grown), List.of(), List.of(), List.of());
        assertThat(MarkdownReport.render(r)).contains("## Tables that keep their acknowledged rows")
                .contains("1,000,000 of them")
                .contains("| postgres | row lock | 8 | 10,000 (10,000 - 10,000) | 8,500 (8,500 - 8,500) | 0.85 |")
                .contains("behind acknowledged rows: >= 0.9 x the pending rows alone | 8,500 / 10,000 = 0.85"
                        + " | **not met** |");
    }

    @Test
    void the_retention_case_compares_claims_with_retention_deleting_to_the_same_table_without() {
        CaseResult retained = new CaseResult(Databases.MARIADB, Scenarios.CONSUME_RETAINED, Forms.ROW_LOCK, 8);
        retained.add(CaseResult.GROWN, Fixtures.at(10_000.0));
        retained.add(CaseResult.RETAINED, Fixtures.at(9_500.0));
        BenchReport r = new BenchReport("full", 1, 3.0, report.started(), report.took(), report.machine(),
                report.settings(), List.of(retained), List.of(), List.of(), List.of());
        assertThat(MarkdownReport.render(r)).contains("## Claims while retention deletes")
                .contains("| mariadb | row lock | 8 | 10,000 (10,000 - 10,000) | 9,500 (9,500 - 9,500) | 0.95 |")
                .contains("| MariaDB row lock, 8 workers, while retention deletes acknowledged rows: >= 0.9 x without"
                        + " retention | 9,500 / 10,000 = 0.95 | met |")
                .contains("| SQLite lease, 8 workers, while retention deletes acknowledged rows: >= 0.9 x without"
                        + " retention | not measured | not measured |")
                .doesNotContain("## Other contenders");
    }

    @Test
    void a_steady_state_run_lists_its_latency_per_slice_and_the_tables_statistics() throws Exception {
        SteadyResult run = new SteadyResult(Databases.POSTGRES, Forms.LEASE, 8, 12_000, 0.6, Duration.ofMinutes(2),
                Duration.ofMinutes(1), 1_440_000, 1_430_000, List.of(List.of(1.0, 2.0, 3.0), List.of(4.0)), 5_000,
                1_440_000, 3);
        BenchReport r = new BenchReport("full", 1, 3.0, report.started(), report.took(), report.machine(),
                report.settings(), List.of(), List.of(), List.of(run), List.of());
        assertThat(MarkdownReport.render(r)).contains("## Steady state")
                .contains("| lease | 8 | 60% | 12,000 | 1,440,000 | 10,000 | 2.0 / 3.0, 4.0 / 4.0 (slices of 60 s) | 5,000"
                        + " | 1,440,000 | 3 |");
        JsonNode steady = new ObjectMapper().readTree(JsonReport.render(r)).path("steady").get(0);
        assertThat(steady.path("slices")).hasSize(2);
        assertThat(steady.path("deadTuples").asLong()).isEqualTo(5_000);
        assertThat(steady.path("handled").asLong()).isEqualTo(1_430_000);
        assertThat(steady.path("share").asDouble()).isEqualTo(0.6);
    }
}
