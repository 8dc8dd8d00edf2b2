import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeAll, beforeEach } from "vitest";
import { loadCatalog } from "../../src/domain/catalog.js";
import { registerStudy as registerStudyDesign } from "../../src/play/studies.js";
import type { ScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import { Store } from "../../src/store/store.js";
import { CLI, requireBuiltCli } from "../support/built-cli.js";

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

/** What a runner test works in; the fields change for every test, so read them inside the test. */
export interface RunSandbox {
  /** A fresh temp folder, removed after the test. */
  dir: string;
  /** `record.db` in that folder (not created until something writes it). */
  db: string;
  /** The scripted endpoint the test started, if any: closed after the test. */
  endpoint: ScriptedEndpoint | undefined;
}

/** Registers the hooks every runner test file needs: the built CLI once, and a sandbox per test. */
export function useRunSandbox(prefix: string): RunSandbox {
  const box: RunSandbox = { dir: "", db: "", endpoint: undefined };
  beforeAll(requireBuiltCli);
  beforeEach(() => {
    box.dir = tempDir(prefix);
    box.db = join(box.dir, "record.db");
  });
  afterEach(async () => {
    await box.endpoint?.close();
    box.endpoint = undefined;
    rmSync(box.dir, { recursive: true, force: true });
  });
  return box;
}

/**
 * `same-game run` of a study by the scripted payoff reader, in text mode, against the sandbox's endpoint and
 * record (`box.db` unless `db` is given), with the extra flags after.
 */
export function scriptedRunArgs(
  box: RunSandbox,
  study: string,
  extra: string[] = [],
  db = box.db,
  model = "scripted/payoff-reader",
): string[] {
  return [
    "run",
    "--study",
    study,
    "--model",
    model,
    "--base-url",
    (box.endpoint as ScriptedEndpoint).openAiBaseUrl,
    "--mode",
    "text",
    "--db",
    db,
    ...extra,
  ];
}

/** The design most runner tests play: the Prisoner's Dilemma told as a business deal and between friends. */
export function pdDesign(name: string, trialsPerCell: number, seed: number, extra: object = {}) {
  return {
    name,
    games: ["prisoners-dilemma"],
    framings: ["business", "friend-sharing"],
    trials_per_cell: trialsPerCell,
    seed,
    ...extra,
  };
}

/** How many matches of the record have finished. */
export function finishedMatches(db: string): number {
  return query<{ n: number }>(db, "SELECT count(*) AS n FROM matches WHERE status = 'finished'")[0]?.n ?? 0;
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
