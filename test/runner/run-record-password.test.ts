import { afterEach, beforeEach, expect, it } from "vitest";
import { startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import { describeOnPostgres, freshPostgresDatabase, type TestRecord } from "../support/postgres.js";
import { pdDesign, registerStudy, runCliAsync, scriptedRunArgs, useRunSandbox } from "./runner-harness.js";

// The summary of `same-game run` ends with the command that analyses what it recorded. On a PostgreSQL
// record that command must not carry the URL's password: the summary is pasted into tickets and CI logs.

const box = useRunSandbox("same-game-record-password-");
const PASSWORD = "SECRET-PASSWORD-4711";

describeOnPostgres("run's summary on a PostgreSQL URL with a password", () => {
  let record: TestRecord;
  let withPassword: string;
  let study: string;
  beforeEach(async () => {
    record = freshPostgresDatabase();
    const url = new URL(record.location);
    // The test server trusts local connections: any password is accepted and the URL still works.
    url.password = PASSWORD;
    withPassword = url.toString();
    box.endpoint = await startScriptedEndpoint();
    study = registerStudy(record.location, pdDesign("password", 1, 5));
  });
  afterEach(() => record.dispose());

  const analyseLine = (stdout: string) => stdout.split("\n").find((line) => line.startsWith("Analyse: "));

  it("given with --db, prints it with the password as ***", async () => {
    const run = await runCliAsync(scriptedRunArgs(box, study, ["--max-trials", "1"], withPassword));
    expect(run.status).toBe(0);
    const masked = withPassword.replace(PASSWORD, "***");
    expect(analyseLine(run.stdout)).toBe(
      `Analyse: same-game analyze robustness --study ${study} --players scripted/payoff-reader --db '${masked}'`,
    );
    expect(run.stdout + run.stderr).not.toContain(PASSWORD);
  });

  it("read from SAME_GAME_DB, prints no --db: the command reads the same variable", async () => {
    const args = scriptedRunArgs(box, study, ["--max-trials", "1"], "unused");
    args.splice(args.indexOf("--db"), 2);
    const run = await runCliAsync(args, { SAME_GAME_DB: withPassword });
    expect(run.status).toBe(0);
    expect(analyseLine(run.stdout)).toBe(
      `Analyse: same-game analyze robustness --study ${study} --players scripted/payoff-reader`,
    );
    expect(run.stdout + run.stderr).not.toContain(PASSWORD);
  });
});
