import type { Catalog } from "../domain/catalog.js";

type Json = Record<string, unknown>;

/**
 * Where a tool's listed input schema holds an opponent's `params`: `start_match`'s `opponent_params` and
 * each of `register_study`'s `opponents`. The server checks them against the chosen opponent and game (a
 * record of anything until then), so zod lists an open object: `{"type": "object", "additionalProperties":
 * {}}`, no properties. Model providers take no such argument: OpenAI's strict function calling needs every
 * object closed with its properties named (the Agents SDK falls back to non-strict for the whole tool),
 * Gemini refuses an OBJECT without properties ("properties: should be non-empty for OBJECT type", which
 * failed every request that listed the two tools through the Vercel AI SDK or LangChain), and Anthropic's
 * strict tool schemas close it to `{}`, so no parameter could ever be passed.
 */
const OPPONENT_PARAMS_PATHS: Readonly<Record<string, readonly string[]>> = {
  start_match: ["properties", "opponent_params"],
  register_study: ["properties", "opponents", "items", "properties", "params"],
};

/**
 * Every parameter an opponent takes, closed, with the catalog's action ids named: `random`'s
 * `probabilities` (src/domain/opponents/random.ts) and `pattern`'s `cycle` (pattern.ts); no other opponent
 * takes one. The listing accepts every value the server accepts — an action of another game or a
 * parameter of another opponent is still refused by the server, naming the valid ones.
 */
export function opponentParamsSchema(catalog: Catalog): Json {
  const actions = [...new Set(catalog.games.flatMap((game) => game.actions))];
  return {
    type: "object",
    properties: {
      probabilities: {
        description:
          "Opponent random: the probability of each of the game's actions, none negative, summing to 1; uniform when absent",
        type: "object",
        properties: Object.fromEntries(actions.map((action) => [action, { type: "number", minimum: 0 }])),
        additionalProperties: false,
      },
      cycle: {
        description: "Opponent pattern: the game's actions it plays in turn, repeated",
        type: "array",
        items: { type: "string", enum: actions },
        minItems: 1,
      },
    },
    additionalProperties: false,
  };
}

/** The tool's listed input schema with its opponent params closed (its description and default kept). */
export function withClosedOpponentParams(toolName: string, schema: unknown, closed: Json): unknown {
  const path = OPPONENT_PARAMS_PATHS[toolName];
  if (path === undefined) return schema;
  return replacedAt(schema, path, (open) => {
    const { description, default: fallback } = open;
    return {
      ...(description === undefined ? {} : { description }),
      ...(fallback === undefined ? {} : { default: fallback }),
      ...closed,
    };
  });
}

function replacedAt(node: unknown, path: readonly string[], replace: (open: Json) => Json): unknown {
  if (node === null || typeof node !== "object" || Array.isArray(node)) return node;
  const here = node as Json;
  const [key, ...rest] = path;
  if (key === undefined) return isOpenRecord(here) ? replace(here) : here;
  if (!(key in here)) return here;
  return { ...here, [key]: replacedAt(here[key], rest, replace) };
}

/** zod's form of a record of anything: an object with no properties that takes any key. */
function isOpenRecord(node: Json): boolean {
  return node.type === "object" && node.properties === undefined && node.additionalProperties !== false;
}
