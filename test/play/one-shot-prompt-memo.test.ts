import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { renderPrompt } from "../../src/domain/render.js";
import type { PromptStyle } from "../../src/domain/types.js";
import { currentRoundView } from "../../src/play/match-view.js";
import type { PlayDeps } from "../../src/play/play-deps.js";
import { promptHash } from "../../src/store/store.js";
import { shippedCatalog } from "../support/harness.js";
import { oneShotMatch } from "../support/match-record.js";

// A one-shot prompt is remembered per condition (match-view.ts): every condition must still get its own text.
describe("the remembered one-shot prompts", () => {
  const catalog = shippedCatalog();
  // One-shot views read no record: a store that throws proves the memo needs none.
  const deps = {
    catalog,
    store: new Proxy(
      {},
      {
        get: () => () => {
          throw new Error("no store");
        },
      },
    ),
  } as unknown as PlayDeps;
  const labels = catalog.framing("business", "prisoners-dilemma").labels;
  const fresh = (order: string[], style: PromptStyle) =>
    renderPrompt({
      game: catalog.game("prisoners-dilemma"),
      variant: catalog.variant("prisoners-dilemma", "base"),
      framing: catalog.framing("business", "prisoners-dilemma"),
      actionOrder: order,
      style,
    });

  it("gives each action order and style of one cell its own prompt, the renderer's own text", () => {
    const conditions: [string[], PromptStyle][] = [
      [["cooperate", "defect"], "zero-shot"],
      [["defect", "cooperate"], "zero-shot"],
      [["cooperate", "defect"], "chain-of-thought"],
      [["defect", "cooperate"], "zero-shot"],
      [["cooperate", "defect"], "zero-shot"],
    ];
    const prompts = conditions.map(([order, style], i) => {
      const view = currentRoundView(deps, oneShotMatch(`m${i}`, { action_order: order, style }));
      expect(view).toMatchObject({
        match_id: `m${i}`,
        round: 1,
        rounds: 1,
        labels: order.map((a) => labels[a]),
      });
      expect(view.prompt).toBe(fresh(order, style));
      return view.prompt;
    });
    // The choices are listed in the match's order, whichever condition was rendered before it.
    const last = (text: string) => text.split("\n\n").at(-1);
    expect(last(prompts[0] as string)).toBe(
      `Answer with exactly one of: ${labels.cooperate} or ${labels.defect}.`,
    );
    expect(last(prompts[1] as string)).toBe(
      `Answer with exactly one of: ${labels.defect} or ${labels.cooperate}.`,
    );
    expect(prompts[2]).toContain("Think it through step by step");
    expect(prompts[0]).not.toContain("Think it through step by step");
    expect(new Set(prompts).size).toBe(3);
  });

  it("hashes a prompt to its SHA-256, remembered or not", () => {
    const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
    expect(promptHash("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(promptHash("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    // Past the memo's size it starts again; every text still gets its own hash.
    for (let i = 0; i < 600; i++) expect(promptHash(`prompt ${i}`)).toBe(sha256(`prompt ${i}`));
    expect(promptHash("abc")).toBe(sha256("abc"));
  });
});
