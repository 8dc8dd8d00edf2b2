import { describe, expect, it } from "vitest";
import { type Command, numberFlag, parseCommandArgs } from "../../src/cli/command.js";

// A numeric flag is read in decimal only. JavaScript's Number() reads "" and " " as 0 and "0x10" as 16:
// `--max-cost ''` was a $0 budget and `--max-calls 0x10` sixteen calls.

const command: Command = {
  name: "probe",
  usage: "probe [--max-cost USD] [--max-calls N]",
  options: { "max-cost": { type: "string" }, "max-calls": { type: "string" } },
  run: async () => {},
};

const cost = (value: string) =>
  numberFlag(parseCommandArgs(command, ["--max-cost", value]), "max-cost", { min: 0, max: 1e9 });
const calls = (value: string) =>
  numberFlag(parseCommandArgs(command, ["--max-calls", value]), "max-calls", {
    min: 1,
    max: 1e12,
    integer: true,
  });

describe("numeric flags", () => {
  it("read decimal numbers, with a fraction or an exponent", () => {
    expect(cost("0")).toBe(0);
    expect(cost("0.25")).toBe(0.25);
    expect(cost(".5")).toBe(0.5);
    expect(cost("2e3")).toBe(2000);
    expect(calls("16")).toBe(16);
  });

  it("refuse an empty or blank value, naming the flag", () => {
    expect(() => cost("")).toThrow('--max-cost must be a number from 0 to 1000000000, got "" (it is empty).');
    expect(() => cost(" ")).toThrow(
      '--max-cost must be a number from 0 to 1000000000, got " " (it is empty).',
    );
    expect(() => calls("")).toThrow("--max-calls must be a whole number from 1 to 1000000000000");
  });

  it("refuse hexadecimal, binary, octal and padded values, asking for decimal digits", () => {
    for (const value of ["0x10", "0b1", "0o7", " 5", "1_000", "Infinity"]) {
      expect(() => cost(value)).toThrow(
        `--max-cost must be a number from 0 to 1000000000, got "${value}", written in decimal digits.`,
      );
    }
    expect(() => calls("0x10")).toThrow(
      '--max-calls must be a whole number from 1 to 1000000000000, got "0x10", written in decimal digits.',
    );
  });
});
