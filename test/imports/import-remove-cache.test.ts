import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { parseCommandArgs } from "../../src/cli/command.js";
import { importCommand } from "../../src/cli/import.js";
import type { EngineKind } from "../../src/store/engines/engine.js";
import { connectClient, tempDeps } from "../support/harness.js";
import { describeEachEngine } from "../support/postgres.js";

// `import remove` takes an import out of the record: the cached analysis results computed while it was
// in hold its players' numbers and labels, so they go in the same transaction (before, they stayed in the
// record's analysis_cache table until the next analysis was stored, though never served again).

const importCli = async (argv: string[]) => importCommand.run(parseCommandArgs(importCommand, argv));

describeEachEngine("import remove and the analysis cache", (engine: EngineKind) => {
  let deps: ReturnType<typeof tempDeps>;
  const cachedResults = () =>
    (deps.store.engine.prepare("SELECT result FROM analysis_cache").all() as { result: string }[]).map(
      (r) => r.result,
    );

  beforeEach(() => {
    deps = tempDeps(engine);
  });
  afterEach(() => deps.dispose());

  it("drops every cached result that holds the removed import's players", async () => {
    const csv = join(deps.dir, "published.csv");
    writeFileSync(
      csv,
      "player,game,framing,action,count\nwithdrawn-lab,prisoners-dilemma,business,cooperate,7\nwithdrawn-lab,prisoners-dilemma,business,defect,3\nwithdrawn-lab,prisoners-dilemma,friend-sharing,cooperate,9\nwithdrawn-lab,prisoners-dilemma,friend-sharing,defect,1\n",
    );
    await importCli(["counts", csv, "--source", "published", "--db", deps.dbPath]);
    const client = await connectClient(deps);
    await client.callTool({ name: "robustness", arguments: { bootstrap: 200 } });
    await client.close();
    expect(cachedResults().filter((r) => r.includes("withdrawn-lab")).length).toBe(1);

    await importCli(["remove", "--source", "published", "--db", deps.dbPath]);

    expect(cachedResults()).toEqual([]);
  });
});
