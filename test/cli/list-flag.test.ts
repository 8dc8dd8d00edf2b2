import { describe, expect, it } from "vitest";
import { type Command, listFlag, parseCommandArgs } from "../../src/cli/command.js";
import { UsageError } from "../../src/usage-error.js";

// A list flag is one CSV record: a name holding a comma is given in double quotes.

const command: Command = {
  name: "probe",
  usage: "probe [--framings a,b]",
  options: { framings: { type: "string" } },
  run: async () => {},
};

const framings = (value: string) => listFlag(parseCommandArgs(command, ["--framings", value]), "framings");

describe("list flags", () => {
  it("split on commas, trimmed, empty entries dropped", () => {
    expect(framings(" business , friend-sharing,,")).toEqual(["business", "friend-sharing"]);
  });

  it("read a quoted name holding a comma or a doubled quote as one name", () => {
    expect(framings('"home, work",office')).toEqual(["home, work", "office"]);
    expect(framings('"say ""hi""",plain')).toEqual(['say "hi"', "plain"]);
  });

  it("keep a quote inside an unquoted name and a line break inside a name as typed", () => {
    expect(framings('ta"le,plain')).toEqual(['ta"le', "plain"]);
    expect(framings("fr\nA,frB")).toEqual(["fr\nA", "frB"]);
  });

  it("refuse an unclosed quote with one sentence naming the flag and how to quote", () => {
    expect(() => framings('"home, work,office')).toThrow(UsageError);
    expect(() => framings('"home, work,office')).toThrow(
      `--framings '"home, work,office' is not a comma-separated list (Quote Not Closed); put a name holding a comma in double quotes, as in --framings '"home, work",office'.`,
    );
  });
});
