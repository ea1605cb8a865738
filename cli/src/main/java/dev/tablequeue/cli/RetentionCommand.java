package dev.tablequeue.cli;

import dev.tablequeue.broker.DeadLetter;
import dev.tablequeue.broker.Retention;
import dev.tablequeue.broker.RetentionReport;
import java.time.Duration;
import java.time.temporal.Temporal;
import java.util.concurrent.Callable;
import org.jooq.Field;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code tablequeue retention}: one retention pass over the binding's table, under the table's retention lock,
 * as a broker's pass runs; prints what it removed, or that another instance holds the lock.
 */
@Command(name = "retention", mixinStandardHelpOptions = true,
        description = "Deletes a table's acknowledged rows and dead letters past their age, in batches, as a"
                + " broker's retention pass does, and prints what it removed.")
final class RetentionCommand implements Callable<Integer> {
    @Mixin
    Target target;

    @Option(names = "--acknowledged-older-than", paramLabel = "AGE", converter = Ages.class,
            description = "acknowledged rows processed longer ago than this: 90s, 15m, 12h, 7d or PT1H30M")
    Duration acknowledged;

    @Option(names = "--dead-letter", paramLabel = "GROUP", description = "the dead-letter group whose rows age")
    String deadGroup;

    @Option(names = "--dead-aged-by", paramLabel = "COLUMN",
            description = "the time column of the table a dead letter's age is read from (retry_after, say)")
    String deadAgedBy;

    @Option(names = "--dead-older-than", paramLabel = "AGE", converter = Ages.class,
            description = "dead letters whose column is longer ago than this")
    Duration dead;

    @Mixin
    Printing printing;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (acknowledged == null && deadGroup == null) {
            throw new ParameterException(spec.commandLine(),
                    "give --acknowledged-older-than, or --dead-letter with --dead-aged-by and --dead-older-than");
        }
        if (deadGroup != null && (deadAgedBy == null || dead == null)) {
            throw new ParameterException(spec.commandLine(),
                    "--dead-letter needs --dead-aged-by and --dead-older-than");
        }
        try (Target.Session session = target.open()) {
            Retention retention = Retention.of(session.binding());
            if (acknowledged != null) {
                retention = retention.acknowledged(acknowledged);
            }
            if (deadGroup != null) {
                retention = retention.dead(DeadLetter.group(deadGroup), column(session, deadAgedBy), dead);
            }
            RetentionReport report = session.admin().runRetention(retention);
            RetentionReport.Pass pass = report.last();
            if (printing.json) {
                printing.out().print(Output.retentionJson(report));
            } else if (pass.heldElsewhere()) {
                printing.out().print("another instance holds the retention lock of " + report.table()
                        + ": nothing removed\n");
            } else {
                printing.out().print("removed " + pass.acknowledged() + " acknowledged and " + pass.dead()
                        + " dead row(s) of " + report.table() + " in " + pass.batches() + " batch(es)\n");
            }
            return 0;
        }
    }

    @SuppressWarnings("unchecked")
    private Field<? extends Temporal> column(Target.Session session, String name) {
        Field<?> f = session.binding().table().field(name);
        if (f == null || !Temporal.class.isAssignableFrom(f.getType())) {
            throw new ParameterException(spec.commandLine(), "--dead-aged-by: table "
                    + session.binding().tableName() + " has no time column \"" + name + "\"");
        }
        return (Field<? extends Temporal>) f;
    }
}
