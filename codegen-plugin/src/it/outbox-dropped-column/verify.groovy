// The outbox record table lost its headers column: the role's column is missing, and the registry's insert,
// which writes it, does not prepare.
def expect = evaluate(new File(basedir, '../_parent/Expect.groovy'))
def log = expect(basedir, /example.Outboxes.ORDERS on {database}: table "outbox_records", role headers, column "headers": the migrated table has no such column/)
expect(basedir, /example.Outboxes.ORDERS on {database}: table "outbox_records", statement "insert": does not prepare: /)
assert log.contains("BUILD FAILURE")
