import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  chownSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, requireBuiltCli, runCli } from "../support/built-cli.js";

// A record someone may read but not write — on a read-only mount, in a write-protected folder, or a
// read-only file in a writable folder — is analysed, reported, exported and served from where it is, and
// is left exactly as it was: the same bytes, and no -wal or -shm beside it.

const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;

let work: string;
/** A finished record (imported counts and transcripts), closed cleanly: no -wal beside it. */
let source: string;

beforeAll(() => {
  requireBuiltCli();
  work = mkdtempSync(join(tmpdir(), "same-game-read-only-"));
  chmodSync(work, 0o755);
  source = join(work, "source.db");
  const counts = runCli(["import", "counts", "--reference", "lore-heydari-2024", "--db", source]);
  expect(counts.status, counts.stderr).toBe(0);
  const matches = runCli(["import", "matches", "--reference", "llm-gm-thesis-2026", "--db", source]);
  expect(matches.status, matches.stderr).toBe(0);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const sha = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

/** The built CLI, as root or (uid given) as that user; HOME is a folder no one can write. */
function cli(args: string[], uid?: number) {
  const command =
    uid === undefined
      ? [process.execPath, CLI]
      : ["setpriv", `--reuid=${uid}`, `--regid=${uid}`, "--clear-groups", process.execPath, CLI];
  const run = spawnSync(command[0] as string, [...command.slice(1), ...args], {
    encoding: "utf8",
    env: { ...process.env, HOME: "/nonexistent", SAME_GAME_CERT_CACHE: "0" },
    timeout: 60_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Every read verb on the record; each must answer from it. */
function readEverything(db: string, uid?: number): void {
  const robustness = cli(["analyze", "robustness", "--db", db, "--bootstrap", "200", "--json"], uid);
  expect(robustness.stderr).toBe("");
  expect(robustness.status).toBe(0);
  // The Lorè & Heydari counts: 12 (model, game) pairs, all analysed.
  expect(JSON.parse(robustness.stdout).games).toHaveLength(12);
  const repeated = cli(["analyze", "repeated", "--db", db, "--json"], uid);
  expect(repeated.status, repeated.stderr).toBe(0);
  const out = join(tmpdir(), `same-game-read-only-report-${process.pid}-${uid ?? 0}.html`);
  const report = cli(["report", "--db", db, "--bootstrap", "200", "--out", out], uid);
  expect(report.status, report.stderr).toBe(0);
  rmSync(out, { force: true });
  const exported = cli(["export", "matches", "--db", db, "--format", "jsonl"], uid);
  expect(exported.status, exported.stderr).toBe(0);
  expect(exported.stdout.trim().split("\n").length).toBeGreaterThan(0);
}

async function serveReadOnly(db: string, uid?: number): Promise<void> {
  const command = uid === undefined ? process.execPath : "setpriv";
  const args = [CLI, "serve", "--db", db, "--toolsets", "all"];
  const client = new Client({ name: "read-only-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command,
      args:
        uid === undefined
          ? args
          : [`--reuid=${uid}`, `--regid=${uid}`, "--clear-groups", process.execPath, ...args],
      env: { ...(process.env as Record<string, string>), HOME: "/nonexistent", SAME_GAME_CERT_CACHE: "0" },
      stderr: "ignore",
    }),
  );
  try {
    await client.listTools();
    const robustness = await client.callTool({
      name: "robustness",
      arguments: { framings: ["business", "friend-sharing"], bootstrap: 200 },
    });
    expect(robustness.isError ?? false, JSON.stringify(robustness.content)).toBe(false);
    const play = await client.callTool({ name: "start_match", arguments: { game: "prisoners-dilemma" } });
    expect(play.isError).toBe(true);
    expect(JSON.stringify(play.content)).toContain(
      "start_match needs to write the record, and this server can only read it",
    );
  } finally {
    await client.close();
  }
}

function besideRecord(dir: string): string[] {
  return readdirSync(dir).sort();
}

describe("a record on a read-only mount", () => {
  let mount: string | undefined;
  let mounted = false;
  beforeAll(() => {
    if (!isRoot) return;
    mount = join(work, "mnt");
    mkdirSync(mount);
    const up = spawnSync("mount", ["-t", "tmpfs", "-o", "size=64m", "tmpfs", mount], { encoding: "utf8" });
    if (up.status !== 0) return;
    copyFileSync(source, join(mount, "record.db"));
    const ro = spawnSync("mount", ["-o", "remount,ro", mount], { encoding: "utf8" });
    mounted = ro.status === 0;
  });
  afterAll(() => {
    if (mount) spawnSync("umount", [mount]);
  });

  it("is analysed, reported, exported and served, and left as it was", async (context) => {
    if (!mounted) {
      process.stderr.write(
        "\n*** SKIPPED: the read-only mount test (mount -t tmpfs needs root and a kernel that permits it). ***\n\n",
      );
      context.skip();
    }
    const db = join(mount as string, "record.db");
    const before = sha(db);
    readEverything(db);
    await serveReadOnly(db);
    expect(besideRecord(mount as string)).toEqual(["record.db"]);
    expect(sha(db)).toBe(before);
  }, 120_000);
});

describe.skipIf(!isRoot)("a record another user may only read (run as nobody)", () => {
  it("in a write-protected folder: every read verb works and nothing is written beside it", async () => {
    const folder = join(work, "protected");
    mkdirSync(folder);
    copyFileSync(source, join(folder, "record.db"));
    chmodSync(join(folder, "record.db"), 0o644);
    chmodSync(folder, 0o755); // root's folder: nobody may read it, not write it.
    const before = sha(join(folder, "record.db"));
    readEverything(join(folder, "record.db"), NOBODY);
    await serveReadOnly(join(folder, "record.db"), NOBODY);
    expect(besideRecord(folder)).toEqual(["record.db"]);
    expect(sha(join(folder, "record.db"))).toBe(before);
  }, 120_000);

  it("a read-only file in a folder the user may write: no -wal or -shm is created beside it", () => {
    const folder = join(work, "writable");
    mkdirSync(folder);
    copyFileSync(source, join(folder, "record.db"));
    chownSync(folder, NOBODY, NOBODY);
    chownSync(join(folder, "record.db"), NOBODY, NOBODY);
    chmodSync(join(folder, "record.db"), 0o444);
    const before = sha(join(folder, "record.db"));
    readEverything(join(folder, "record.db"), NOBODY);
    expect(besideRecord(folder)).toEqual(["record.db"]);
    expect(sha(join(folder, "record.db"))).toBe(before);
  }, 120_000);

  it("refuses, naming the -wal, a record whose write-ahead log holds commits it could not merge", () => {
    const folder = join(work, "unmerged");
    mkdirSync(folder);
    const db = join(folder, "record.db");
    copyFileSync(source, db);
    // A writer that stopped without merging its log: a commit left in record.db-wal.
    const writer = new Database(db);
    writer.pragma("wal_autocheckpoint = 0");
    writer.exec("CREATE TABLE late (x)");
    copyFileSync(db, join(work, "unmerged-copy.db"));
    copyFileSync(`${db}-wal`, join(work, "unmerged-copy.db-wal"));
    writer.close();
    rmSync(folder, { recursive: true });
    mkdirSync(folder);
    copyFileSync(join(work, "unmerged-copy.db"), db);
    copyFileSync(join(work, "unmerged-copy.db-wal"), `${db}-wal`);
    chmodSync(folder, 0o755);
    const run = cli(["analyze", "robustness", "--db", db], NOBODY);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      `same-game: ${db} cannot be written here and its write-ahead log ${db}-wal holds commits not yet merged into it: open the record once where it is writable (serve or import merge them on exit), then analyse it here.\n`,
    );
  });
});

if (!isRoot) {
  process.stderr.write(
    "\n*** SKIPPED: the read-only record tests need root (to mount a tmpfs and to run the CLI as nobody). ***\n\n",
  );
}
