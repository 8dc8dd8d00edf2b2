import { readdirSync, readFileSync } from "node:fs";
import { afterEach, beforeAll, expect, it } from "vitest";
import { ServerConnection } from "../../src/runner/server-connection.js";
import { requireBuiltCli } from "../support/built-cli.js";
import { describeOnPostgres, freshPostgresDatabase, type TestRecord } from "../support/postgres.js";

// Every local user can read a process's arguments (ps, /proc/PID/cmdline); only its owner can read its
// environment. The server the runner spawns on a PostgreSQL record must not carry the URL's password in
// its arguments.

/** The command lines of this process's children, as any user of the machine reads them. */
function childCommandLines(): string[] {
  const lines: string[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      // The parent's pid is the second field after the command name, which is in parentheses.
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (parent === process.pid)
        lines.push(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" "));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return lines;
}

describeOnPostgres("the server run spawns on a PostgreSQL record", () => {
  let record: TestRecord | undefined;
  let connection: ServerConnection | undefined;
  beforeAll(requireBuiltCli);
  afterEach(async () => {
    await connection?.close();
    connection = undefined;
    record?.dispose();
    record = undefined;
  });

  it.runIf(process.platform === "linux")(
    "gets the URL through its environment, so no password is in its arguments",
    async () => {
      record = freshPostgresDatabase();
      // The test server trusts local connections, so any password is accepted and the URL still works.
      const url = new URL(record.location);
      url.password = "SECRET-PASSWORD-4711";
      connection = await ServerConnection.open({ kind: "stdio", dbPath: url.toString() }, "argv-check");

      const servers = childCommandLines().filter((line) => line.includes(" serve"));
      expect(servers).toHaveLength(1);
      expect(servers[0]).toContain("--player argv-check");
      expect(servers[0]).not.toContain("SECRET-PASSWORD-4711");
      expect(servers[0]).not.toContain("postgres");
      // The server opened the record the URL names: it answers with the play tools.
      expect((await connection.modelTools()).map((tool) => tool.name).sort()).toEqual([
        "get_match",
        "submit_move",
      ]);
    },
  );
});
