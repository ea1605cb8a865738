// Shared by the version projects' verify.groovy (boot-flyway11, flyway10, flyway13):
// `evaluate(new File(basedir, '../_parent/Versions.groovy'))(basedir)` asserts that the first check (execution
// "correct") passed on every database it reached, and that the second ("broken") failed naming the violation its
// second migration makes: on SQLite the attempt column is dropped, on PostgreSQL it defaults to 0, which the
// broker's start() refuses. A PostgreSQL server skipped as optional is left out. Returns the first check's log.
return { File basedir ->
    // Maven colours the goal's header line: read the log without its ANSI escapes
    String log = new File(basedir, 'build.log').text.replaceAll('\u001B\\[[;\\d]*m', '')
    int split = log.indexOf(':check (broken) @')
    assert split > 0: 'build.log shows no second check (execution "broken")'
    String correct = log.substring(0, split)
    String broken = log.substring(split)

    assert !correct.contains('[ERROR]'): 'the first check reported an error'
    assert correct.contains('[INFO] 0 violation(s), '): 'the first check did not pass'
    boolean postgres = !(log =~ /postgresql at .* \(skipped: the database is optional\)/)
    List<String> databases = postgres ? ['sqlite', 'postgresql'] : ['sqlite']
    databases.each { String database ->
        ['JOBS_BY_NAME', 'BY_ACCOUNT'].each { String binding ->
            assert (correct =~ /\[INFO\] example\.Queues\.${binding} on ${database}: table "jobs": [0-9]+ statements prepared, 4 roles, 5 columns and the jOOQ class checked/).find():
                    "the first check did not pass ${binding} on ${database}"
        }
    }

    assert broken.contains('[ERROR] example.Queues.JOBS_BY_NAME on sqlite-broken: table "jobs", role attempt, column'
            + ' "attempt": the migrated table has no such column')
    if (postgres) {
        assert broken.contains('[ERROR] example.Queues.JOBS_BY_NAME on postgresql-broken: table "jobs": start()'
                + ' refuses its subscriptions: the attempt column "attempt" of table "jobs" defaults to 0')
    }
    assert broken.contains('BUILD FAILURE')
    assert !log.contains('NoSuchMethodError') && !log.contains('AbstractMethodError') && !log.contains('LinkageError')
    return correct
}
