package dev.tablequeue.binding;

import java.util.Objects;
import org.jooq.Field;

/** One part of an advisory lock key: literal text, or the text of a column of the row. */
public sealed interface KeyPart {

    /** Literal text, bound as a parameter (never concatenated into SQL). */
    record Literal(String text) implements KeyPart {
        public Literal {
            Objects.requireNonNull(text, "text");
        }
    }

    /** The value of a column of the row, rendered as text by the database; a NULL reads as empty text. */
    record Column(Field<?> field) implements KeyPart {
        public Column {
            Objects.requireNonNull(field, "field");
        }
    }

    static KeyPart literal(String text) {
        return new Literal(text);
    }

    static KeyPart column(Field<?> field) {
        return new Column(field);
    }
}
