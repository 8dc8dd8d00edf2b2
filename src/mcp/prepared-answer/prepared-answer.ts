import { keepSerialised } from "./wire-bytes.js";

/** A tool's answer without its `_meta`: what is the same every time one analysis result is answered. */
export interface ToolAnswer {
  content: { type: "text"; text: string }[];
  structuredContent: Record<string, unknown>;
}

const answers = new WeakMap<object, ToolAnswer>();

/** Counts for tests and benches: how often an answer was built from a result (once per result). */
export const preparedAnswerCounts = { built: 0 };

/**
 * The tool's answer to one analysis result, built once per result object. A cache hit hands back the very
 * object the cache keeps, so its answer (the summary, the JSON text twin, the structured content) is not
 * rebuilt, the server's output validation of it is not repeated (advertised-schema.ts) and its JSON is not
 * re-serialised (wire-bytes.ts). The answer, and with it the cached result it is made of, is deep-frozen:
 * what was validated and serialised once cannot change underneath.
 */
export function preparedAnswer<A extends ToolAnswer>(result: object, build: () => A): A {
  const kept = answers.get(result);
  if (kept) return kept as A;
  const answer = build();
  preparedAnswerCounts.built++;
  deepFreeze(answer);
  keepSerialised(answer);
  answers.set(result, answer);
  return answer;
}

function deepFreeze(value: unknown, seen = new Set<object>()): void {
  // A typed array cannot be frozen; analysis results are plain JSON values and hold none.
  if (typeof value !== "object" || value === null || seen.has(value) || ArrayBuffer.isView(value)) return;
  seen.add(value);
  Object.freeze(value);
  for (const member of Object.values(value)) deepFreeze(member, seen);
}
