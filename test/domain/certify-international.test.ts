import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/domain/catalog.js";
import { readPayoffsByMeaning } from "../../src/domain/payoff-meaning.js";
import { renderPrompt } from "../../src/domain/render.js";
import { packageRoot } from "../../src/package-root.js";
import { connectClient, tempDeps } from "../support/harness.js";

// A user's own framings in other languages, in a catalog folder, certified by the real loader: Japanese
// written without spaces, amounts in full-width digits or in words of another language, and a framing's
// own negation words, read when a reply is submitted. Prisoner's Dilemma: u(C,C) = 5, u(C,D) = 2,
// u(D,C) = 10, u(D,D) = 3 for the player choosing first.

/** The tester's Japanese framing: parties glued to their particle, amounts glued to the text. */
const JAPANESE = {
  id: "tomodachi-ja",
  applies_to: {
    actions: ["cooperate", "defect"],
    label_set: "familiar",
    play: "one-shot",
    games: ["prisoners-dilemma"],
  },
  labels: { cooperate: "出し合う", defect: "手元に残す" },
  parties: { self: ["あなたが", "あなたは"], other: ["友人が", "友人は"] },
  units: { one: "{n}ポイント", other: "{n}ポイント" },
  story: [
    "あなたと古い友人は、湖のそばの小屋を週末のあいだ借りました。今夜、これからの過ごし方を決めなければなりません。",
    "それぞれが紙に、お小遣いを共同の財布に入れるか自分で持っておくかを書き、一緒に開きます。",
  ],
  payoffs: {
    intro: "それぞれの週末は次のようになります。",
    sentence:
      "あなたが「{own_label}」と書き、友人が「{other_label}」と書いた場合、あなたは{own_amount}、友人は{other_amount}を得ます。",
  },
  question: "あなたは紙に何と書きますか？",
};

const GERMAN = {
  id: "freunde-de",
  applies_to: {
    actions: ["cooperate", "defect"],
    label_set: "familiar",
    play: "one-shot",
    games: ["prisoners-dilemma"],
  },
  labels: { cooperate: "Einzahlen", defect: "Zurückhalten" },
  parties: { self: ["Sie"], other: ["Ihr Freund"] },
  units: { one: "{n} Punkt Vergnügen", other: "{n} Punkte Vergnügen" },
  story: [
    "Sie und ein alter Schulfreund haben für ein langes Wochenende eine Hütte am See gemietet.",
    "Jeder von Ihnen schreibt auf einen Zettel, ob er sein Taschengeld in die gemeinsame Kasse gibt oder für sich behält.",
  ],
  payoffs: {
    intro: "So würde das Wochenende für jeden von Ihnen verlaufen:",
    sentence:
      "Wenn Sie {own_label} schreiben und Ihr Freund {other_label} schreibt, bekommen Sie {own_amount} und Ihr Freund bekommt {other_amount}.",
  },
  question: "Was schreiben Sie auf Ihren Zettel?",
};

let dir: string;
const savedCache = process.env.SAME_GAME_CERT_CACHE;
beforeAll(() => {
  process.env.SAME_GAME_CERT_CACHE = "0";
});
afterAll(() => {
  if (savedCache === undefined) delete process.env.SAME_GAME_CERT_CACHE;
  else process.env.SAME_GAME_CERT_CACHE = savedCache;
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "same-game-intl-"));
  mkdirSync(join(dir, "framings"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The shipped catalog with this one framing file in a user folder. */
function load(framing: { id: string; negations?: string[] }) {
  rmSync(join(dir, "framings"), { recursive: true, force: true });
  mkdirSync(join(dir, "framings"));
  writeFileSync(join(dir, "framings", `${framing.id}.json`), JSON.stringify(framing));
  return loadCatalog(packageRoot(), dir);
}

describe("certifying framings in other languages and scripts", () => {
  it("reads Japanese written without spaces: parties glued to their particle, amounts glued to letters", () => {
    const catalog = load(JAPANESE);
    const game = catalog.game("prisoners-dilemma");
    const framing = catalog.framing("tomodachi-ja", game.id);
    const text = renderPrompt({
      game,
      variant: catalog.variant(game.id, "base"),
      framing,
      actionOrder: game.actions,
      style: "zero-shot",
    });
    expect(text).toContain("あなたは10ポイント、友人は2ポイントを得ます。");
    const { statements, unreadable } = readPayoffsByMeaning(text, framing.labels, framing.parties);
    expect(unreadable).toBeNull();
    expect(statements).toEqual([
      { source: "sentences", own: "cooperate", other: "cooperate", ownPayoff: 5, otherPayoff: 5 },
      { source: "sentences", own: "cooperate", other: "defect", ownPayoff: 2, otherPayoff: 10 },
      { source: "sentences", own: "defect", other: "cooperate", ownPayoff: 10, otherPayoff: 2 },
      { source: "sentences", own: "defect", other: "defect", ownPayoff: 3, otherPayoff: 3 },
    ]);
  });

  it("still refuses a Japanese sentence that gives the agent's amount to the friend", () => {
    const swapped = {
      ...JAPANESE,
      payoffs: {
        ...JAPANESE.payoffs,
        sentence:
          "あなたが「{own_label}」と書き、友人が「{other_label}」と書いた場合、友人は{own_amount}、あなたは{other_amount}を得ます。",
      },
    };
    expect(() => load(swapped)).toThrow(
      'framing "tomodachi-ja" for game "prisoners-dilemma" (variant base): in the payoff sentences, profile (agent cooperate, other defect) gives the agent 10 but the game pays the agent 2.',
    );
  });

  it("refuses amounts in digits of any script and number words of other languages in the story", () => {
    const withStory = (base: typeof JAPANESE | typeof GERMAN, sentence: string) => ({
      ...base,
      story: [base.story[0], sentence],
    });
    const refusal = (id: string, number: string) =>
      `framing "${id}" for game "prisoners-dilemma" (variant base): its story paragraph 2 states "${number}": story, intro, question, table headings and the wording of repeated play may contain no amounts or number words.`;
    expect(() => load(withStory(JAPANESE, "それぞれがお小遣い１０万円を持っています。"))).toThrow(
      refusal("tomodachi-ja", "１０"),
    );
    expect(() => load(withStory(JAPANESE, "それぞれがお小遣い十万円を持っています。"))).toThrow(
      refusal("tomodachi-ja", "十万"),
    );
    expect(() => load(withStory(GERMAN, "Jeder von Ihnen hat zehn Euro."))).toThrow(
      refusal("freunde-de", "zehn"),
    );
    expect(() => load(withStory(GERMAN, "Jeder von Ihnen hat ٣ Euro."))).toThrow(refusal("freunde-de", "٣"));
  });

  it("takes a framing's own negations into the framing and the catalog fingerprint, refusing one naming a label", () => {
    const plain = load(GERMAN);
    const declared = load({ ...GERMAN, negations: ["nimmer", "auf gar keinen Fall"] });
    expect(declared.framing("freunde-de").negations).toEqual(["nimmer", "auf gar keinen Fall"]);
    expect(plain.framing("freunde-de").negations).toBeUndefined();
    expect(declared.fingerprint).not.toBe(plain.fingerprint);
    expect(() => load({ ...GERMAN, negations: ["kein Einzahlen"] })).toThrow(
      'framing "freunde-de" for game "prisoners-dilemma" (variant base): its negation "kein Einzahlen" names the label "Einzahlen": a reply naming that label would read as its own negation.',
    );
    expect(() => load({ ...GERMAN, negations: ["nie 2"] })).toThrow(/negations\.0.*expected no digit/);
    expect(() => load({ ...GERMAN, negations: ["…"] })).toThrow(/negations\.0.*expected a word or phrase/);
  });
});

describe("submitting replies under a framing in another language", () => {
  it("refuses a negated label, in German and in the framing's own negation, and records the plain choice", async () => {
    const deps = { ...tempDeps(), catalog: load({ ...GERMAN, negations: ["nimmer"] }) };
    const client = await connectClient(deps, { player: "tester" });
    try {
      const started = await client.callTool({
        name: "start_match",
        arguments: { game: "prisoners-dilemma", framing: "freunde-de", opponent: "random", seed: 1 },
      });
      const match = (started.structuredContent as { match_id: string }).match_id;
      const submit = (choice: string) =>
        client.callTool({ name: "submit_move", arguments: { match_id: match, round: 1, choice } });
      for (const reply of ["Ich werde nicht Zurückhalten schreiben.", "Ich wähle nimmer Einzahlen."]) {
        const refused = await submit(reply);
        expect(refused.isError).toBe(true);
        expect((refused.content as { text: string }[])[0]?.text).toMatch(
          /^Your reply negates or rejects "(Zurückhalten|Einzahlen)", which does not name a choice; answer with exactly one of "Einzahlen" or "Zurückhalten"\./,
        );
      }
      const chosen = await submit("Ich schreibe Zuru\u0308ckhalten.");
      expect(chosen.isError).toBeFalsy();
      expect((chosen.structuredContent as { your_choice: string }).your_choice).toBe("Zurückhalten");
    } finally {
      await client.close();
      deps.dispose();
    }
  });
});
