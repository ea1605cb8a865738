// attempt on a text column.
def expect = evaluate(new File(basedir, '../_parent/Expect.groovy'))
def log = expect(basedir, /example.Queues.JOBS_BY_NAME on {database}: table "jobs", role attempt, column "attempt": attempt takes a column of an integer, and this one is /)
assert log.contains("BUILD FAILURE")
