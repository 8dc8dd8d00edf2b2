import { beforeAll, describe, expect, it } from "vitest";
import { withoutUserinfo } from "../../src/runner/endpoint-url.js";
import { requireBuiltCli, runCli } from "../support/built-cli.js";

// A key written into --base-url (http://user:KEY@host/v1, or ?api_key=KEY) can never reach the endpoint:
// fetch refuses a URL with credentials, and the client appends the request's path after a query string.
// Such a URL was printed in every failure line and in the summary; it is now refused before anything runs,
// in one line that does not repeat the secret.

const SECRET = "URLPASSKEY9876";

function run(...flags: string[]) {
  return runCli(
    ["run", "--study", "study-0", "--model", "m", "--mode", "text", "--db", "/nonexistent/r.db", ...flags],
    {
      OPENAI_API_KEY: "",
    },
  );
}

describe("run refuses an endpoint URL that carries a secret", () => {
  beforeAll(requireBuiltCli);

  it("--base-url with a user name and password: exit 2, one line, the credentials as ***", () => {
    const refused = run("--base-url", `http://user:${SECRET}@127.0.0.1:1/v1`);
    expect(refused.status).toBe(2);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toBe(
      "same-game: --base-url carries a user name and password (http://***@127.0.0.1:1/v1); give the key in the environment variable OPENAI_API_KEY (or name another with --api-key-env VAR) instead.\n",
    );
  });

  it("--base-url with a query string or a fragment: exit 2, one line, the query as ***", () => {
    const query = run("--base-url", `http://127.0.0.1:1/v1?api_key=${SECRET}`);
    expect(query.status).toBe(2);
    expect(query.stderr).toBe(
      "same-game: --base-url carries a query string (http://127.0.0.1:1/v1?***), which the client would put before the request's path, so no request could reach the endpoint; give the URL up to its path (…/v1) and give the key in the environment variable OPENAI_API_KEY (or name another with --api-key-env VAR) instead.\n",
    );
    const fragment = run("--base-url", `http://127.0.0.1:1/v1#${SECRET}`, "--provider", "anthropic");
    expect(fragment.status).toBe(2);
    expect(fragment.stderr).toContain("--base-url carries a fragment (http://127.0.0.1:1/v1#***)");
    expect(fragment.stderr).toContain("ANTHROPIC_API_KEY");
    expect(fragment.stderr).not.toContain(SECRET);
  });

  it("--opponent-base-url and --server are checked the same way", () => {
    const opponent = run(
      "--base-url",
      "http://127.0.0.1:1/v1",
      "--opponent-model",
      "o",
      "--opponent-base-url",
      `https://${SECRET}@example.org/v1`,
    );
    expect(opponent.status).toBe(2);
    expect(opponent.stderr).toMatch(
      /^same-game: --opponent-base-url carries a user name and password \(https:\/\/\*\*\*@example\.org\/v1\); /,
    );
    expect(opponent.stderr).not.toContain(SECRET);

    const server = runCli([
      "run",
      "--study",
      "s",
      "--model",
      "m",
      "--base-url",
      "http://127.0.0.1:1/v1",
      "--server",
      `http://u:${SECRET}@127.0.0.1:1/mcp`,
    ]);
    expect(server.status).toBe(2);
    expect(server.stderr).toBe(
      "same-game: --server carries a user name and password (http://***@127.0.0.1:1/mcp); give the server's token in an environment variable named with --server-token-env VAR instead.\n",
    );
  });

  it("a URL that is no http(s) URL is named with its credentials hidden", () => {
    const refused = run("--base-url", `ftp://user:${SECRET}@host/v1`);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toBe('same-game: --base-url must be an http(s) URL, got "ftp://***@host/v1".\n');
    expect(withoutUserinfo(`not a url //user:${SECRET}@host`)).toBe("not a url //***@host");
    expect(withoutUserinfo("http://127.0.0.1:11434/v1")).toBe("http://127.0.0.1:11434/v1");
  });

  it("a key no HTTP header can carry is refused in one line naming its variable, never the key", () => {
    // A control character pasted into the key: the client library would refuse every request as a
    // connection error, which the runner retries as an unreachable endpoint.
    const refused = runCli(
      ["run", "--study", "study-0", "--model", "m", "--mode", "text", "--db", "/nonexistent/r.db"],
      { OPENAI_API_KEY: `sk-${SECRET}\u0001x` },
    );
    expect(refused.status).toBe(2);
    expect(refused.stderr).toBe(
      "same-game: the API key in OPENAI_API_KEY holds character 18 (U+0001), which no HTTP header can carry: set the variable to the key alone.\n",
    );
    // Whitespace around a key (a line break pasted with it) is dropped by HTTP, as before: the run goes on.
    const padded = runCli(
      ["run", "--study", "study-0", "--model", "m", "--mode", "text", "--db", "/nonexistent/r.db"],
      { OPENAI_API_KEY: ` sk-${SECRET}\r\n` },
    );
    expect(padded.stderr).toMatch(/^same-game: No record at \/nonexistent\/r\.db/);
  });

  it("a plain base URL is taken as before (the run goes on to the record)", () => {
    const taken = run("--base-url", "http://localhost:11434/v1");
    expect(taken.status).toBe(2);
    expect(taken.stderr).toMatch(/^same-game: No record at \/nonexistent\/r\.db/);
  });
});
