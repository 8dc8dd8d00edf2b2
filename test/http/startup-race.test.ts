import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { packageRoot } from "../../src/package-root.js";
import { describeOnPostgres, freshPostgresDatabase } from "../support/postgres.js";
import { queryRecord } from "./support/replica-record.js";
import { type ServerProcess, startServerProcess } from "./support/server-process.js";

// Three replicas of a fresh deployment start at the same moment on an empty PostgreSQL database, as
// `docker compose up` starts them: one creates the record, the others wait for it, and all three serve.
// Each round is a fresh database, and a few rounds make a start-up race (a replica seeing the record half
// created) show: before the fix one of the first two rounds refused to start with "is not a same-game record".

const ROUNDS = 3;
const migrations = readdirSync(join(packageRoot(), "db", "postgres"))
  .filter((name) => /^\d{3}_/.test(name))
  .map((name) => Number(name.slice(0, 3)));
const running: ServerProcess[] = [];
afterAll(() => {
  for (const server of running) server.child.kill("SIGKILL");
});

describeOnPostgres("three replicas starting at once on an empty PostgreSQL database", () => {
  it(`all three start and the record is migrated once, in ${ROUNDS} rounds`, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const record = freshPostgresDatabase();
      try {
        // --db-pool 2: the deployment's setting (one request-path connection, one analysis worker).
        const started = await Promise.allSettled(
          [1, 2, 3].map(() => startServerProcess(record.location, ["--db-pool", "2"])),
        );
        const servers = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
        running.push(...servers);
        const refusals = started.flatMap((s) => (s.status === "rejected" ? [String(s.reason)] : []));
        expect({ round, refusals }).toEqual({ round, refusals: [] });
        const ready = await Promise.all(
          servers.map(async (s) => (await fetch(`${s.url.replace(/\/mcp$/, "")}/readyz`)).status),
        );
        expect(ready).toEqual([200, 200, 200]);
        const rows = queryRecord(record.location, "SELECT version FROM schema_migrations ORDER BY version");
        expect(rows.map((r) => r.version)).toEqual(migrations);
        for (const server of servers) server.child.kill("SIGTERM");
        expect(await Promise.all(servers.map((s) => s.exited))).toEqual([0, 0, 0]);
        running.length = 0;
      } finally {
        record.dispose();
      }
    }
  }, 180_000);
});
