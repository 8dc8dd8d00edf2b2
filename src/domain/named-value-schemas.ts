import { z } from "zod";
import { closestName } from "./known-keys.js";

// Schemas whose refusal names the value refused, not only what was expected: "styles.0: Invalid option:
// expected one of …" left the author hunting for the bad entry. The path is prefixed by whoever reports the
// issue (`study register`, the MCP SDK), so these messages start at the value. A missing value keeps zod's
// own message ("expected number, received undefined"): there is no value to name.

type Issue = { readonly input?: unknown };

/**
 * A received value as a refusal quotes it: its JSON, cut to `max` characters (with "…") when long. Text
 * bound for a terminal or a log also passes through `printable`.
 */
export function shownValue(value: unknown, max = 60): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 3)}…` : text;
}

/** An error option naming the refused value: `${value} ${problem}`. */
function naming(problem: (input: unknown) => string) {
  return (issue: Issue): string | undefined =>
    issue.input === undefined ? undefined : `${shownValue(issue.input)} ${problem(issue.input)}`;
}

/** One of `values`: `"bse" is not a variant (did you mean "base"?); valid: base, label, payoff, joint`. */
export function namedChoice<const Values extends readonly [string, ...string[]]>(
  values: Values,
  noun: string,
) {
  return z.enum(values, {
    error: naming((input) => {
      const near = typeof input === "string" ? closestName(input, values) : undefined;
      return `is not a ${noun}${near === undefined ? "" : ` (did you mean "${near}"?)`}; valid: ${values.join(", ")}`;
    }),
  });
}

/** A whole number in [min, max]: `2.5 is not a whole number from 1 to 100000`. */
export function namedWholeNumber(min: number, max: number) {
  const error = naming(() => `is not a whole number from ${min} to ${max}`);
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
}

/** true or false: `"yes" is not true or false`. */
export function namedBoolean() {
  return z.boolean({ error: naming(() => "is not true or false") });
}

/** A seed: a whole number or a short string: `1.5 is not a seed; give a whole number or …`. */
export function namedSeed() {
  const error = naming(() => "is not a seed; give a whole number or a string of 1 to 100 characters");
  return z.union([z.number().int(), z.string().trim().min(1, { error }).max(100, { error })], { error });
}
