// The role's column is missing, and so the statements that name it fail on the server.
def expect = evaluate(new File(basedir, '../_parent/Expect.groovy'))
def log = expect(basedir, /example.Queues.JOBS_BY_NAME on {database}: table "jobs", role attempt, column "attempt": the migrated table has no such column/)
expect(basedir, /example.Queues.JOBS_BY_NAME on {database}: table "jobs", statement "advisory take": does not prepare: /)
assert log.contains("BUILD FAILURE")
