// A Spring Boot 4.0 service (Boot's Flyway 11, jOOQ 3.19): the check passes the shared migration, names the
// violation of the broken one, and names the Java-based migration it does not run.
def correct = evaluate(new File(basedir, '../_parent/Versions.groovy'))(basedir)
assert correct.contains('[WARNING] sqlite: the Java-based migration db.migration.V3__Backfill is not run by the check')
assert !correct.contains('isDebugEnabled')
return true
