// A clean run: one line per binding and database, nothing else.
def expect = evaluate(new File(basedir, '../_parent/Expect.groovy'))
def log = expect(basedir, /[INFO] example.Queues.JOBS_BY_NAME on {database}: table "jobs": {n} statements prepared, 4 roles, 5 columns and the jOOQ class checked/)
expect(basedir, /[INFO] example.Outboxes.ORDERS on {database}: table "outbox_records": {n} outbox statements prepared, 4 roles, 4 columns and the jOOQ class checked/)
expect(basedir, /[INFO] example.Queues.BY_ACCOUNT on {database}: table "jobs": {n} statements prepared, 4 roles, 5 columns and the jOOQ class checked/)
assert !log.contains("[ERROR]") && !log.contains("[WARNING] example.")
assert log.contains("0 violation(s), 0 warning(s)")
assert log.contains("BUILD SUCCESS")
