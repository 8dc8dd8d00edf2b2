import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe } from "vitest";
import type { EngineKind } from "../../src/store/engines/engine.js";
import { PostgresEngine } from "../../src/store/engines/postgres-engine.js";

// The tests' PostgreSQL: `.ci/run` starts a throw-away server (scripts/temp-postgres.sh) and exports its URL
// as SAME_GAME_TEST_PG. Each record a test asks for is a database of its own (CREATE DATABASE), so test
// files run in parallel against one server without seeing each other's rows.

/** The admin URL of the test server, when there is one. */
export const TEST_PG = process.env.SAME_GAME_TEST_PG;

if (TEST_PG === undefined && process.env.SAME_GAME_REQUIRE_PG === "1") {
  throw new Error(
    "SAME_GAME_REQUIRE_PG=1 but SAME_GAME_TEST_PG is not set: the PostgreSQL tests cannot run.",
  );
}

let warned = false;
function warnSkipped(what: string): void {
  if (warned) return;
  warned = true;
  process.stderr.write(
    `\n*** SKIPPED against PostgreSQL: ${what} (SAME_GAME_TEST_PG is not set; .ci/run starts a server, or run\n*** scripts/temp-postgres.sh start DIR 54329 and export the URL it prints). ***\n\n`,
  );
}

let admin: PostgresEngine | undefined;
function adminEngine(): PostgresEngine {
  if (TEST_PG === undefined) throw new Error("SAME_GAME_TEST_PG is not set");
  admin ??= new PostgresEngine(TEST_PG, { readonly: false });
  return admin;
}

/** A record location that is thrown away with everything in it by `dispose`. */
export interface TestRecord {
  engine: EngineKind;
  /** The path or URL to give `new Store` or `--db`. */
  location: string;
  dispose(): void;
}

/** A fresh, empty PostgreSQL database on the test server. */
export function freshPostgresDatabase(): TestRecord {
  const name = `sg_test_${process.pid}_${randomBytes(6).toString("hex")}`;
  adminEngine().exec(`CREATE DATABASE ${name}`);
  const url = new URL(TEST_PG as string);
  url.pathname = `/${name}`;
  return {
    engine: "postgres",
    location: url.toString(),
    dispose() {
      // FORCE: a server a test started may still hold a connection for a moment after it was told to stop.
      adminEngine().exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** A fresh record on either engine: a file in a new temp folder, or a new PostgreSQL database. */
export function freshRecord(engine: EngineKind): TestRecord {
  if (engine === "postgres") return freshPostgresDatabase();
  const dir = mkdtempSync(join(tmpdir(), "same-game-test-"));
  return {
    engine,
    location: join(dir, "record.db"),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Runs a suite once per engine: always on SQLite, and on PostgreSQL when a test server is there. Without one
 * the PostgreSQL half is reported as skipped, loudly, never passed.
 */
export function describeEachEngine(name: string, suite: (engine: EngineKind) => void): void {
  describe(`${name} [sqlite]`, () => suite("sqlite"));
  describeOnPostgres(`${name} [postgres]`, () => suite("postgres"));
}

/** A suite that needs the PostgreSQL test server: skipped with a loud message when there is none. */
export function describeOnPostgres(name: string, suite: () => void): void {
  if (TEST_PG === undefined) {
    warnSkipped(name);
    describe.skip(name, suite);
  } else {
    describe(name, suite);
  }
}
