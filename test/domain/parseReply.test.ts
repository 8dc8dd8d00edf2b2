import { describe, expect, it } from "vitest";
import type { LabelMap } from "../../src/domain/labels.js";
import { parseReply } from "../../src/domain/parseReply.js";

const CD: LabelMap = { cooperate: "Cooperate", defect: "Defect" };
const MULTI: LabelMap = { cooperate: "Share the load", defect: "Go it alone" };
const RPS: LabelMap = { rock: "Rock", paper: "Paper", scissors: "Scissors" };

// [reply, expected]: an action id, or "invalid" for a reply the agent must be asked again about.
const CD_REPLIES: [string, string][] = [
  ["Cooperate", "cooperate"],
  ["defect", "defect"],
  ["DEFECT", "defect"],
  ["  Defect  ", "defect"],
  ["Defect.", "defect"],
  ["Defect!!", "defect"],
  ['"Cooperate"', "cooperate"],
  ["'defect'", "defect"],
  ["**Defect**", "defect"],
  ["`defect`", "defect"],
  ["_Cooperate_", "cooperate"],
  ["### Cooperate", "cooperate"],
  ["I choose Defect.", "defect"],
  ["I will cooperate with the other player.", "cooperate"],
  ["My decision is to defect this time.", "defect"],
  ["I'd go with **Cooperate** here.", "cooperate"],
  // Whole words only: derived words are not the label.
  ["I'll act cooperatively.", "invalid"],
  ["Defection seems wise.", "invalid"],
  ["Being uncooperative pays.", "invalid"],
  ["cooperate-ish, then defect", "invalid"],
  // Two labels, none, negations.
  ["Cooperate or Defect", "invalid"],
  ["I cooperate, then I defect.", "invalid"],
  ["Hmm, hard to say.", "invalid"],
  ["", "invalid"],
  ["   \n  ", "invalid"],
  ["I will not defect.", "invalid"],
  ["I won't cooperate.", "invalid"],
  ["I won’t cooperate.", "invalid"],
  ["Don't defect.", "invalid"],
  ["I would never defect.", "invalid"],
  ["I refuse to cooperate.", "invalid"],
  ["I cannot defect", "invalid"],
  // Chain of thought: a final-answer line (or a last line that is a label) decides.
  ["If I cooperate I risk 2; if I defect I get at least 3.\nFinal answer: Defect", "defect"],
  ["Cooperate gives 5 each, defect tempts with 10.\n\n**Final answer:** Cooperate", "cooperate"],
  ["Weighing cooperate against defect...\nChoice: defect.", "defect"],
  ["Defect is risky, cooperate is safe.\nMy answer is Cooperate", "cooperate"],
  ["Step 1: cooperate yields 5.\nStep 2: defect yields 10.\nDefect", "defect"],
  ["Answer: Cooperate\nI chose this because defecting is risky.", "cooperate"],
  ["Choice is hard: cooperate or defect?\nDefect", "defect"],
  ["Both cooperate and defect have merits.\nFinal answer: cooperate or defect", "invalid"],
  ["I could cooperate or defect.\nFinal answer: not defect", "invalid"],
  ["Cooperate and defect both look fine.\nSo I'll go with defect.", "invalid"],
  ["No doubt about it: defect.", "defect"],
];

const OTHER_REPLIES: [LabelMap, string, string][] = [
  [MULTI, "Share the load", "cooperate"],
  [MULTI, "share THE load.", "cooperate"],
  [MULTI, "I will **go it alone**", "defect"],
  [MULTI, "Share the", "invalid"],
  [MULTI, "I'll share the load rather than go it alone", "invalid"],
  [MULTI, "Loading... go", "invalid"],
  [RPS, "scissors", "scissors"],
  [RPS, "Rock, obviously.", "rock"],
  [RPS, "Rocky road? No: Paper.", "paper"],
  // One line naming two labels is not a chain of thought with a final line: ambiguous.
  [RPS, "Rock beats scissors, so: Rock", "invalid"],
  [RPS, "Rock beats scissors.\nRock", "rock"],
  [RPS, "Not paper. Rock.", "invalid"],
  [RPS, "paperwork", "invalid"],
];

const outcome = (reply: string, labels: LabelMap) => {
  const parsed = parseReply(reply, labels);
  return parsed.ok ? parsed.action : "invalid";
};

describe("parseReply", () => {
  it.each(CD_REPLIES)("reads %j as %s", (reply, expected) => {
    expect(outcome(reply, CD)).toBe(expected);
  });

  it.each(OTHER_REPLIES)("with labels %j reads %j as %s", (labels, reply, expected) => {
    expect(outcome(reply, labels)).toBe(expected);
  });

  it("covers at least 40 replies", () => {
    expect(CD_REPLIES.length + OTHER_REPLIES.length).toBeGreaterThanOrEqual(40);
  });

  it("returns the framing's label with the action", () => {
    expect(parseReply("**go it alone**", MULTI)).toEqual({
      ok: true,
      action: "defect",
      label: "Go it alone",
    });
  });

  it("gives reasons an agent can act on, listing the valid labels", () => {
    expect(parseReply("", CD)).toEqual({
      ok: false,
      reason: 'Your reply is empty; answer with exactly one of "Cooperate" or "Defect".',
    });
    expect(parseReply("Cooperate or Defect", CD)).toEqual({
      ok: false,
      reason:
        'Your reply names more than one choice ("Cooperate" and "Defect"); answer with exactly one of "Cooperate" or "Defect".',
    });
    expect(parseReply("maybe", RPS)).toEqual({
      ok: false,
      reason:
        'Your reply names none of the choices; answer with exactly one of "Rock", "Paper" or "Scissors".',
    });
    expect(parseReply("I won't defect", CD)).toEqual({
      ok: false,
      reason:
        'Your reply negates "Defect", which does not name a choice; answer with exactly one of "Cooperate" or "Defect".',
    });
    expect(parseReply("reasoning\nFinal answer: both", CD)).toEqual({
      ok: false,
      reason:
        'Your final answer line names none of the choices; answer with exactly one of "Cooperate" or "Defect".',
    });
  });

  it("reads a 100 kB reply in linear time", () => {
    // ~100 kB of reasoning that never names a label, then a final answer line.
    const reasoning = "Let me weigh the options carefully once more. ".repeat(2200);
    expect(reasoning.length).toBeGreaterThan(100_000);
    const started = performance.now();
    expect(outcome(`${reasoning}\nFinal answer: Defect`, CD)).toBe("defect");
    expect(outcome(reasoning, CD)).toBe("invalid");
    // Pathological input for backtracking regexes: long runs of markup and separators.
    expect(outcome(`${"*".repeat(50_000)}${" -".repeat(25_000)}`, CD)).toBe("invalid");
    expect(outcome(`Answer${" ".repeat(100_000)}x`, CD)).toBe("invalid");
    expect(performance.now() - started).toBeLessThan(500);
  });
});
