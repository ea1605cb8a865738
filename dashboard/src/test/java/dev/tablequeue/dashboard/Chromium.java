package dev.tablequeue.dashboard;

import dev.tablequeue.test.FreshDatabase;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.opentest4j.TestAbortedException;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's headless Chromium, driven through Debian's chromedriver. The driver's path is given to Selenium
 * directly, so Selenium Manager never runs and nothing is downloaded: where the binaries are missing the test
 * is skipped with what to install, or under {@code TABLEQUEUE_REQUIRE_LIVE=1} fails.
 */
final class Chromium {
    static final Path BROWSER = Path.of(System.getProperty("tablequeue.chromium", "/usr/bin/chromium"));
    static final Path DRIVER = Path.of(System.getProperty("tablequeue.chromedriver", "/usr/bin/chromedriver"));

    private Chromium() {}

    /** A new headless browser, 1280 pixels wide. */
    static ChromeDriver start() {
        for (Path binary : new Path[] {BROWSER, DRIVER}) {
            if (!Files.isExecutable(binary)) {
                String why = binary + " is missing: install Debian's chromium and chromium-driver"
                        + " (apt-get install -y chromium chromium-driver); the browser tests download nothing";
                if (FreshDatabase.liveRequired()) {
                    throw new IllegalStateException(why + " (TABLEQUEUE_REQUIRE_LIVE=1 makes this a failure)");
                }
                throw new TestAbortedException(why);
            }
        }
        System.setProperty("webdriver.chrome.driver", DRIVER.toString());
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BROWSER.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1000",
                "--hide-scrollbars", "--force-device-scale-factor=1");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(DRIVER.toString())).usingAnyFreePort().build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        return driver;
    }
}
