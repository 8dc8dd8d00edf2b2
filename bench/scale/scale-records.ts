// Where the scale benchmarks keep their generated records, and the one way they are made: generated once
// per size (generate-record.ts) into node_modules/.cache/same-game-scale/records/, then reused.
import { existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { Store } from "../../src/store/store.js";
import { generateRecord, RECORD_SHAPES, type RecordShape } from "./generate-record.js";

const here = dirname(fileURLToPath(import.meta.url)); // …/node_modules/.cache/same-game-scale/bench/scale
/** The repository root (this file runs compiled from node_modules/.cache/same-game-scale/bench/scale). */
export const ROOT = join(here, "..", "..", "..", "..", "..");
export const RECORDS = join(here, "..", "..", "records");

/** `--sizes 10000,100000` (decision counts ≥ 1000), or the default; exit 2 with one line when invalid. */
export function sizesArg(fallback: string): number[] {
  const at = process.argv.indexOf("--sizes");
  const text = at >= 0 ? (process.argv[at + 1] ?? "") : fallback;
  const sizes = text.split(",").map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n < 1000)) {
    console.error(
      `--sizes ${text} is invalid; give decision counts ≥ 1000, e.g. --sizes 10000,100000,1000000.`,
    );
    process.exit(2);
  }
  return sizes;
}

/** `--shape mixed|short-spanning`, or "mixed"; exit 2 with one line when invalid. */
export function shapeArg(): RecordShape {
  const at = process.argv.indexOf("--shape");
  const shape = at >= 0 ? (process.argv[at + 1] ?? "") : "mixed";
  if (!RECORD_SHAPES.includes(shape as RecordShape)) {
    console.error(`--shape ${shape} is invalid; valid shapes: ${RECORD_SHAPES.join(", ")}.`);
    process.exit(2);
  }
  return shape as RecordShape;
}

/** The record of `decisions` decisions: generated the first time, brought to this build's schema after. */
export function recordOf(decisions: number, shape: RecordShape = "mixed"): string {
  mkdirSync(RECORDS, { recursive: true });
  const path = join(RECORDS, shape === "mixed" ? `scale-${decisions}.db` : `scale-${shape}-${decisions}.db`);
  if (!existsSync(path)) {
    const started = performance.now();
    const store = new Store(path);
    const made = generateRecord(store, decisions, 1, shape);
    store.close();
    console.log(
      `generated ${path}: ${made.decisions} decisions, ${made.sessions} sessions, ${made.cells} cells in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  } else {
    // A record kept from an older build: brought to this build's schema (a writable open migrates it),
    // as a user's record is by serve or import, before the timed read-only runs.
    new Store(path).close();
  }
  return path;
}

/** The anchor: the median of 3 bare scans of the decisions table (direct SQL, read-only, bench only). */
export function anchorScanMs(path: string): number {
  const db = new Database(path, { readonly: true });
  const scan = db.prepare("SELECT count(*) AS n, sum(length(raw_text)) AS bytes FROM decisions");
  const times = [0, 1, 2].map(() => {
    const started = performance.now();
    scan.get();
    return performance.now() - started;
  });
  db.close();
  return times.sort((a, b) => a - b)[1] as number;
}

/**
 * Empties the record's result cache: a result an earlier bench run left in a kept record would answer the
 * call meant to be measured computing.
 */
export function forgetCachedAnalyses(path: string): void {
  const db = new Database(path);
  db.exec("DELETE FROM analysis_cache");
  db.close();
}
