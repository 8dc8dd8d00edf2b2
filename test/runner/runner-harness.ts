import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { loadCatalog } from "../../src/domain/catalog.js";
import { registerStudy as registerStudyDesign } from "../../src/play/studies.js";
import { Store } from "../../src/store/store.js";
import { CLI } from "../support/built-cli.js";

// Helpers for the runner tests: the built CLI run asynchronously (the scripted endpoint answers from this
// same process, so the test must not block its event loop), and the record read back with SQLite.

export interface AsyncRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function startCli(
  args: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; done: Promise<AsyncRun> } {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const done = new Promise<AsyncRun>((resolve) => {
    child.on("close", (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
  return { child, done };
}

export function runCliAsync(args: string[], env: Record<string, string> = {}): Promise<AsyncRun> {
  return startCli(args, env).done;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Registers a design in the record (the same service `study register` and register_study use). */
export function registerStudy(db: string, design: object): string {
  const store = new Store(db);
  try {
    return registerStudyDesign({ store, catalog: loadCatalog() }, design).study_id;
  } finally {
    store.close();
  }
}

export function query<T>(db: string, sql: string, ...params: unknown[]): T[] {
  const handle = new Database(db, { readonly: true });
  try {
    return handle.prepare(sql).all(...params) as T[];
  } finally {
    handle.close();
  }
}

/** Finished trials per (player, framing) of a study. */
export function finishedPerCell(db: string, studyId: string): Record<string, number> {
  const rows = query<{ player: string; framing: string; n: number }>(
    db,
    `SELECT player, framing, count(*) AS n FROM matches WHERE study_id = ? AND status = 'finished'
     GROUP BY player, framing ORDER BY player, framing`,
    studyId,
  );
  return Object.fromEntries(rows.map((r) => [`${r.player}/${r.framing}`, r.n]));
}

/** The texts (user turns and tool results) of one recorded request, OpenAI or Anthropic shape. */
export function requestText(body: Record<string, unknown>): string {
  return JSON.stringify(body.messages ?? []);
}
