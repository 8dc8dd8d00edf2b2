import { readFileSync } from "node:fs";
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

const XY: LabelMap = { cooperate: "X", defect: "Y" };
const STORY: LabelMap = { cooperate: "Hold the price", defect: "Undercut" };
const SIX: LabelMap = { a: "J", b: "F", c: "K", d: "Q", e: "W", f: "Z" };

// Probes that were each misread before.
const PROBES: [LabelMap, string, string][] = [
  // An echo of the options is no choice, whatever the action order.
  [CD, "The options are:\n- Cooperate\n- Defect", "invalid"],
  [CD, "The options are:\n- Defect\n- Cooperate", "invalid"],
  [CD, "Options:\nCooperate\nDefect", "invalid"],
  // The label the agent rejects is not its choice.
  [XY, "Y is strictly dominated, so I take the other one.", "invalid"],
  [XY, "X is dominated by the other option.", "invalid"],
  // A letter inside a formula or word is not a label.
  [XY, "Let x be the probability that the other player picks the first option.", "invalid"],
  [XY, "Let p = P(X) and solve for the indifference point.", "invalid"],
  [XY, "An X-ray of the payoffs tells me nothing.", "invalid"],
  // "Decision-" is not a final-answer line.
  [CD, "Decision-making here is about trust.\nI will Cooperate", "cooperate"],
  // A negation in an earlier sentence does not reach the label.
  [CD, "Not sure. Cooperate", "cooperate"],
  [CD, "Not sure what they will do. I cooperate.", "cooperate"],
];

// Final-answer forms: the last marker decides alone, whatever the reasoning names.
const MARKERS: [LabelMap, string, string][] = [
  [CD, "Cooperate pays 5, Defect pays 10 at best.\nAnswer: Defect", "defect"],
  [CD, "Cooperate or Defect?\nFinal: Cooperate", "cooperate"],
  [CD, "Cooperate or Defect?\n[move] Defect", "defect"],
  [CD, "Cooperate or Defect?\n[move] (defecting is safer than cooperating) Defect", "defect"],
  [CD, "Cooperate or Defect?\n<action>Cooperate</action>", "cooperate"],
  [CD, 'I weighed Cooperate against Defect.\n```json\n{"choice": "Defect"}\n```', "defect"],
  [CD, '{"reasoning": "Cooperate is risky, Defect is safe", "choice": "Defect"}', "defect"],
  [CD, "<answer>cooperate</answer>", "cooperate"],
  [CD, "Answer: Cooperate. Wait, Defect is better.\nFinal answer: Defect", "defect"],
  [CD, "Final answer: maybe", "invalid"],
  [CD, "Final answer: Cooperate or Defect", "invalid"],
  [CD, "<action>both</action>", "invalid"],
  [CD, '{"choice": "abstain"}', "invalid"],
  [CD, "Final decision: Defect. It guarantees at least 3.", "defect"],
  [CD, "The answer is Cooperate", "cooperate"],
  [CD, "Choice is hard: cooperate or defect?\nDefect", "defect"],
  [STORY, "Holding the price risks a lot; undercut is safe.\nAnswer: Undercut", "defect"],
  [STORY, "I will hold the price.", "cooperate"],
  [STORY, "Hold the price", "cooperate"],
  [STORY, "Hold", "invalid"],
  [STORY, "I would never undercut.", "invalid"],
  [STORY, "I hold the price rather than undercut.", "invalid"],
  [SIX, "Q", "d"],
  [SIX, "I pick Q.", "d"],
  [SIX, "q is a nice letter; I pick Z", "f"],
  [SIX, "J, F, K, Q, W or Z?\nAnswer: W", "e"],
];

// TextArena's format: the action in square brackets, e.g. "[Cooperate]", possibly after free text.
const TEXTARENA: [LabelMap, string, string][] = [
  [CD, "[Cooperate]", "cooperate"],
  [CD, "I'll start friendly. [Cooperate]", "cooperate"],
  [CD, "They defected last round, so I retaliate. [Defect]", "defect"],
  [CD, "Valid moves: [Cooperate], [Defect]", "invalid"],
  [CD, "I could play [Cooperate] or [Defect]; I go with [Defect]", "invalid"],
  [CD, "Thinking about [Cooperate] first...\nFinal: [Defect]", "defect"],
  [RPS, "[Paper]", "paper"],
  [RPS, "They love rock. [paper]", "paper"],
  [RPS, "[rock] [paper] [scissors]", "invalid"],
  [RPS, "Last time they played Rock, so this time: [Paper]", "paper"],
];

// Replies in other languages and scripts: a negation of any language is refused, never read as the label.
const DE: LabelMap = { cooperate: "Einzahlen", defect: "Zurückhalten" };
const JA: LabelMap = { cooperate: "出し合う", defect: "手元に残す" };
const HE: LabelMap = { cooperate: "לתרום", defect: "לשמור" };
const FR: LabelMap = { cooperate: "Coopérer", defect: "Trahir" };
const ES: LabelMap = { cooperate: "Cooperar", defect: "Traicionar" };
const ZH: LabelMap = { cooperate: "合作", defect: "背叛" };
const AR: LabelMap = { cooperate: "التعاون", defect: "الخيانة" };
const NEGATED_LABEL: LabelMap = { cooperate: "出さない", defect: "出す" };
const ENGLISH_NOT: LabelMap = { hold: "Do not act", act: "Act alone" };
const INTERNATIONAL: [LabelMap, string, string][] = [
  [DE, "Ich werde nicht Zurückhalten schreiben.", "invalid"],
  [DE, "Ich wähle kein Einzahlen.", "invalid"],
  [DE, "Ich schreibe Einzahlen.", "cooperate"],
  [JA, "「手元に残す」とは書きません。", "invalid"],
  [JA, "出し合うを選びます。", "cooperate"],
  [JA, "手元に残す", "defect"],
  [JA, "出し合うか手元に残すか迷いましたが、手元に残すにします。", "invalid"],
  [JA, "出し合わないことにします。", "invalid"],
  [HE, "אני בוחר לא לשמור.", "invalid"],
  [HE, "אני בוחר לתרום.", "cooperate"],
  [FR, "Je n'écris pas Trahir.", "invalid"],
  [FR, "Je choisis Trahir.", "defect"],
  [ES, "No elijo Cooperar.", "invalid"],
  [ES, "Elijo Traicionar.", "defect"],
  [ZH, "我不选择合作。", "invalid"],
  [ZH, "我选择合作。", "cooperate"],
  [AR, "لن أختار التعاون", "invalid"],
  [AR, "أختار الخيانة", "defect"],
  // A negation inside the label is the label's own word, not a rejection of it.
  [NEGATED_LABEL, "出さないを選びます。", "cooperate"],
  [ENGLISH_NOT, "I choose Do not act.", "hold"],
  // The English variable n is no French "n'".
  [CD, "With n rounds left, I defect.", "defect"],
];

// Real replies from the counterfactual study's published traces (see the fixture's "about").
const REAL = JSON.parse(readFileSync(new URL("./fixtures/real-replies.json", import.meta.url), "utf8"))
  .replies as { source: string; labels: LabelMap; reply: string; expected: string; study_reading: string }[];

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

  it.each(PROBES)("refuses to guess: with labels %j reads %j as %s", (labels, reply, expected) => {
    expect(outcome(reply, labels)).toBe(expected);
  });

  it.each(MARKERS)("final-answer forms: with labels %j reads %j as %s", (labels, reply, expected) => {
    expect(outcome(reply, labels)).toBe(expected);
  });

  it.each(TEXTARENA)("TextArena format: with labels %j reads %j as %s", (labels, reply, expected) => {
    expect(outcome(reply, labels)).toBe(expected);
  });

  it.each(INTERNATIONAL)("other languages: with labels %j reads %j as %s", (labels, reply, expected) => {
    expect(outcome(reply, labels)).toBe(expected);
  });

  it("reads reply and labels in composed form: a decomposed umlaut is the same letter", () => {
    const decomposed = "Zuru\u0308ckhalten";
    expect(decomposed).not.toBe("Zurückhalten");
    expect(parseReply(decomposed, DE)).toEqual({ ok: true, action: "defect", label: "Zurückhalten" });
    expect(outcome(`Ich wähle ${decomposed}.`, DE)).toBe("defect");
    expect(outcome(`Ich wähle nicht ${decomposed}.`, DE)).toBe("invalid");
    const decomposedLabels: LabelMap = { cooperate: "Einzahlen", defect: decomposed };
    expect(parseReply("Ich wähle Zurückhalten.", decomposedLabels)).toEqual({
      ok: true,
      action: "defect",
      label: decomposed,
    });
  });

  it("reads a framing's own negations beside the built-in ones, naming the valid labels when it refuses", () => {
    // "nimmer" (German, "never") is in no built-in list: only the framing that declares it refuses it.
    expect(outcome("Ich wähle nimmer Einzahlen.", DE)).toBe("cooperate");
    expect(parseReply("Ich wähle nimmer Einzahlen.", DE, ["nimmer"])).toEqual({
      ok: false,
      reason:
        'Your reply negates or rejects "Einzahlen", which does not name a choice; answer with exactly one of "Einzahlen" or "Zurückhalten".',
    });
    expect(outcome("Ich wähle Einzahlen.", DE)).toBe("cooperate");
    // A phrase of several words counts only whole ("på inga villkor", Swedish "on no condition").
    const sv: LabelMap = { cooperate: "Samarbeta", defect: "Svika" };
    expect(outcome("Svika på inga villkor.", sv)).toBe("defect");
    expect(parseReply("Svika på inga villkor.", sv, ["på inga villkor"]).ok).toBe(false);
    expect(parseReply("Jag väljer Svika på alla villkor.", sv, ["på inga villkor"]).ok).toBe(true);
    // A phrase in a script without spaces is found inside a run of letters ("お断り", "declined").
    expect(outcome("出し合うはお断りです。", JA)).toBe("cooperate");
    expect(parseReply("出し合うはお断りです。", JA, ["断り"]).ok).toBe(false);
  });

  it.each(REAL.map((row) => [row.source, row]))("real reply %s", (_source, row) => {
    expect(outcome(row.reply, row.labels)).toBe(row.expected);
  });

  it("covers the probes and at least 100 real replies, some where the study's parser read otherwise", () => {
    expect(REAL.length).toBeGreaterThanOrEqual(100);
    expect(REAL.filter((row) => row.expected !== row.study_reading).length).toBeGreaterThan(20);
    expect(new Set(REAL.map((row) => row.source.split("/").slice(3, 5).join("/"))).size).toBeGreaterThan(5);
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
        'Your reply negates or rejects "Defect", which does not name a choice; answer with exactly one of "Cooperate" or "Defect".',
    });
    expect(parseReply("reasoning\nFinal answer: both", CD)).toEqual({
      ok: false,
      reason:
        'Your final answer names none of the choices; answer with exactly one of "Cooperate" or "Defect".',
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
