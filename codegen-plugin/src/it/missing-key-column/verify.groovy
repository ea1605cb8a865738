// The advisory key names account_id, which the migration dropped.
def expect = evaluate(new File(basedir, '../_parent/Expect.groovy'))
def log = expect(basedir, /example.Queues.BY_ACCOUNT on {database}: table "jobs", advisory key, column "account_id": the migrated table has no such column/)
expect(basedir, /example.Queues.BY_ACCOUNT on {database}: table "jobs", statement "advisory candidates": does not prepare: /)
assert log.contains("BUILD FAILURE")
