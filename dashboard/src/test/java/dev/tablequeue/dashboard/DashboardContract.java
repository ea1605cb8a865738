package dev.tablequeue.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.DeadLetter;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueAdmin;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.test.contract.BrokerFixture;
import dev.tablequeue.test.contract.Jobs;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in a real browser (Debian's headless Chromium) over a seeded queue table: what the page shows,
 * an action taken from it and confirmed, and the actions it refuses and why. Per-database classes name their
 * {@link DashboardDatabase}; screenshots go to {@code target/screenshots/}.
 */
public abstract class DashboardContract extends BrokerFixture {
    /** The tests' "now": whole seconds, so every database keeps the times written exactly. */
    private static final Instant NOW = Instant.parse("2031-03-14T15:09:26Z");
    private static final String TOKEN = "test-token-0123456789abcdef";
    private static final String SMTP = "MailException: SMTP 554 <ops@example.com> mailbox unavailable";
    private static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");

    private WebDriver browser;
    private final HttpClient http = HttpClient.newHttpClient();
    private final List<DashboardServer> servers = new ArrayList<>();

    /** The seeded queue: its table and ids. */
    private Jobs t;
    private InboxQueue<Record> emails;
    private long failingId;
    private final List<Long> deadIds = new ArrayList<>();

    @BeforeAll
    final void startBrowser() {
        browser = Chromium.start();
    }

    @AfterAll
    final void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @AfterEach
    final void stopServers() {
        servers.forEach(DashboardServer::close);
        servers.clear();
    }

    /**
     * Queue "emails" (dead letter: group "escalated") holds three pending rows (due 90, 30 and 10 seconds ago), a
     * row that failed twice and is due in two minutes, two dead letters, and six rows acknowledged in the last
     * fifteen minutes.
     */
    @BeforeEach
    final void seed() {
        clock.set(NOW);
        t = newTable();
        RoleBinding.Builder<Record> roles = Jobs.payloadRoles(t).lastError(t.LAST_ERROR);
        RoleBinding<Record> b = inForm(roles, t, preferredForm());
        emails = InboxQueue.of(b, "emails");
        insert("emails", NOW.minusSeconds(90), 1, null);
        insert("emails", NOW.minusSeconds(30), 1, null);
        insert("emails", NOW.minusSeconds(10), 1, null);
        failingId = insert("emails", NOW.plusSeconds(120), 3, SMTP);
        deadIds.clear();
        deadIds.add(insert("escalated", NOW.minusSeconds(600), 5, "TimeoutException: no answer in 30s"));
        deadIds.add(insert("escalated", NOW.minusSeconds(300), 5, "TimeoutException: no answer in 30s"));
        for (int minutesAgo : new int[] {1, 1, 2, 4, 4, 4}) {
            setTime(insert("emails", NOW.minusSeconds(900), 1, null), "processed_at",
                    NOW.minus(Duration.ofMinutes(minutesAgo)).minusSeconds(20));
        }
    }

    // ================================================================ what the page shows

    @Test
    public final void the_page_shows_each_queues_figures_its_failing_rows_and_its_dead_letters() throws IOException {
        open(serve(d -> d.actions(true).token(TOKEN)));

        assertThat(figure("pending")).isEqualTo("3");
        assertThat(figure("scheduled")).isEqualTo("1");
        assertThat(figure("retried")).isEqualTo("1");
        assertThat(figure("dead")).isEqualTo("2");
        assertThat(figure("oldest")).isEqualTo("1m 30s");
        // a lease is in the table; the row lock and advisory forms keep their deliveries in the broker
        assertThat(figure("in-work")).as("without the broker, in %s", preferredForm())
                .isEqualTo(preferredForm() == Form.LEASE ? "0" : "?");
        assertThat(figure("throughput")).startsWith("6 acknowledged in the last 15 min");
        assertThat(browser.findElements(By.cssSelector("svg.chart rect"))).hasSize(15);
        WebElement failing = browser.findElement(By.cssSelector("table.failing tr[data-id='" + failingId + "']"));
        // the error's angle brackets are text, not markup
        assertThat(failing.getText()).contains(SMTP).contains("3");
        assertThat(browser.findElements(By.cssSelector("table.dead tr[data-id]"))).hasSize(2);
        assertThat(browser.getPageSource()).contains("need the service's broker");
        screenshot("queues");
    }

    // ================================================================ actions

    @Test
    public final void a_redrive_confirmed_on_the_page_moves_the_dead_row_back_into_its_queue() throws IOException {
        open(serve(d -> d.actions(true).token(TOKEN)));
        long dead = deadIds.get(0);

        browser.findElement(By.cssSelector("table.dead tr[data-id='" + dead + "'] button[value='redrive']")).click();
        WebElement question = waitFor(By.cssSelector("p.question"));
        assertThat(question.getText()).contains("Move dead letter " + dead).contains("back into emails");
        assertThat(groupAndAttempt(dead)).as("not before it is confirmed").isEqualTo("escalated/5");
        screenshot("confirm");
        browser.findElement(By.id("confirm")).click();

        assertThat(waitFor(By.cssSelector("p.message")).getText()).isEqualTo("1 row moved back into emails.");
        assertThat(groupAndAttempt(dead)).isEqualTo("emails/1");
        assertThat(groupAndAttempt(deadIds.get(1))).isEqualTo("escalated/5");
        browser.findElement(By.id("back")).click();
        assertThat(waitFor(By.cssSelector("[data-figure='dead']")).getText()).isEqualTo("1");
    }

    @Test
    public final void retry_now_and_delete_confirmed_on_the_page_change_only_their_row() throws IOException {
        open(serve(d -> d.actions(true).token(TOKEN)));

        browser.findElement(By.cssSelector("table.failing tr[data-id='" + failingId + "'] button[value='retry']"))
                .click();
        waitFor(By.id("confirm")).click();
        assertThat(waitFor(By.cssSelector("p.message")).getText())
                .isEqualTo("Row " + failingId + " of emails is due now.");
        assertThat(figureAfterBack("scheduled")).isEqualTo("0");

        long dead = deadIds.get(1);
        browser.findElement(By.cssSelector("table.dead tr[data-id='" + dead + "'] button[value='delete-dead']"))
                .click();
        waitFor(By.id("confirm")).click();
        assertThat(waitFor(By.cssSelector("p.message")).getText()).contains("deleted");
        assertThat(groupAndAttempt(dead)).isEqualTo("gone");
        assertThat(groupAndAttempt(deadIds.get(0))).isEqualTo("escalated/5");
    }

    @Test
    public final void with_the_services_broker_the_page_counts_its_deliveries_in_work_and_pauses_its_subscription()
            throws IOException {
        QueueBroker broker = broker();
        broker.subscribe(emails).payload(Job.class).maxAttempts(5).deadLetter("escalated")
                .handle((job, d) -> Outcome.ack());
        broker.start();
        DashboardServer server = Dashboard.builder(broker).actions(true).token(TOKEN).build()
                .serve(new InetSocketAddress("127.0.0.1", 0));
        servers.add(server);
        open(server);

        assertThat(figure("in-work")).matches("\\d+");
        assertThat(browser.getPageSource()).doesNotContain("need the service's broker");
        browser.findElement(By.xpath("//button[text()='Pause']")).click();
        waitFor(By.id("confirm")).click();

        assertThat(waitFor(By.cssSelector("p.message")).getText()).contains("paused");
        assertThat(broker.isPaused(emails)).isTrue();
        browser.findElement(By.id("back")).click();
        assertThat(waitFor(By.xpath("//button[text()='Resume']")).isDisplayed()).isTrue();
    }

    @Test
    public final void a_table_that_deletes_acknowledged_rows_charts_what_the_services_broker_counted_or_says_why_not()
            throws IOException {
        RoleBinding<Record> deleting = inForm(RoleBinding.of(t, t.ID).group(t.GRP).retryAfter(t.RETRY_AFTER)
                .attempt(t.ATTEMPT).payload(t.PAYLOAD).lastError(t.LAST_ERROR), t, preferredForm());
        InboxQueue<Record> receipts = InboxQueue.of(deleting, "receipts");
        for (int i = 0; i < 3; i++) {
            insert("receipts", NOW.minusSeconds(10), 1, null);
        }
        QueueBroker broker = broker();
        broker.subscribe(receipts).payload(Job.class).handle((job, d) -> Outcome.ack());
        broker.start();
        QueueAdmin admin = QueueAdmin.of(broker);
        awaitCount(t, "grp = 'receipts'", 0);
        org.awaitility.Awaitility.await().atMost(PATIENCE).until(() -> admin.acknowledgedByBroker(receipts, 15)
                .counts().stream().mapToLong(Long::longValue).sum() == 3);

        DashboardServer inService = Dashboard.builder(broker).title("receipts service").clock(clock).token(TOKEN)
                .build().serve(new InetSocketAddress("127.0.0.1", 0));
        servers.add(inService);
        open(inService);
        WebElement chart = browser.findElement(By.cssSelector("[data-queue='receipts'] .chartrow"));
        assertThat(chart.getAttribute("data-chart")).isEqualTo("broker");
        assertThat(chart.findElement(By.cssSelector("[data-figure='throughput']")).getText())
                .startsWith("3 acknowledged in the last 15 min")
                .contains("as this instance's broker counted them");
        List<WebElement> bars = chart.findElements(By.cssSelector("svg.chart rect"));
        assertThat(bars).hasSize(15);
        // acknowledged at the settable clock's minute, the last bar's
        assertThat(bars.get(14).getDomAttribute("height")).isNotEqualTo("0.0");
        assertThat(bars.subList(0, 14)).allSatisfy(bar -> assertThat(bar.getDomAttribute("height")).isEqualTo("0.0"));
        screenshot("broker-chart");

        DashboardServer alone = Dashboard.builder(QueueAdmin.of(pool).withClock(clock)).title("receipts service")
                .clock(clock).token(TOKEN).queue(receipts).build().serve(new InetSocketAddress("127.0.0.1", 0));
        servers.add(alone);
        open(alone);
        WebElement none = browser.findElement(By.cssSelector("[data-queue='receipts'] .chartrow"));
        assertThat(none.getAttribute("data-chart")).isEqualTo("none");
        assertThat(browser.findElement(By.cssSelector("[data-queue='receipts'] [data-figure='processed']")).getText())
                .as("a table that deletes what it acknowledges keeps none").isEqualTo("–");
        assertThat(none.findElements(By.tagName("svg"))).isEmpty();
        assertThat(none.findElement(By.cssSelector("[data-figure='throughput']")).getText())
                .contains("No throughput chart").contains("deletes a row when it is acknowledged")
                .contains("does not run with it");
        screenshot("no-chart");
    }

    // ================================================================ refusals

    @Test
    public final void an_action_whose_form_carries_a_forged_csrf_token_is_refused_and_the_page_says_why()
            throws IOException {
        open(serve(d -> d.actions(true).token(TOKEN)));
        ((org.openqa.selenium.JavascriptExecutor) browser).executeScript(
                "document.querySelectorAll(\"input[name='csrf']\").forEach(i => i.value = 'forged');");

        browser.findElement(By.cssSelector("table.dead tr[data-id='" + deadIds.get(0) + "'] button[value='redrive']"))
                .click();

        assertThat(waitFor(By.cssSelector("p.message")).getText()).contains("CSRF token is not this dashboard's");
        screenshot("refused");
        assertThat(groupAndAttempt(deadIds.get(0))).isEqualTo("escalated/5");
    }

    @Test
    public final void a_post_without_the_csrf_token_from_another_origin_or_under_another_host_gets_403_with_why()
            throws Exception {
        DashboardServer server = serve(d -> d.actions(true).token(TOKEN));
        String csrf = csrf(server);
        Map<String, String> redrive = Map.of("action", "redrive-all", "queue", "0");

        HttpResponse<String> noCsrf = post(server, "confirm", redrive, Map.of());
        HttpResponse<String> foreign = post(server, "run", with(redrive, "csrf", csrf, "confirmed", "yes"),
                Map.of("Origin", "https://evil.example"));
        HttpResponse<String> noToken = http.send(HttpRequest.newBuilder(server.uri()).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> badQueue = post(server, "confirm", with(Map.of("action", "redrive-all", "queue", "7"),
                "csrf", csrf), Map.of());
        HttpResponse<String> badId = post(server, "confirm", with(Map.of("action", "retry", "queue", "0",
                "id", "1; DROP TABLE x"), "csrf", csrf), Map.of());
        // a rebound DNS name reaches the server under another Host; the JDK's client will not send one, so the core
        DashboardResponse rebound = dashboard.handle(new DashboardRequest("GET", "/",
                Map.of("Host", "evil.example:" + server.uri().getPort(), "Authorization", "Bearer " + TOKEN),
                Map.of(), Map.of()));

        assertThat(noCsrf.statusCode()).isEqualTo(403);
        assertThat(noCsrf.body()).contains("carries no CSRF token");
        assertThat(foreign.statusCode()).isEqualTo(403);
        assertThat(foreign.body()).contains("origin https://evil.example");
        assertThat(noToken.statusCode()).isEqualTo(401);
        assertThat(noToken.body()).contains("needs its access token");
        assertThat(badQueue.statusCode()).isEqualTo(400);
        assertThat(badQueue.body()).contains("No queue number");
        assertThat(badId.statusCode()).isEqualTo(400);
        assertThat(badId.body()).contains("is not an id of table " + t.getName());
        assertThat(rebound.status()).isEqualTo(403);
        assertThat(rebound.body()).contains("Host evil.example");
        assertThat(groupAndAttempt(deadIds.get(0))).isEqualTo("escalated/5");
    }

    @Test
    public final void a_read_only_dashboard_shows_no_buttons_and_refuses_a_post() throws Exception {
        DashboardServer server = serve(d -> d);
        browser.get(server.uri().toString());

        assertThat(waitFor(By.cssSelector("[data-figure='dead']")).getText()).isEqualTo("2");
        assertThat(browser.findElements(By.tagName("button"))).isEmpty();
        assertThat(browser.findElements(By.tagName("form"))).isEmpty();
        HttpResponse<String> post = post(server, "run", Map.of("action", "redrive-all", "queue", "0",
                "confirmed", "yes", "csrf", "anything"), Map.of());
        assertThat(post.statusCode()).isEqualTo(403);
        assertThat(post.body()).contains("read-only");
        assertThat(groupAndAttempt(deadIds.get(0))).isEqualTo("escalated/5");
    }

    // ================================================================ helpers

    private Dashboard dashboard;

    private DashboardServer serve(UnaryOperator<Dashboard.Builder> settings) throws IOException {
        QueueAdmin admin = QueueAdmin.of(pool).withClock(clock);
        dashboard = settings.apply(Dashboard.builder(admin).title("mail service").clock(clock)
                .queue(emails, DeadLetter.group("escalated"))).build();
        DashboardServer server = dashboard.serve(new InetSocketAddress("127.0.0.1", 0));
        servers.add(server);
        return server;
    }

    /** Opens the page with the access token, which the dashboard keeps in a cookie and redirects away from. */
    private void open(DashboardServer server) {
        browser.get(server.uri() + "?token=" + TOKEN);
        waitFor(By.cssSelector("section.queue"));
        assertThat(browser.getCurrentUrl()).doesNotContain("token");
    }

    private String figure(String name) {
        return browser.findElement(By.cssSelector("[data-queue='emails'] [data-figure='" + name + "']")).getText();
    }

    private String figureAfterBack(String name) {
        browser.findElement(By.id("back")).click();
        return waitFor(By.cssSelector("[data-queue='emails'] [data-figure='" + name + "']")).getText();
    }

    private WebElement waitFor(By by) {
        return new WebDriverWait(browser, Duration.ofSeconds(20))
                .until(ExpectedConditions.presenceOfElementLocated(by));
    }

    private void screenshot(String page) throws IOException {
        Path dir = Path.of("target", "screenshots");
        Files.createDirectories(dir);
        // the viewport as tall as the page, so the picture holds all of it and no empty space below: the window
        // is set, then grown by what its frame takes from the viewport
        org.openqa.selenium.JavascriptExecutor js = (org.openqa.selenium.JavascriptExecutor) browser;
        int height = Math.max(160, ((Number) js.executeScript(
                "return Math.ceil(document.body.getBoundingClientRect().height);")).intValue());
        Dimension window = browser.manage().window().getSize();
        browser.manage().window().setSize(new Dimension(1280, height));
        int frame = height - ((Number) js.executeScript("return window.innerHeight;")).intValue();
        browser.manage().window().setSize(new Dimension(1280, height + Math.max(0, frame)));
        byte[] png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
        browser.manage().window().setSize(window);
        Files.write(dir.resolve(engine().name().toLowerCase() + "-dashboard-" + page + ".png"), png);
    }

    private String csrf(DashboardServer server) throws Exception {
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(server.uri())
                .header("Authorization", "Bearer " + TOKEN).GET().build(), HttpResponse.BodyHandlers.ofString());
        Matcher m = CSRF.matcher(page.body());
        assertThat(m.find()).as("the page has a form").isTrue();
        return m.group(1);
    }

    private HttpResponse<String> post(DashboardServer server, String path, Map<String, String> form,
            Map<String, String> headers) throws Exception {
        StringBuilder body = new StringBuilder();
        form.forEach((k, v) -> body.append(body.isEmpty() ? "" : "&").append(k).append('=')
                .append(java.net.URLEncoder.encode(v, java.nio.charset.StandardCharsets.UTF_8)));
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.uri() + path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Authorization", "Bearer " + TOKEN)
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        headers.forEach(request::header);
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static Map<String, String> with(Map<String, String> form, String... more) {
        Map<String, String> all = new java.util.LinkedHashMap<>(form);
        for (int i = 0; i < more.length; i += 2) {
            all.put(more[i], more[i + 1]);
        }
        return all;
    }

    private long insert(String group, Instant due, int attempt, String lastError) {
        long id = dsl().insertInto(t).set(t.GRP, group).set(t.ATTEMPT, attempt).set(t.LAST_ERROR, lastError)
                .set(t.PAYLOAD, "{\"n\":1,\"kind\":\"mail\"}".getBytes()).returning(t.ID).fetchOne().get(t.ID);
        setTime(id, "retry_after", due);
        return id;
    }

    private void setTime(long id, String column, Instant at) {
        Object value = QueueAdmin.of(pool).dialect().timeValue(t.field(column), at);
        dsl().update(t).set(DSL.field(DSL.name(column), Object.class), value).where(t.ID.eq(id)).execute();
    }

    private String groupAndAttempt(long id) {
        Record r = dsl().select(t.GRP, t.ATTEMPT).from(t).where(t.ID.eq(id)).fetchOne();
        return r == null ? "gone" : r.get(t.GRP) + "/" + r.get(t.ATTEMPT);
    }
}
