package dev.tablequeue.dialect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.Param.Kind;
import java.time.LocalDateTime;
import org.jooq.Record;
import org.jooq.impl.SQLDataType;
import org.junit.jupiter.api.Test;

/**
 * The text of retention's statements: a bounded read of ids, then a delete by id that checks the row's state
 * again; on MariaDB and MySQL the delete reads the table by its primary key. That each runs is
 * {@code RetentionContract}'s part (in the it module).
 */
class RetentionStatementsTextTest {
    private final QueueTable<LocalDateTime> t = new QueueTable<>("jobs", SQLDataType.LOCALDATETIME(6));
    private final RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).retryAfter(t.RETRY_AFTER)
            .attempt(t.ATTEMPT).processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).build();

    @Test
    void the_acknowledged_ids_are_read_up_to_a_batch_and_deleted_only_while_still_past_their_age() {
        RetentionStatements s = RetentionStatements.of(new PostgresDialect(), b);

        Statement ids = s.acknowledgedIds(null, false);
        assertThat(ids.sql()).isEqualTo("select \"tq_row\".\"id\" from \"jobs\" as \"tq_row\" where"
                + " (\"tq_row\".\"processed_at\" is not null and \"tq_row\".\"processed_at\" < cast(? as timestamp(6)))"
                + " order by \"tq_row\".\"id\" fetch next ? rows only");
        assertThat(ids.params()).extracting(Param::kind).containsExactly(Kind.RETRY_AT, Kind.LIMIT);
        // each batch after the first reads past the last id of the one before, never over the rows it deleted
        Statement next = s.acknowledgedIds(null, true);
        assertThat(next.sql()).isEqualTo("select \"tq_row\".\"id\" from \"jobs\" as \"tq_row\" where"
                + " (\"tq_row\".\"processed_at\" is not null and \"tq_row\".\"processed_at\" < cast(? as timestamp(6))"
                + " and \"tq_row\".\"id\" > ?) order by \"tq_row\".\"id\" fetch next ? rows only");
        assertThat(next.params()).extracting(Param::kind).containsExactly(Kind.RETRY_AT, Kind.ID, Kind.LIMIT);
        Statement delete = s.deleteAcknowledged(3);
        assertThat(delete.sql()).startsWith("delete from \"jobs\" where (\"id\" in (?, ?, ?) and \"processed_at\""
                + " is not null and \"processed_at\" < ");
        assertThat(delete.params()).extracting(Param::kind).containsExactly(Kind.ID, Kind.ID, Kind.ID, Kind.RETRY_AT);
    }

    @Test
    void on_mariadb_the_delete_reads_the_table_by_its_primary_key() {
        MySqlDialect mariadb = MySqlDialect.forServer("MariaDB", "10.11.19-MariaDB-0+deb12u1");

        Statement delete = RetentionStatements.of(mariadb, b).deleteDeadInGroup(t.RETRY_AFTER, 2);

        assertThat(delete.sql()).isEqualTo("delete `jobs` from `jobs` force index (`PRIMARY`) where (`id` in (?, ?)"
                + " and `grp` = ? and `retry_after` is not null and `retry_after` < ?)");
        assertThat(delete.params()).extracting(Param::kind)
                .containsExactly(Kind.ID, Kind.ID, Kind.GROUP, Kind.RETRY_AT);
    }

    @Test
    void keepNewestPer_leaves_out_a_row_with_a_newer_one_of_its_value_only() {
        Statement ids = RetentionStatements.of(new SqliteDialect(), b).acknowledgedIds(t.GRP, false);

        assertThat(ids.sql()).contains("(`tq_row`.`grp` is null or exists (select 1 as `one` from `jobs` as `tq_newer`"
                + " where (`tq_newer`.`grp` = `tq_row`.`grp` and `tq_newer`.`id` > `tq_row`.`id`)))");
    }
}
