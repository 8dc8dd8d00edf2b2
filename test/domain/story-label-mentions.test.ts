import { describe, expect, it } from "vitest";
import { familiarLabels } from "../../src/domain/label-sets.js";
import { storyLabelMentions } from "../../src/domain/story-label-mentions.js";

// The labels a framing's story names. The textbook labels of a game with action ids a, b, c are "A", "B",
// "C": the article "a"/"A" in a shipped story is no mention of them, a label used as a label is.

const abc = familiarLabels(["a", "b", "c"]);
const named = (text: string) => storyLabelMentions(text, abc).map((m) => abc[m.action]);

describe("storyLabelMentions", () => {
  it("reads the article as no label: lower-case a, and a sentence-opening A before a noun phrase", () => {
    expect(abc).toEqual({ a: "A", b: "B", c: "C" });
    expect(named("Each of you presses a button on the panel in front of you.")).toEqual([]);
    expect(named("A large freshwater lake lies on the border. A firm runs it.")).toEqual([]);
    expect(named('She said: "A good deal." (A fair one.)')).toEqual([]);
  });

  it("reads a one-letter label used as a label: in the middle of a sentence, before a verb or a conjunction", () => {
    expect(named("Choose A.")).toEqual(["A"]);
    expect(named("You may pick option B or option C.")).toEqual(["B", "C"]);
    expect(named("A is the safer choice.")).toEqual(["A"]);
    expect(named("A or B: which do you pick?")).toEqual(["A", "B"]);
    expect(named("The last letter is A")).toEqual(["A"]);
  });

  it("still matches a word label in any case, as before", () => {
    const labels = { cooperate: "Hold", defect: "Undercut" };
    expect(storyLabelMentions("Most firms undercut.", labels).map((m) => m.action)).toEqual(["defect"]);
    expect(storyLabelMentions("HOLD the price.", labels).map((m) => m.action)).toEqual(["cooperate"]);
  });
});
