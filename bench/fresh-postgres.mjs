// A throw-away PostgreSQL database for one bench run, created through the record's own engine on the server
// at `adminUrl` (SAME_GAME_BENCH_PG) and dropped by `dispose`. Its name starts with sg_bench_, by which the
// benches find its backends' CPU time in /proc.
import { randomBytes } from "node:crypto";
import { PostgresEngine } from "../dist/store/engines/postgres-engine.js";

export function freshPostgresDatabase(adminUrl, name) {
  const database = `sg_bench_${name}_${randomBytes(3).toString("hex")}`;
  const admin = new PostgresEngine(adminUrl, { readonly: false });
  admin.exec(`CREATE DATABASE ${database}`);
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return {
    location: url.toString(),
    dispose() {
      admin.exec(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      admin.close();
    },
  };
}
