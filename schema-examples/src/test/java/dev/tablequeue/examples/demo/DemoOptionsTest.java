package dev.tablequeue.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The demo's command line, as Maven's demo.args property hands it over. */
class DemoOptionsTest {

    @Test
    void no_options_mean_ten_thousand_jobs_four_workers_and_a_temporary_sqlite_file() {
        assertThat(DemoOptions.parse()).isEqualTo(new DemoOptions(10_000, 4, Optional.empty(), false, false));
        // An empty demo.args arrives as one empty argument.
        assertThat(DemoOptions.parse("")).isEqualTo(new DemoOptions(10_000, 4, Optional.empty(), false, false));
    }

    @Test
    void options_in_one_argument_are_split_at_white_space() {
        assertThat(DemoOptions.parse(" --jobs 2000  --workers 8 "))
                .isEqualTo(new DemoOptions(2000, 8, Optional.empty(), false, false));
    }

    @Test
    void an_option_takes_its_value_after_an_equals_sign_too() {
        String url = "jdbc:postgresql://127.0.0.1:5432/tq_demo?user=postgres";
        assertThat(DemoOptions.parse("--jobs=20", "--url=" + url))
                .isEqualTo(new DemoOptions(20, 4, Optional.of(url), false, false));
    }

    @Test
    void transactional_mounts_the_subscription_with_transactional_and_takes_no_value() {
        assertThat(DemoOptions.parse("--jobs 300 --transactional"))
                .isEqualTo(new DemoOptions(300, 4, Optional.empty(), true, false));
        assertThat(DemoOptions.parse("--transactional", "--workers", "2"))
                .isEqualTo(new DemoOptions(10_000, 2, Optional.empty(), true, false));
        assertThatIllegalArgumentException().isThrownBy(() -> DemoOptions.parse("--transactional=yes"))
                .withMessage("--transactional takes no value, was \"--transactional=yes\"");
        assertThat(DemoOptions.USAGE).contains("[--transactional]").contains("delivery.tx()");
    }

    @Test
    void a_wrong_option_or_value_is_refused_naming_it() {
        assertThatIllegalArgumentException().isThrownBy(() -> DemoOptions.parse("--job", "5"))
                .withMessage("unknown option --job");
        assertThatIllegalArgumentException().isThrownBy(() -> DemoOptions.parse("--jobs", "many"))
                .withMessage("--jobs takes a whole number, was \"many\"");
        assertThatIllegalArgumentException().isThrownBy(() -> DemoOptions.parse("--workers", "0"))
                .withMessage("--workers takes 1 to 256, was 0");
        assertThatIllegalArgumentException().isThrownBy(() -> DemoOptions.parse("--url"))
                .withMessage("--url needs a value");
        assertThatIllegalArgumentException().isThrownBy(() -> DemoOptions.parse("--url", "jdbc:h2:mem:x"))
                .withMessageContaining("--url takes a jdbc:sqlite:, jdbc:postgresql:// or jdbc:mariadb:// URL");
    }

    @Test
    void a_server_url_must_name_a_database_of_the_users_own() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> DemoOptions.parse("--url", "jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres"))
                .withMessageContaining("names the server's own database \"postgres\"")
                .withMessageContaining("CREATE DATABASE tq_demo")
                .withMessageContaining("jdbc:postgresql://127.0.0.1:5432/tq_demo?user=postgres");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> DemoOptions.parse("--url", "jdbc:mariadb://127.0.0.1:3306/?user=root"))
                .withMessageContaining("names no database")
                .withMessageContaining("jdbc:mariadb://127.0.0.1:3306/tq_demo?user=root");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> DemoOptions.parse("--url", "jdbc:mariadb://127.0.0.1:3306/mysql"))
                .withMessageContaining("\"mysql\"");
    }
}
