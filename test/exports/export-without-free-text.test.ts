import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { parseCommandArgs } from "../../src/cli/command.js";
import { exportCommand } from "../../src/cli/export.js";
import type { EngineKind } from "../../src/store/engines/engine.js";
import { connectClient, tempDeps } from "../support/harness.js";
import { describeEachEngine } from "../support/postgres.js";

// `export --no-free-text`: a file for an ethics board or a public archive, with every number and label of
// the export and none of the words — the replies, rationales and prompts are written empty (null), the
// columns and their order kept. One player plays the prisoner's dilemma twice with a rationale and an
// invalid reply first in the second match.

const MARK = "participant wrote this";
const exportCli = async (argv: string[]) => exportCommand.run(parseCommandArgs(exportCommand, argv));

describeEachEngine("export without free text", (engine: EngineKind) => {
  let deps: ReturnType<typeof tempDeps>;
  beforeEach(async () => {
    deps = tempDeps(engine);
    const client = await connectClient(deps, { player: "p1" });
    for (const t of [0, 1]) {
      const view = (
        await client.callTool({
          name: "start_match",
          arguments: { game: "prisoners-dilemma", framing: "business" },
        })
      ).structuredContent as { match_id: string; labels: string[] };
      if (t === 1)
        await client.callTool({
          name: "submit_move",
          arguments: { match_id: view.match_id, round: 1, choice: `${MARK}: no idea` },
        });
      await client.callTool({
        name: "submit_move",
        arguments: { match_id: view.match_id, round: 1, choice: view.labels[0], rationale: `${MARK} ${t}` },
      });
    }
    await client.close();
  });
  afterEach(() => deps.dispose());

  const exported = async (kind: string, extra: string[]) => {
    const out = join(deps.dir, `${kind}${extra.length}.jsonl`);
    await exportCli([kind, "--format", "jsonl", "--out", out, "--db", deps.dbPath, ...extra]);
    return readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  };

  it("writes decisions and attempts with the same columns and numbers, and the replies, rationales and prompts empty", async () => {
    for (const [kind, emptied] of [
      ["decisions", ["raw_text", "rationale", "prompt"]],
      ["attempts", ["raw_text"]],
    ] as const) {
      const full = await exported(kind, []);
      const bare = await exported(kind, ["--no-free-text"]);
      expect(JSON.stringify(full)).toContain(MARK);
      expect(JSON.stringify(bare)).not.toContain(MARK);
      expect(bare.length).toBe(kind === "decisions" ? 2 : 3);
      expect(bare.map((row) => Object.keys(row))).toEqual(full.map((row) => Object.keys(row)));
      expect(bare).toEqual(
        full.map((row) => ({ ...row, ...Object.fromEntries(emptied.map((c) => [c, null])) })),
      );
    }
  });
});
