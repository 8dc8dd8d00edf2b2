import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { expect, it } from "vitest";
import { packageRoot } from "../../src/package-root.js";
import { PostgresEngine } from "../../src/store/engines/postgres-engine.js";
import { describeEachEngine, freshRecord } from "../support/postgres.js";
import { startServerProcess } from "./support/server-process.js";

// A rolling upgrade: a newer build migrates the shared record while an older replica still serves. The
// older one would refuse to start on that record now, so it must stop being routed to — /readyz fails,
// naming both versions — and /healthz says which build and schema each replica has.

/** The newest migration in db/, as a reader counts them (019_study_indexes… → 19). */
const HIGHEST_MIGRATION = Math.max(
  ...readdirSync(join(packageRoot(), "db"))
    .filter((name) => /^\d{3}_.*\.sql$/.test(name))
    .map((name) => Number(name.slice(0, 3))),
);
const BUILD = (
  JSON.parse(readFileSync(join(packageRoot(), "dist", "build-id.json"), "utf8")) as { build: string }
).build;

/** What a newer build's first start leaves behind: its migration applied and recorded. */
function migrateAsNewerBuild(location: string, version: number): void {
  const sql = "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)";
  const params = [version, `${String(version).padStart(3, "0")}_newer.sql`, new Date().toISOString()];
  if (location.startsWith("postgres")) {
    const engine = new PostgresEngine(location, { readonly: false });
    try {
      engine.prepare(sql).run(...params);
    } finally {
      engine.close();
    }
    return;
  }
  const db = new Database(location);
  try {
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}

describeEachEngine("a record migrated past this build", (engine) => {
  it("fails readiness within seconds, naming both schema versions; /healthz names the build and both", async () => {
    const record = freshRecord(engine);
    const server = await startServerProcess(record.location);
    const origin = new URL(server.url).origin;
    try {
      expect(await (await fetch(`${origin}/readyz`)).json()).toMatchObject({ ready: true });
      expect(await (await fetch(`${origin}/healthz`)).json()).toMatchObject({
        ok: true,
        build: BUILD,
        schema_version: HIGHEST_MIGRATION,
        record_schema_version: HIGHEST_MIGRATION,
      });
      migrateAsNewerBuild(record.location, HIGHEST_MIGRATION + 1);
      // The version is read at most every 5 s: within that (and a margin for a loaded machine) it shows.
      const deadline = Date.now() + 15_000;
      let ready = await fetch(`${origin}/readyz`);
      while (ready.status === 200 && Date.now() < deadline) {
        await ready.text();
        await new Promise((resolve) => setTimeout(resolve, 250));
        ready = await fetch(`${origin}/readyz`);
      }
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({
        ready: false,
        database: "ok",
        reason: `The record's schema version is ${HIGHEST_MIGRATION + 1}, newer than the ${HIGHEST_MIGRATION} this build reads: a newer same-game migrated it; replace this replica with that build.`,
      });
      expect(await (await fetch(`${origin}/healthz`)).json()).toMatchObject({
        schema_version: HIGHEST_MIGRATION,
        record_schema_version: HIGHEST_MIGRATION + 1,
      });
      // One line when it turns, not one per probe.
      expect(server.stderr().match(/newer than the \d+ this build reads/g)).toHaveLength(1);
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
      record.dispose();
    }
  }, 60_000);
});
