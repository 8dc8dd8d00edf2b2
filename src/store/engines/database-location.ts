// `--db` names either a file (SQLite) or a server (PostgreSQL): a postgres:// or postgresql:// URL selects
// PostgreSQL, anything else is a path.

const POSTGRES_URL = /^postgres(ql)?:\/\//i;

export function isPostgresUrl(location: string): boolean {
  return POSTGRES_URL.test(location);
}

/** The URL as it may be printed: the password replaced by ***, so no error or log line leaks it. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    return parsed.toString();
  } catch {
    // Not parseable: keep only the scheme and what follows the last @, which never holds the password.
    const at = url.lastIndexOf("@");
    return at === -1 ? url : `${url.slice(0, url.indexOf("//") + 2)}***@${url.slice(at + 1)}`;
  }
}
