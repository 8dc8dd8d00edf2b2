import { describe, expect, it } from "vitest";
import type { EngineKind } from "../../src/store/engines/engine.js";
import { call, connectClient, tempDeps } from "../support/harness.js";
import { describeOnPostgres } from "../support/postgres.js";

// list_matches by opponent: a repeated-play cell is (player, game, variant, framing, opponent), so the
// matches behind one cell are those against its opponent, on either engine.

async function listedBy(engine: EngineKind): Promise<Record<string, number>> {
  const deps = tempDeps(engine);
  const client = await connectClient(deps);
  try {
    // Two matches against tit-for-tat, one against always-defect, started only: a listing shows open
    // matches too.
    for (const [opponent, seed] of [
      ["tit-for-tat", 1],
      ["tit-for-tat", 2],
      ["always-defect", 3],
    ] as const) {
      await call(client, "start_match", {
        game: "repeated-pd",
        framing: "repeated-plain",
        opponent,
        player: "duo",
        seed,
      });
    }
    const total = async (args: Record<string, unknown>) =>
      (await call<{ total: number; matches: { opponent: string }[] }>(client, "list_matches", args)).total;
    const page = await call<{ matches: { opponent: string }[] }>(client, "list_matches", {
      player: "duo",
      opponent: "always-defect",
    });
    expect(page.matches.map((m) => m.opponent)).toEqual(["always-defect"]);
    return {
      all: await total({ player: "duo" }),
      "tit-for-tat": await total({ player: "duo", opponent: "tit-for-tat" }),
      "always-defect": await total({ player: "duo", opponent: "always-defect" }),
      grim: await total({ player: "duo", opponent: "grim-trigger" }),
    };
  } finally {
    await client.close();
    deps.dispose();
  }
}

const EXPECTED = { all: 3, "tit-for-tat": 2, "always-defect": 1, grim: 0 };

describe("list_matches by opponent", () => {
  it("lists only the matches against that opponent, on SQLite", async () => {
    expect(await listedBy("sqlite")).toEqual(EXPECTED);
  });
});

describeOnPostgres("list_matches by opponent on PostgreSQL", () => {
  it("lists only the matches against that opponent, as on SQLite", async () => {
    expect(await listedBy("postgres")).toEqual(EXPECTED);
  });
});
