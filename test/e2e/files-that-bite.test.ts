import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startServerProcess } from "../http/support/server-process.js";
import { CLI, requireBuiltCli, runCli } from "../support/built-cli.js";

// Files and flags that used to bite: every refusal is exit 2 with one line naming the path or
// the value, nothing is written to a file that is not a current same-game record, and the server survives
// a closed stderr and an oversize stdio message.

let dir: string;
let db: string;
beforeAll(requireBuiltCli);
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "same-game-bite-"));
  db = join(dir, "record.db");
});
afterEach(() => {
  chmodSync(dir, 0o755);
  rmSync(dir, { recursive: true, force: true });
});

/** Exit 2 and exactly one line on stderr matching `pattern`. */
function expectOneLineRefusal(args: string[], pattern: RegExp): void {
  const run = runCli(args);
  expect(run.stderr).toMatch(pattern);
  expect(run.stderr.trimEnd().split("\n"), run.stderr).toHaveLength(1);
  expect(run.status).toBe(2);
}

function importReference(): void {
  const run = runCli(["import", "counts", "--reference", "lore-heydari-2024", "--db", db]);
  expect(run.status, run.stderr).toBe(0);
}

describe("a record file that is not a current same-game record is refused at start", () => {
  it("refuses a garbage file for every verb, naming the path, and leaves it untouched", () => {
    writeFileSync(db, "this is a shopping list, not a database\n");
    for (const args of [
      ["analyze", "robustness", "--db", db],
      ["import", "counts", "--reference", "lore-heydari-2024", "--db", db],
      ["serve", "--db", db],
    ]) {
      expectOneLineRefusal(
        args,
        new RegExp(
          `${db.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} is not a same-game record: it is not an SQLite database`,
        ),
      );
    }
    expect(readFileSync(db, "utf8")).toBe("this is a shopping list, not a database\n");
  });

  it("refuses a folder given as the record, in one line (not a stack trace)", () => {
    for (const args of [
      ["serve", "--db", dir],
      ["analyze", "robustness", "--db", dir],
    ]) {
      expectOneLineRefusal(args, /is a folder, not a same-game record: give a record file's path/);
    }
  });

  it("refuses another program's SQLite file without adding a schema_migrations table to it", () => {
    const foreign = new Database(db);
    foreign.exec("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)");
    foreign.close();
    expectOneLineRefusal(
      ["serve", "--db", db],
      /is not a same-game record: it is an SQLite file of another program \(tables invoices\)/,
    );
    const check = new Database(db, { readonly: true });
    const tables = check.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all();
    check.close();
    expect(tables).toEqual([{ name: "invoices" }]);
  });

  it("refuses a record written by a newer same-game before serving it", () => {
    importReference();
    const newer = new Database(db);
    newer
      .prepare(
        "INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, '999_future.sql', 'x')",
      )
      .run();
    newer.close();
    expectOneLineRefusal(
      ["serve", "--db", db],
      /was written by a newer same-game \(schema version 999; this one reads up to \d+\)/,
    );
    expectOneLineRefusal(["analyze", "robustness", "--db", db], /schema version 999/);
  });

  it("refuses a corrupt file (quick_check at start), and reports integrity_check ok in a sound record's report", () => {
    importReference();
    const out = join(dir, "report.html");
    expect(runCli(["report", "--db", db, "--out", out, "--bootstrap", "200"]).status).toBe(0);
    expect(readFileSync(out, "utf8")).toMatch(/record_integrity[\s\S]*?integrity_check: ok/);
    // Overwrite the middle of the file (table pages), keep the header: SQLite sees a damaged database.
    const bytes = readFileSync(db);
    const pageSize = bytes.readUInt16BE(16);
    bytes.fill(0xab, pageSize, bytes.length);
    const broken = join(dir, "broken.db");
    writeFileSync(broken, bytes);
    expectOneLineRefusal(
      ["analyze", "robustness", "--db", broken],
      /broken\.db is (a damaged SQLite file|not a readable same-game record)/,
    );
  });
});

describe("analysis verbs read, and never create", () => {
  it("analyses a read-only record in a read-only folder", () => {
    importReference();
    // Checkpoint the WAL into the main file, as a record handed over for analysis would be.
    const close = new Database(db);
    close.pragma("wal_checkpoint(TRUNCATE)");
    close.close();
    const copy = join(dir, "ro", "record.db");
    rmSync(join(dir, "ro"), { recursive: true, force: true });
    mkdirSync(join(dir, "ro"));
    copyFileSync(db, copy);
    chmodSync(copy, 0o444);
    chmodSync(join(dir, "ro"), 0o555);
    try {
      const run = runCli([
        "analyze",
        "robustness",
        "--attenuation",
        "0.7",
        "--bootstrap",
        "200",
        "--json",
        "--db",
        copy,
      ]);
      expect(run.status, run.stderr).toBe(0);
      const gpt4 = (
        JSON.parse(run.stdout) as { games: { player: string; game: string; shift: { estimate: number } }[] }
      ).games.find((g) => g.player === "gpt-4" && g.game === "prisoners-dilemma");
      expect(gpt4?.shift.estimate).toBeCloseTo(0.7 * (296 / 300), 10);
    } finally {
      chmodSync(join(dir, "ro"), 0o755);
    }
  });

  it("refuses a mistyped --db for analyze, report and export instead of creating an empty record", () => {
    const typo = join(dir, "recrod.db");
    expectOneLineRefusal(["analyze", "robustness", "--db", typo], /No record at .*recrod\.db; check --db/);
    expectOneLineRefusal(["report", "--db", typo, "--out", join(dir, "r.html")], /No record at .*recrod\.db/);
    expect(existsSync(typo)).toBe(false);
  });

  it("refuses --out naming the record or its -wal, through a link too, and leaves the record whole", () => {
    importReference();
    const link = join(dir, "link.db");
    symlinkSync(db, link);
    const before = readFileSync(db);
    for (const args of [
      ["report", "--db", db, "--out", db],
      ["export", "decisions", "--db", db, "--out", link],
      ["export", "counts", "--db", db, "--out", `${db}-wal`],
      ["demo", "--db", db, "--out", db],
    ]) {
      expectOneLineRefusal(
        args,
        /--out .* is (the record|the -wal file of the record) .*record\.db: writing it would destroy the record/,
      );
    }
    expect(readFileSync(db).equals(before)).toBe(true);
  });
});

describe("every CLI mistake is exit 2 with one line", () => {
  it("names the bad value for one framing, a variant the game lacks, a missing output folder and bad hosts", async () => {
    importReference();
    expectOneLineRefusal(
      ["analyze", "robustness", "--framings", "business", "--db", db],
      /at least two distinct framings; --framings gave business/,
    );
    expectOneLineRefusal(
      ["analyze", "equilibria", "--game", "prisoners-dilemma", "--variant", "payoff", "--db", db],
      /Unknown variant .*"payoff"; valid: base/,
    );
    expectOneLineRefusal(
      ["report", "--out", "/missing/dir/x.html", "--db", db],
      /--out \/missing\/dir\/x\.html: the folder \/missing\/dir does not exist/,
    );
    expectOneLineRefusal(["serve", "--http", "--host", "192.0.2.1", "--db", db], /not a loopback address/);
    // A port in use: hold one on loopback, then ask serve for it.
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      expectOneLineRefusal(
        ["serve", "--http", "--port", String(port), "--db", db],
        new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`),
      );
    } finally {
      holder.close();
    }
  });

  it("renders the report of a one-framing record and says what is missing", () => {
    importReference();
    const out = join(dir, "one.html");
    const run = runCli(["report", "--framings", "business", "--db", db, "--out", out, "--bootstrap", "200"]);
    expect(run.status, run.stderr).toBe(0);
    const page = readFileSync(out, "utf8");
    expect(page).toContain("Robustness not computed");
    expect(page).toContain("at least two distinct framings");
    expect(page).toMatch(/Cooperation rate/);
  });
});

describe("serve --http on other loopback addresses", () => {
  const initialize = (url: string) =>
    fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "raw", version: "0" },
        },
      }),
    });

  it("serves requests addressed to 127.0.0.2 and to [::1] (written as in a URL) instead of refusing them", async () => {
    for (const host of ["127.0.0.2", "[::1]"]) {
      const server = await startServerProcess(db, ["--host", host]);
      try {
        expect(server.url).toMatch(
          host === "[::1]" ? /^http:\/\/\[::1\]:\d+\/mcp$/ : /^http:\/\/127\.0\.0\.2:\d+\/mcp$/,
        );
        const response = await initialize(server.url);
        expect(response.status, await response.clone().text()).toBe(200);
      } finally {
        server.child.kill("SIGTERM");
        await server.exited;
      }
    }
  }, 40_000);
});

describe("the stdio server survives its edges", () => {
  function spawnServe(): { child: ChildProcessWithoutNullStreams; stdout: () => string } {
    const child = spawn(process.execPath, [CLI, "serve", "--db", db]) as ChildProcessWithoutNullStreams;
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
    });
    return { child, stdout: () => out };
  }
  const waitFor = (read: () => string, needle: string) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${needle}; stdout: ${read().slice(0, 400)}`)),
        20_000,
      );
      const poll = setInterval(() => {
        if (read().includes(needle)) {
          clearTimeout(timer);
          clearInterval(poll);
          resolve();
        }
      }, 20);
    });

  it("answers an oversize message with a JSON-RPC error naming its id, then goes on — even with stderr closed", async () => {
    const { child, stdout } = spawnServe();
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
    });
    await waitFor(stdout, '"id":1');
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    // The reader of stderr goes away: the log line about the refusal must not kill the server.
    child.stderr.destroy();
    // Over the SDK transport's own 10 MB buffer, which used to close the connection and exit 0 silently.
    const huge = "x".repeat(11 * 1024 * 1024);
    child.stdin.write(
      `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"submit_move","arguments":{"choice":"${huge}"}}}\n`,
    );
    // The SDK's own order puts the id after the params, at the far end of the line.
    child.stdin.write(
      `{"method":"tools/call","params":{"name":"submit_move","arguments":{"choice":"${huge}","id":3}},"jsonrpc":"2.0","id":9}\n`,
    );
    send({ jsonrpc: "2.0", id: 8, method: "ping" });
    await waitFor(stdout, '"id":8');
    child.kill("SIGTERM");
    const replies = stdout()
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as { id: number; error?: { code: number; message: string } });
    expect(replies.find((r) => r.id === 7)?.error).toMatchObject({
      code: -32600,
      message: expect.stringMatching(/longer than 8388608 bytes/),
    });
    expect(replies.find((r) => r.id === 9)?.error).toMatchObject({ code: -32600 });
    expect(replies.filter((r) => r.id === null)).toEqual([]);
    expect(replies.find((r) => r.id === 8)).toMatchObject({ result: {} });
  }, 30_000);
});
