import { UsageError } from "../usage-error.js";

// The URLs run is given for a model endpoint (--base-url) or an MCP server (--server) are printed in
// failure lines and summaries. A user name and password in such a URL would be printed with them, and
// can never work: fetch refuses a URL with credentials. A key belongs in an environment variable.

/** The URL as it may be printed: its user name and password, if it has any, replaced by ***. */
export function withoutUserinfo(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username === "" && parsed.password === "") return url;
    parsed.username = "";
    parsed.password = "";
    return parsed.toString().replace("//", "//***@");
  } catch {
    // Not parseable: everything between the scheme and the last @ may be a secret.
    const start = url.indexOf("//");
    const at = url.lastIndexOf("@");
    return start === -1 || at < start ? url : `${url.slice(0, start + 2)}***@${url.slice(at + 1)}`;
  }
}

/**
 * `--base-url` as the provider's client can use it, or one sentence that names what is wrong without
 * printing a secret. The client appends the request's path (`/chat/completions`) to the base URL as text,
 * so a query string or a fragment would end up before the path and no request would reach the endpoint.
 */
export function checkedBaseUrl(flag: string, url: string, keyVariable: string): string {
  const parsed = parsedHttpUrl(flag, url);
  const keyAdvice = `give the key in the environment variable ${keyVariable} (or name another with --api-key-env VAR) instead`;
  if (parsed.username !== "" || parsed.password !== "") {
    throw new UsageError(
      `--${flag} carries a user name and password (${withoutUserinfo(url)}); ${keyAdvice}.`,
    );
  }
  if (parsed.search !== "" || parsed.hash !== "") {
    const part = parsed.search !== "" ? "a query string" : "a fragment";
    const shown = `${parsed.origin}${parsed.pathname}${parsed.search !== "" ? "?***" : "#***"}`;
    throw new UsageError(
      `--${flag} carries ${part} (${shown}), which the client would put before the request's path, so no request could reach the endpoint; give the URL up to its path (…/v1) and ${keyAdvice}.`,
    );
  }
  return url;
}

/** `--server` as the MCP client can use it: an http(s) URL without a user name and password. */
export function checkedServerUrl(url: string): string {
  const parsed = parsedHttpUrl("server", url);
  if (parsed.username !== "" || parsed.password !== "") {
    throw new UsageError(
      `--server carries a user name and password (${withoutUserinfo(url)}); give the server's token in an environment variable named with --server-token-env VAR instead.`,
    );
  }
  return url;
}

function parsedHttpUrl(flag: string, url: string): URL {
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (parsed === null || !/^https?:\/\//.test(url)) {
    throw new UsageError(`--${flag} must be an http(s) URL, got "${withoutUserinfo(url)}".`);
  }
  return parsed;
}
