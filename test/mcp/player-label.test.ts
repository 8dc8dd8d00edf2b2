import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RoundView as View } from "../../src/play/match-view.js";
import { call, callError, connectClient, tempDeps } from "../support/harness.js";

// The player label of a decision when the client names no player: the client's own name and version,
// except when that name is the server's own ("same-game", as the OpenAI Agents SDK sends), which says
// nothing about the model: the call is refused, naming the two ways to label the player.

let deps: ReturnType<typeof tempDeps>;
beforeEach(() => {
  deps = tempDeps();
});
afterEach(() => deps.dispose());

const spec = { game: "prisoners-dilemma", framing: "business+familiar", opponent: "always-defect", seed: 7 };

describe("player label from the client's name", () => {
  it("refuses to label decisions with the server's own name, and records nothing", async () => {
    const client = await connectClient(deps, { clientName: "same-game" });
    const message = await callError(client, "start_match", spec);
    expect(message).toContain('introduces itself as "same-game@1.0.0"');
    expect(message).toContain('pass "player"');
    expect(message).toContain("same-game serve --player LABEL");
    expect(deps.store.listMatches({}).length).toBe(0);
    await client.close();
  });

  it("takes the player the tool names, or the server's --player, from such a client", async () => {
    const named = await connectClient(deps, { clientName: "same-game" });
    const view = await call<View>(named, "start_match", { ...spec, player: "gpt-4o-mini" });
    await call(named, "submit_move", { match_id: view.match_id, round: 1, choice: "Defect" });
    const configured = await connectClient(deps, { clientName: "same-game", player: "operator-label" });
    const other = await call<View>(configured, "start_match", spec);
    await call(configured, "submit_move", { match_id: other.match_id, round: 1, choice: "Defect" });
    expect(deps.store.getMatch(view.match_id)?.player).toBe("gpt-4o-mini");
    expect(deps.store.getMatch(other.match_id)?.player).toBe("operator-label");
    await Promise.all([named.close(), configured.close()]);
  });

  it("labels any other client by its name and version", async () => {
    const client = await connectClient(deps, { clientName: "claude-code" });
    const view = await call<View>(client, "start_match", spec);
    expect(deps.store.getMatch(view.match_id)?.player).toBe("claude-code@1.0.0");
    await client.close();
  });
});
