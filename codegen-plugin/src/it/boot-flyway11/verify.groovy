// A Spring Boot 4.0 service (Boot's Flyway 11, jOOQ 3.19): the check passes the shared migration, names the
// violation of the broken one, and names the Java-based migration it does not run.
// Boot's own versions, nothing pinned: the check ran the service's jOOQ 3.19 beside its Flyway 11
String dependencies = new File(basedir, 'target/dependencies.txt').text
assert dependencies =~ /org\.jooq:jooq:jar:3\.19\.\d+/: "the service does not run Boot's jOOQ 3.19:\n" + dependencies
assert dependencies =~ /org\.flywaydb:flyway-core:jar:11\.\d+/: "the service does not run Boot's Flyway 11:\n" + dependencies
def correct = evaluate(new File(basedir, '../_parent/Versions.groovy'))(basedir)
assert correct.contains('[WARNING] sqlite: the Java-based migration db.migration.V3__Backfill is not run by the check')
assert !correct.contains('isDebugEnabled')
return true
