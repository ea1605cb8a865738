// Shared by the projects' verify.groovy: `evaluate(new File(basedir, '../_parent/Expect.groovy'))` returns a
// closure that asserts build.log holds `line` for each database the build checked, `{database}` standing for
// the database's name and `{n}` for a number (a database skipped as optional, where its server could not be
// reached, is left out), and returns the log.
return { File basedir, String line ->
    String log = new File(basedir, 'build.log').text
    ['sqlite', 'postgresql', 'mariadb'].each { String database ->
        boolean skipped = log =~ /${database} at .* \(skipped: the database is optional\)/
        if (!skipped) {
            String expected = java.util.regex.Pattern.quote(line.replace('{database}', database))
                    .replace('{n}', '\\E[0-9]+\\Q')
            boolean found = (log =~ expected).find()
            assert found: "build.log lacks, for ${database}: ${line}"
            if (database != 'sqlite') {
                boolean dropped = (log =~ /${database}: scratch database tqcheck_[0-9a-f]{16} dropped/).find()
                assert dropped: "build.log does not say the ${database} scratch database was dropped"
            }
        }
    }
    return log
}
