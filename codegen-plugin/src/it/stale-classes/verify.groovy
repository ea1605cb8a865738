// Drift: the classes say payload is nullable, the migrated schema says NOT NULL; nothing else is wrong.
def expect = evaluate(new File(basedir, '../_parent/Expect.groovy'))
def log = expect(basedir, /example.Queues.JOBS_BY_NAME on {database}: table "jobs", jOOQ drift, column "payload": the jOOQ class declares the column nullable, and the migrated column is NOT NULL/)
assert !log.contains("does not prepare")
assert log.contains("BUILD FAILURE")
