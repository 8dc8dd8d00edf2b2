import { describe, expect, it } from "vitest";
import { redactUrl } from "../../src/store/engines/database-location.js";
import { startServerProcess } from "../http/support/server-process.js";
import { requireBuiltCli, runCli } from "../support/built-cli.js";
import { describeOnPostgres, freshPostgresDatabase } from "../support/postgres.js";

// The driver takes a password from the URL's query as readily as from before the @, so a URL is shown
// with both hidden, wherever it is shown.

describe("a record URL as it is printed", () => {
  it("hides the password before the @ and the password and sslpassword parameters", () => {
    expect(redactUrl("postgres://ana:s3cret@db.lab:5432/record")).toBe(
      "postgres://ana:***@db.lab:5432/record",
    );
    expect(redactUrl("postgres://ana@db.lab/record?password=S3cretPW")).toBe(
      "postgres://ana@db.lab/record?password=***",
    );
    expect(
      redactUrl(
        "postgres://ana@db.lab/record?sslmode=require&sslkey=/k/client.key&sslpassword=unlock&Password=x",
      ),
    ).toBe("postgres://ana@db.lab/record?sslmode=require&sslkey=/k/client.key&sslpassword=***&Password=***");
    // An encoded name is the same parameter to the driver.
    expect(redactUrl("postgres://ana@db.lab/record?pass%77ord=S3cretPW")).toBe(
      "postgres://ana@db.lab/record?pass%77ord=***",
    );
  });

  it("hides them in a URL that does not parse too", () => {
    expect(redactUrl("postgres://ana:s3cret@:bad:port/record?password=S3cretPW")).toBe(
      "postgres://***@:bad:port/record?password=***",
    );
  });

  it("refuses an unreachable server naming the URL without the query's password (exit 2)", () => {
    requireBuiltCli();
    // Port 1 on loopback: nothing listens there.
    const run = runCli([
      "analyze",
      "robustness",
      "--db",
      "postgres://ana@127.0.0.1:1/record?password=S3cretPW",
    ]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(
      /^same-game: Cannot connect to the PostgreSQL record postgres:\/\/ana@127\.0\.0\.1:1\/record\?password=\*\*\* \(/,
    );
    expect(run.stderr).not.toContain("S3cretPW");
  });
});

describeOnPostgres("the serve --http banner", () => {
  it("names the record without the query's password", async () => {
    const record = freshPostgresDatabase();
    const url = new URL(record.location);
    // The test server trusts loopback, so the password is sent and ignored.
    url.searchParams.set("password", "S3cretPW2");
    const server = await startServerProcess(url.toString());
    try {
      expect(server.stderr()).toContain(`record: ${record.location}?password=***;`);
      expect(server.stderr()).not.toContain("S3cretPW2");
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
      record.dispose();
    }
  });
});
