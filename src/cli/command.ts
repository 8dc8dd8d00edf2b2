import { type ParseArgsConfig, parseArgs } from "node:util";
import { parse } from "csv-parse/sync";
import { printable } from "../queries/format.js";
import { UsageError } from "../usage-error.js";

/** One CLI verb: its help text, its flags, and what it does with them. */
export interface Command {
  readonly name: string;
  readonly usage: string;
  readonly options: NonNullable<ParseArgsConfig["options"]>;
  /** String flags whose value may be left out (`--cache` alone, or `--cache DIR`): they then read "". */
  readonly optionalValues?: readonly string[];
  run(args: ParsedArgs): Promise<void>;
}

export interface ParsedArgs {
  readonly values: Record<string, string | boolean | string[] | undefined>;
  readonly positionals: string[];
}

/** Parses a verb's argv strictly: an unknown flag is a UsageError naming it and the verb's flags. */
export function parseCommandArgs(command: Command, argv: string[]): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({
      args: withNegativeNumbers(withOptionalValues(argv, command.optionalValues ?? []), command.options),
      options: command.options,
      allowPositionals: true,
      strict: true,
    });
    return { values: values as ParsedArgs["values"], positionals };
  } catch (error) {
    const flags = Object.keys(command.options)
      .map((f) => `--${f}`)
      .join(", ");
    // The parser's first sentence of its first line: the rest tells of its own syntax, not of this CLI.
    const first = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
    const reason = first.split(". ")[0] ?? first;
    throw new UsageError(`${command.name}: ${reason} (its flags: ${flags || "none"}).`);
  }
}

/** `--flag` with no value after it (the end, or another flag next) becomes `--flag=`. */
function withOptionalValues(argv: readonly string[], flags: readonly string[]): string[] {
  return argv.map((arg, i) => {
    if (!flags.some((flag) => arg === `--${flag}`)) return arg;
    const next = argv[i + 1];
    return next === undefined || next.startsWith("--") ? `${arg}=` : arg;
  });
}

/**
 * `--flag -1`: a value flag followed by a negative number takes it as its value (`--flag=-1`), so the
 * flag's own range check answers, instead of the parser taking the number for a flag of its own.
 */
function withNegativeNumbers(
  argv: readonly string[],
  options: NonNullable<ParseArgsConfig["options"]>,
): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const next = argv[i + 1];
    const flag = arg.startsWith("--") ? options[arg.slice(2)] : undefined;
    if (flag?.type === "string" && next !== undefined && /^-(\d|\.\d)/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === "string" ? value : undefined;
}

/**
 * A comma-separated list flag (`--games a,b`), read as one CSV record so that a name holding a comma can be
 * given in double quotes (`--framings '"home, work",office'`, quotes doubled inside); entries trimmed,
 * empty ones dropped. A quote inside an unquoted name is kept as typed, and so is a line break (one
 * record: a name may hold one).
 */
export function listFlag(args: ParsedArgs, name: string): string[] | undefined {
  const value = stringFlag(args, name);
  if (value === undefined) return undefined;
  let records: string[][];
  try {
    records = parse(value, { relax_quotes: true, trim: true, record_delimiter: "\u0000" }) as string[][];
  } catch (error) {
    const reason = error instanceof Error ? (error.message.split(":")[0] ?? error.message) : String(error);
    throw new UsageError(
      `--${name} '${printable(value)}' is not a comma-separated list (${reason}); put a name holding a comma in double quotes, as in --${name} '"home, work",office'.`,
    );
  }
  return (records[0] ?? []).filter((s) => s.length > 0);
}

/** A number written in decimal: digits, an optional fraction and an optional exponent ("0.5", "-1", "2e6"). */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A numeric flag checked against its range; the message names the flag, the bad value and the range.
 * Only decimal is read: JavaScript's Number() takes "" and " " for 0 and "0x10" for 16, so an empty
 * `--max-cost ''` would be a $0 budget and a hex value a budget nobody typed.
 */
export function numberFlag(
  args: ParsedArgs,
  name: string,
  /** `aboveMin`: the lower end itself is refused (a range (min, max], e.g. a threshold or an attenuation). */
  range: { min: number; max: number; integer?: boolean; aboveMin?: boolean },
): number | undefined {
  const raw = stringFlag(args, name);
  if (raw === undefined) return undefined;
  const decimal = DECIMAL.test(raw);
  const value = decimal ? Number(raw) : Number.NaN;
  const ok =
    Number.isFinite(value) &&
    (range.aboveMin ? value > range.min : value >= range.min) &&
    value <= range.max &&
    (!range.integer || Number.isInteger(value));
  if (!ok) {
    const kind = range.integer ? "a whole number" : "a number";
    const form = decimal ? "" : raw.trim() === "" ? " (it is empty)" : ", written in decimal digits";
    const bounds = range.aboveMin
      ? `above ${range.min} and at most ${range.max}`
      : `from ${range.min} to ${range.max}`;
    throw new UsageError(`--${name} must be ${kind} ${bounds}, got "${raw}"${form}.`);
  }
  return value;
}
