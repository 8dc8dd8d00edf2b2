// `--db` names either a file (SQLite) or a server (PostgreSQL): a postgres:// or postgresql:// URL selects
// PostgreSQL, anything else is a path.

const POSTGRES_URL = /^postgres(ql)?:\/\//i;

export function isPostgresUrl(location: string): boolean {
  return POSTGRES_URL.test(location);
}

/**
 * Query parameters of a connection URL that carry a secret: the driver takes `?password=` as the
 * password (it wins over the one before the @), and libpq's `sslpassword` unlocks the client key. Paths
 * (sslkey, sslcert, passfile) name where a secret lives, not the secret, and stay readable.
 */
const SECRET_PARAMETERS = new Set(["password", "sslpassword"]);

/** The URL as it may be printed: every password replaced by ***, so no error or log line leaks it. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    // Rewritten by hand, not through searchParams: that would re-encode every other parameter.
    parsed.search = redactQuery(parsed.search);
    return parsed.toString();
  } catch {
    // Not parseable: keep only the scheme and what follows the last @, which never holds the userinfo
    // password, and hide the secret parameters as above.
    const at = url.lastIndexOf("@");
    const kept = at === -1 ? url : `${url.slice(0, url.indexOf("//") + 2)}***@${url.slice(at + 1)}`;
    const query = kept.indexOf("?");
    return query === -1 ? kept : kept.slice(0, query) + redactQuery(kept.slice(query));
  }
}

/** A query string ("?a=1&password=x") with the value of each secret parameter replaced by ***. */
function redactQuery(search: string): string {
  return search.replace(/([?&])([^=&#]*)=([^&#]*)/g, (whole, separator: string, name: string) =>
    SECRET_PARAMETERS.has(safeDecode(name).toLowerCase()) ? `${separator}${name}=***` : whole,
  );
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}
