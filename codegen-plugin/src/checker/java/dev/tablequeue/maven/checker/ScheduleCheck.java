package dev.tablequeue.maven.checker;

import dev.tablequeue.broker.StartRules;

/**
 * What the check asks of one recurring job on one migrated database: the rules its schedule's start keeps on the
 * queue table ({@link StartRules#schedule}, the project's toolkit's own), each refusal a violation naming the
 * job's constant, the schedule and the table. The table's other rules are its binding's, checked where the
 * binding's own constant is.
 */
final class ScheduleCheck {
    private final BindingScanner.FoundSchedule found;
    private final Target target;
    private final Findings findings;
    private final Findings.Where where;

    ScheduleCheck(BindingScanner.FoundSchedule found, Target target, Findings findings) {
        this.found = found;
        this.target = target;
        this.findings = findings;
        this.where = new Findings.Where(found.label(), target.label(), found.job().queue().binding().tableName());
    }

    void run() {
        boolean held = StartRules.schedule(target.dialect(), target.connection(), found.job(), refusal -> {
            if (refusal.statement() != null) {
                findings.statement(where, refusal.statement().purpose(), refusal.statement().sql(),
                        refusal.cause().getMessage());
            } else {
                findings.violation(where, "start() refuses " + refusal.exception().getMessage());
            }
        });
        if (held) {
            findings.info(where + ": " + found.job().schedule() + " checked: a unique key over every row, with its"
                    + " unique index, on a table that keeps its processed rows");
        }
    }
}
