// A warning only: the build passes and says which index to add.
def expect = evaluate(new File(basedir, '../_parent/Expect.groovy'))
def log = expect(basedir, /[WARNING] example.Queues.JOBS_BY_NAME on {database}: table "jobs": no index serves the claim (its group filter and claim order), so each claim reads the table: add an index on [name, job_id]/)
assert log.contains("[INFO] 0 violation(s), ")
assert log.contains("BUILD SUCCESS")
