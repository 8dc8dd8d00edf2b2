import { z } from "zod";

/**
 * An object schema that refuses any key it does not know, naming it, a close known key and every known
 * one. A study design is frozen and hashed as written: a misspelt optional key ("adaptiv",
 * "planned_contrast") silently dropped would register a study without the choice its author made. Its
 * JSON Schema says `additionalProperties: false`, so an MCP client validating arguments against the
 * advertised inputSchema refuses what the server refuses.
 */
export function objectOfKnownKeys<Shape extends z.ZodRawShape>(shape: Shape) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? unknownKeysMessage(issue.keys, known) : undefined,
  });
}

/**
 * The issue of a refused object to name, when there is one line to say it in: an unknown key first, since a
 * misspelt required key ("rul") also leaves that key missing, and "rule: Invalid option" hides the typo.
 */
export function issueToName(error: z.ZodError): z.core.$ZodIssue | undefined {
  return error.issues.find((issue) => issue.code === "unrecognized_keys") ?? error.issues[0];
}

/** `unknown key "adaptiv" (did you mean "adaptive"?); valid keys: name, games, …` */
export function unknownKeysMessage(keys: readonly string[], known: readonly string[]): string {
  const named = keys.map((key) => {
    const near = closestName(key, known);
    return near === undefined ? JSON.stringify(key) : `${JSON.stringify(key)} (did you mean "${near}"?)`;
  });
  return `unknown key${keys.length > 1 ? "s" : ""} ${named.join(", ")}; valid keys: ${known.join(", ")}`;
}

/**
 * The known name a typo most likely meant: the nearest by edits (a swap of neighbours counts as one),
 * if it is within a third of the typo's length (at least one edit); none otherwise.
 */
export function closestName(typo: string, known: readonly string[]): string | undefined {
  const reach = Math.max(1, Math.floor(typo.length / 3));
  let best: string | undefined;
  let bestDistance = reach + 1;
  for (const name of known) {
    const distance = editDistance(typo.toLowerCase(), name.toLowerCase());
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

/** Optimal-string-alignment distance: insertions, deletions, substitutions and adjacent swaps. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[];
    const above = rows[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = d;
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}
