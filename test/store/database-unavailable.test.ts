import { afterAll, expect, it } from "vitest";
import { isDatabaseUnavailable } from "../../src/store/engines/database-unavailable.js";
import { PostgresEngine } from "../../src/store/engines/postgres-engine.js";
import { describeOnPostgres, freshPostgresDatabase, TEST_PG } from "../support/postgres.js";

// What the driver throws when the record's database cannot be reached is an outage (HTTP 503, Retry-After,
// one sentence), not a statement the database refused (a 500 with the driver's text): PostgreSQL's own
// errors, produced for real on the test server.

/** The error a fresh connection to `url` meets at its first statement. */
function firstStatementError(url: string): unknown {
  let engine: PostgresEngine | undefined;
  try {
    engine = new PostgresEngine(url, { readonly: false });
    engine.exec("SELECT 1");
    return null;
  } catch (error) {
    return error;
  } finally {
    try {
      engine?.close();
    } catch {
      // The connection never opened: nothing to close.
    }
  }
}

describeOnPostgres("an unreachable record database", () => {
  const record = freshPostgresDatabase();
  const name = new URL(record.location).pathname.slice(1);
  const admin = new PostgresEngine(TEST_PG as string, { readonly: false });
  afterAll(() => {
    admin.exec(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS true`);
    record.dispose();
    admin.close();
  });

  it("is an outage when the database refuses connections (maintenance), or is not there", () => {
    admin.exec(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
    const refused = firstStatementError(record.location) as { code?: string; message: string };
    expect(refused.code).toBe("55000");
    expect(refused.message).toMatch(/not currently accepting connections/);
    expect(isDatabaseUnavailable(refused)).toBe(true);

    const missing = new URL(record.location);
    missing.pathname = `/${name}_gone`;
    const gone = firstStatementError(missing.toString()) as { code?: string };
    expect(gone.code).toBe("3D000");
    expect(isDatabaseUnavailable(gone)).toBe(true);
  });

  it("is not an outage when the database refuses a statement", () => {
    admin.exec(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS true`);
    const engine = new PostgresEngine(record.location, { readonly: false });
    try {
      let refused: unknown = null;
      try {
        engine.exec("SELEC 1");
      } catch (error) {
        refused = error;
      }
      expect((refused as { code?: string }).code).toBe("42601");
      expect(isDatabaseUnavailable(refused)).toBe(false);
    } finally {
      engine.close();
    }
  });
});
