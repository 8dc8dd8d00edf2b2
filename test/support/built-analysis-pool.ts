import { afterAll, beforeAll } from "vitest";
import { requireBuiltCli } from "./built-cli.js";
import { tempDeps } from "./harness.js";

export type Pool = import("../../src/mcp/analysis-pool/worker-pool.js").AnalysisPool;

/**
 * The built analysis pool (its worker file is compiled JavaScript, so the source's cannot run it) of
 * `workers` workers over a fresh record, started before the file's tests and closed after them: read
 * `.pool` inside a test.
 */
export function useBuiltPool(workers: number): { readonly pool: Pool } {
  const held: { pool?: Pool } = {};
  let deps: ReturnType<typeof tempDeps>;
  beforeAll(async () => {
    requireBuiltCli();
    deps = tempDeps();
    const built = "../../dist/mcp/analysis-pool/worker-pool.js";
    const { AnalysisPool } = (await import(
      built
    )) as typeof import("../../src/mcp/analysis-pool/worker-pool.js");
    held.pool = new AnalysisPool(deps.dbPath, workers);
  });
  afterAll(async () => {
    await held.pool?.close();
    deps.dispose();
  });
  return {
    get pool(): Pool {
      if (held.pool === undefined) throw new Error("The built pool starts before the file's tests.");
      return held.pool;
    },
  };
}
