package dev.tablequeue;

/** A binding that breaks a rule: thrown by {@link dev.tablequeue.binding.RoleBinding.Builder#build()}, naming the table and the rule. */
public class BindingException extends ConfigurationException {
    private static final long serialVersionUID = 1L;

    private final String table;

    public BindingException(String table, String rule) {
        super("binding of table \"" + table + "\": " + rule);
        this.table = table;
    }

    /** The table whose binding was refused. */
    public String table() {
        return table;
    }
}
