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

  it("escapes control characters of a client's name and cuts a long one to fit the label's 200", async () => {
    const nul = await connectClient(deps, { clientName: "evil\u0000name\n\u001b[31m" });
    const first = await call<View>(nul, "start_match", spec);
    expect(deps.store.getMatch(first.match_id)?.player).toBe("evil\\x00name\\x0a\\x1b[31m@1.0.0");
    const huge = await connectClient(deps, { clientName: "n".repeat(1 << 20) });
    const second = await call<View>(huge, "start_match", spec);
    const label = deps.store.getMatch(second.match_id)?.player;
    expect(label).toBe(`${"n".repeat(149)}…@1.0.0`);
    expect(label?.length).toBe(156); // within 200, as the player argument must be
    expect(
      deps.store.getSession(deps.store.getMatch(second.match_id)?.session_id as string)?.client_name,
    ).toBe(`${"n".repeat(149)}…`);
    await Promise.all([nul.close(), huge.close()]);
  });

  it("cuts a long name of emoji between characters, never inside one: the client can still play", async () => {
    // 76 emoji are 152 UTF-16 units; the cut at 149 would fall between the two halves of the 75th.
    const emoji = await connectClient(deps, { clientName: "😀".repeat(76) });
    const view = await call<View>(emoji, "start_match", spec);
    expect(deps.store.getMatch(view.match_id)?.player).toBe(`${"😀".repeat(74)}…@1.0.0`);
    await emoji.close();
  });
});
