import fc from "fast-check";

// Hostile tool calls, shared by the in-memory fuzz test and the per-transport fuzz run (bench/fuzz): strings
// that have broken servers before, prototype polluters, odd numbers and shapes, bound to each tool's own
// property names or swapped into otherwise valid arguments.

/** Text of a stack trace or an internal path: none may reach the client. */
export const STACK_TRACE =
  /\bat (Object\.|async |new )|\bat [\w$.<>]+ \(|node:internal|\/src\/[\w/-]+\.[tj]s:\d+|SqliteError/;

export const HOSTILE_STRINGS = [
  "",
  "   ",
  "'; DROP TABLE decisions; --",
  '" OR 1=1 --',
  "Robert'); DELETE FROM matches WHERE ('1'='1",
  "../../../../etc/passwd",
  "..\\..\\windows\\system32\\config",
  "/dev/zero",
  "file:///etc/shadow",
  "__proto__",
  "constructor",
  "prototype",
  "\u0000\u0001\u001f",
  "\u202eevil\u202c",
  "𝕮𝖔𝖔𝖕𝖊𝖗𝖆𝖙𝖊 🤝 协作 تعاون",
  "\ud800",
  "%s%n%x",
  "\u0024{process.exit(1)}",
  "{{constructor.constructor('return process')()}}",
  "x".repeat(200_000),
];

/** Objects whose own keys are __proto__ / constructor, as JSON.parse (and a network client) makes them. */
export const POLLUTERS = [
  JSON.parse('{"__proto__": {"polluted": "yes"}}'),
  JSON.parse('{"constructor": {"prototype": {"polluted": "yes"}}}'),
  JSON.parse('{"id": "random", "params": {"__proto__": {"polluted": "yes"}}}'),
];

export function hostileValue(matchId: string): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom<unknown>(
      ...HOSTILE_STRINGS,
      ...POLLUTERS,
      matchId,
      `${matchId}'--`,
      matchId.toUpperCase(),
    ),
    fc.string({ unit: "binary", maxLength: 64 }),
    fc.constantFrom<unknown>(0, -1, 1, 2, 2 ** 31, -(2 ** 53), Number.MAX_SAFE_INTEGER, 1e308, -0, 0.5),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.string({ maxLength: 8 }), { maxLength: 6 }),
    fc.constant(Array.from({ length: 20_000 }, (_, i) => i)),
    fc.jsonValue({ maxDepth: 3 }),
  );
}

/**
 * Arguments for one tool: its own property names (and stray/prototype keys) bound to hostile values, or —
 * so that the calls get past schema validation into the play service — valid arguments with one or two
 * fields swapped for hostile strings.
 */
export function hostileArgs(
  properties: string[],
  valid: Record<string, unknown>,
  matchId: string,
): fc.Arbitrary<Record<string, unknown>> {
  const keys = fc.constantFrom(...properties, "__proto__", "constructor", "unexpected_key");
  const hostileString = fc.oneof(
    fc.constantFrom(...HOSTILE_STRINGS, matchId, `${matchId}'--`),
    fc.string({ unit: "binary", maxLength: 64 }),
  );
  const mutated = fc
    .array(fc.tuple(keys, fc.oneof(hostileString, hostileValue(matchId))), { minLength: 1, maxLength: 2 })
    // Built through JSON.parse, as a network client's arguments are: "__proto__" becomes an own key.
    .map((swaps) => {
      const entries = [...Object.entries(valid), ...swaps].map(
        ([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`,
      );
      return JSON.parse(`{${entries.join(",")}}`) as Record<string, unknown>;
    });
  return fc.oneof(
    { arbitrary: mutated, weight: 3 },
    fc.dictionary(keys, hostileValue(matchId), { maxKeys: properties.length + 2 }),
    fc.record(Object.fromEntries(properties.map((p) => [p, hostileValue(matchId)])), { requiredKeys: [] }),
    fc.constantFrom(...POLLUTERS),
  );
}

/** Arguments each known tool accepts, as the base the mutations start from; other tools start empty. */
export function validArguments(matchId: string, studyId: string): Record<string, Record<string, unknown>> {
  return {
    start_match: {
      game: "prisoners-dilemma",
      framing: "business+familiar",
      opponent: "always-defect",
      seed: 1,
    },
    submit_move: { match_id: matchId, round: 1, choice: "Cooperate" },
    get_match: { match_id: matchId },
    register_study: {
      name: "fuzz",
      games: ["prisoners-dilemma"],
      framings: ["business"],
      labels: ["familiar"],
      trials_per_cell: 1,
    },
    next_trial: { study_id: studyId },
  };
}
