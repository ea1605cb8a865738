// The dead-letter table lacks a column the move writes.
def expect = evaluate(new File(basedir, '../_parent/Expect.groovy'))
def log = expect(basedir, /example.Queues.JOBS_BY_NAME on {database}: table "jobs", dead-letter table "jobs_dead", column "attempt": the dead-letter table has no such column/)
assert log.contains("BUILD FAILURE")
