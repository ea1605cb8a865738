// The table the jOOQ class names is gone.
def expect = evaluate(new File(basedir, '../_parent/Expect.groovy'))
def log = expect(basedir, /example.Queues.JOBS_BY_NAME on {database}: table "jobs": the migrated schema has no such table/)
assert log.contains("BUILD FAILURE")
