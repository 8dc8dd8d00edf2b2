// better-sqlite3 takes `?` and `@name` parameters; the PostgreSQL protocol takes `$1, $2, …`. The Store
// writes one SQL text; this rewrites it once per text for PostgreSQL and says how to order the values.

export interface NumberedSql {
  text: string;
  /** For `@name` SQL: the parameter name of $1, $2, …; null for `?` SQL (values are already in order). */
  names: string[] | null;
}

/**
 * Rewrites `?` or `@name` placeholders to `$n`, leaving quoted strings and identifiers alone. One name used
 * twice is one `$n` (PostgreSQL then infers one type for both places).
 */
export function numberParameters(sql: string): NumberedSql {
  const names: string[] = [];
  let positional = 0;
  let text = "";
  let i = 0;
  while (i < sql.length) {
    const c = sql[i] as string;
    if (c === "'" || c === '"') {
      const end = sql.indexOf(c, i + 1);
      const stop = end === -1 ? sql.length : end + 1;
      text += sql.slice(i, stop);
      i = stop;
    } else if (c === "?") {
      positional += 1;
      text += `$${positional}`;
      i += 1;
    } else if (c === "@" && /[A-Za-z_]/.test(sql[i + 1] ?? "")) {
      const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i + 1)) as RegExpExecArray;
      const name = match[0];
      let index = names.indexOf(name);
      if (index === -1) index = names.push(name) - 1;
      text += `$${index + 1}`;
      i += 1 + name.length;
    } else {
      text += c;
      i += 1;
    }
  }
  if (positional > 0 && names.length > 0) throw new Error("SQL mixes ? and @name parameters");
  return { text, names: names.length > 0 ? names : null };
}

/** The values for a statement's $1, $2, … from what a caller passed (positional values or one object). */
export function orderValues(sql: NumberedSql, params: unknown[]): unknown[] {
  if (sql.names === null) return params;
  const bag = (params[0] ?? {}) as Record<string, unknown>;
  return sql.names.map((name) => {
    if (!(name in bag)) throw new RangeError(`Missing named parameter "${name}"`);
    return bag[name];
  });
}
