import { transformJSONSchema } from "@anthropic-ai/sdk/lib/transform-json-schema";
import type { Client } from "@modelcontextprotocol/client";
import { Ajv as Ajv07 } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { listOpponents } from "../../src/domain/opponents/index.js";
import { TOOLSET_NAMES } from "../../src/mcp/toolsets.js";
import { connectHttp } from "../http/support/http-client.js";
import { startInProcess } from "../http/support/in-process-server.js";
import { call, connectClient, tempDeps } from "../support/harness.js";

// The tools as an agent builder's adapter hands them to a model provider's function calling: the OpenAI
// Agents SDK (strict), the Vercel AI SDK and LangChain with Gemini, the Anthropic Messages API. Each takes
// the listed name, description and inputSchema and passes them on; the provider refuses what it does not
// take, and one refused tool fails the whole request. Both surfaces are listed through the SDK Client:
// the player's (`play`) and the operator's (every toolset). Where each constraint is documented:
//
// - Names. OpenAI: `function.name` a-z, A-Z, 0-9, underscores and dashes, at most 64 (the API's
//   `string_above_max_length` on `tools[n].function.name`); Anthropic: `^[a-zA-Z0-9_-]{1,64}$` (Messages
//   API, tools[].name); Gemini: starts with a letter or an underscore, then letters, digits, `_ . : -`
//   (@google/genai's `FunctionDeclaration.name`). The pattern below meets all three.
// - Descriptions. OpenAI refuses a function description over 1024 characters ("Invalid
//   'tools[n].function.description': string too long. Expected a string with maximum length 1024").
// - Root. OpenAI's structured outputs and Anthropic's `input_schema` take an object schema at the root,
//   never a union (openai-node src/lib/transform.ts: "Root schema must have type: 'object'", "must not use
//   anyOf").
// - OpenAI strict mode. Every object is closed (`additionalProperties: false`) and names its properties:
//   the Agents SDK's MCP conversion (@openai/agents-core utils/strictToolSchema) refuses an open object
//   and lists the whole tool non-strict; and no keyword openai-node lists as unsupported in strict
//   schemas (src/lib/transform.ts, JSON_SCHEMA_UNSUPPORTED_SCHEMA_KEYWORDS).
// - Gemini's `parameters` (an OpenAPI Schema subset, what LangChain's ChatGoogleGenerativeAI and the
//   Vercel AI SDK's Google provider send): only the fields of @google/genai's `Schema` interface, else
//   "Invalid JSON payload received. Unknown name …"; `additionalProperties` is stripped by every such
//   adapter; an OBJECT names at least one property ("properties: should be non-empty for OBJECT type");
//   enum values are strings.
// - Anthropic's strict tool schemas (@anthropic-ai/sdk lib/transform-json-schema.ts, the SDK's own
//   converter) close every object to the properties it names.

const NAME = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;
const OPENAI_DESCRIPTION_MAX = 1024;

const OPENAI_STRICT_UNSUPPORTED = new Set([
  "$anchor",
  "$dynamicAnchor",
  "$dynamicRef",
  "$recursiveAnchor",
  "$recursiveRef",
  "allOf",
  "contains",
  "contentEncoding",
  "contentMediaType",
  "contentSchema",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "else",
  "if",
  "maxContains",
  "maxProperties",
  "minContains",
  "minProperties",
  "not",
  "patternProperties",
  "prefixItems",
  "propertyNames",
  "then",
  "unevaluatedItems",
  "unevaluatedProperties",
  "uniqueItems",
]);

const GEMINI_SCHEMA_FIELDS = new Set([
  "anyOf",
  "default",
  "description",
  "enum",
  "example",
  "format",
  "items",
  "maxItems",
  "maxLength",
  "maxProperties",
  "maximum",
  "minItems",
  "minLength",
  "minProperties",
  "minimum",
  "nullable",
  "pattern",
  "properties",
  "propertyOrdering",
  "required",
  "title",
  "type",
  "additionalProperties",
]);

/**
 * The one provider constraint the listing keeps on purpose: an open bound (a confidence in (0, 1)) is
 * `exclusiveMinimum`/`exclusiveMaximum`, which Gemini's `parameters` Schema has no field for. Written as
 * an inclusive bound the listing would accept a value the server refuses, so docs/tools.md says what a
 * LangChain-with-Gemini user does instead. Any other such argument fails this test.
 */
const OPEN_BOUNDS = new Set([
  "register_study.adaptive.width_target",
  "register_study.adaptive.alpha",
  "robustness.attenuation",
  "robustness.confidence",
  "compare.confidence",
  "payoff_sensitivity.confidence",
  "power.alpha",
  "power.power",
  "power.true_r",
  "repeated_metrics.threshold",
]);

type Schema = Record<string, unknown>;
type Listed = Awaited<ReturnType<Client["listTools"]>>["tools"];

/** Every schema node of an input schema with its argument path (`adaptive.alpha`, `games[]`). */
function nodes(schema: Schema, path = ""): [string, Schema][] {
  const found: [string, Schema][] = [[path, schema]];
  for (const [name, child] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    found.push(...nodes(child, path === "" ? name : `${path}.${name}`));
  }
  if (schema.items !== undefined) found.push(...nodes(schema.items as Schema, `${path}[]`));
  for (const branch of (schema.anyOf ?? []) as Schema[]) found.push(...nodes(branch, path));
  return found;
}

const deps = tempDeps();
const surfaces: { name: string; tools: Listed; client: Client }[] = [];

beforeAll(async () => {
  for (const [name, toolsets] of [
    ["player (play)", ["play"]],
    ["operator (all)", TOOLSET_NAMES],
  ] as const) {
    const client = await connectClient(deps, { player: "adapter-agent", toolsets });
    surfaces.push({ name, client, tools: (await client.listTools()).tools });
  }
});
afterAll(async () => {
  for (const { client } of surfaces) await client.close();
  deps.dispose();
});

/** The schema node at a path of keys (`properties`, `opponent_params`, …); throws when there is none. */
function at(schema: unknown, ...path: string[]): Schema {
  let here = schema;
  for (const key of path) {
    if (here === null || typeof here !== "object" || !(key in here)) throw new Error(`no ${path.join(".")}`);
    here = (here as Schema)[key];
  }
  return here as Schema;
}

function operatorTool(name: string): Listed[number] {
  const tool = surfaces[1]?.tools.find((t) => t.name === name);
  if (tool === undefined) throw new Error(`${name} is not listed`);
  return tool;
}

describe("every listed tool is one a model provider's function calling takes as it is", () => {
  it("names and describes every tool within OpenAI's, Anthropic's and Gemini's limits", () => {
    expect(surfaces.map((s) => s.tools.length)).toEqual([6, 16]);
    for (const { name, tools } of surfaces) {
      for (const tool of tools) {
        expect(tool.name, `${name}: ${tool.name}`).toMatch(NAME);
        expect(tool.description?.length ?? 0, `${name}: ${tool.name}'s description`).toBeGreaterThan(40);
        expect(tool.description?.length, `${name}: ${tool.name}'s description`).toBeLessThanOrEqual(
          OPENAI_DESCRIPTION_MAX,
        );
        expect(tool.inputSchema.type, `${name}: ${tool.name}'s root`).toBe("object");
        for (const union of ["anyOf", "oneOf", "allOf", "enum", "not"]) {
          expect(tool.inputSchema, `${name}: ${tool.name}'s root`).not.toHaveProperty(union);
        }
      }
    }
  });

  it("lists every object closed and naming its properties, with no keyword OpenAI's strict mode refuses", () => {
    const problems: string[] = [];
    for (const { name, tools } of surfaces) {
      for (const tool of tools) {
        for (const [path, node] of nodes(tool.inputSchema as Schema)) {
          const where = `${name}: ${tool.name}${path === "" ? "" : `.${path}`}`;
          for (const key of Object.keys(node)) {
            if (OPENAI_STRICT_UNSUPPORTED.has(key)) problems.push(`${where}: ${key}`);
          }
          if (node.type !== "object") continue;
          if (node.additionalProperties !== false) problems.push(`${where}: open object`);
          // A tool without arguments is the one object that names none: the Agents SDK keeps it strict.
          const named = Object.keys((node.properties ?? {}) as Schema).length;
          if (named === 0 && path !== "") problems.push(`${where}: an object naming no property`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("stays within OpenAI's strict-mode size limits: properties, nesting, enum values", () => {
    // OpenAI's structured outputs limit a strict schema's size; these are the limits it launched with
    // (100 object properties in all, 5 levels of nesting, 500 enum values), tighter than today's.
    for (const { name, tools } of surfaces) {
      for (const tool of tools) {
        const found = nodes(tool.inputSchema as Schema);
        const properties = found.filter(([path]) => path !== "" && !path.endsWith("[]")).length;
        const depth = Math.max(...found.map(([path]) => (path === "" ? 0 : path.split(".").length)));
        const enums = found.reduce((sum, [, node]) => sum + ((node.enum ?? []) as unknown[]).length, 0);
        expect({
          tool: `${name}: ${tool.name}`,
          within: properties <= 100 && depth <= 5 && enums <= 500,
        }).toEqual({
          tool: `${name}: ${tool.name}`,
          within: true,
        });
      }
    }
  });

  it("lists only what Gemini's function declarations take, but the open bounds docs/tools.md names", () => {
    const problems: string[] = [];
    const openBounds: string[] = [];
    for (const { name, tools } of surfaces) {
      for (const tool of tools) {
        for (const [path, node] of nodes(tool.inputSchema as Schema)) {
          const where = `${tool.name}.${path}`;
          for (const key of Object.keys(node)) {
            if (key === "exclusiveMinimum" || key === "exclusiveMaximum") openBounds.push(where);
            else if (!GEMINI_SCHEMA_FIELDS.has(key)) problems.push(`${name}: ${where}: ${key}`);
          }
          const values = (node.enum ?? []) as unknown[];
          if (values.some((v) => typeof v !== "string"))
            problems.push(`${name}: ${where}: enum of non-strings`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(new Set(openBounds)).toEqual(OPEN_BOUNDS);
  });

  it("lists no propertyNames in an outputSchema either (@google/genai's mcpToTool sends it to Gemini)", () => {
    // mcpToTool hands outputSchema on as the declaration's responseJsonSchema; Gemini refuses the keyword
    // there too ("Unexpected property: propertyNames", langchain-ai/langchainjs#9526).
    for (const { name, tools } of surfaces) {
      for (const tool of tools) {
        expect(JSON.stringify(tool.outputSchema), `${name}: ${tool.name}`).not.toContain('"propertyNames"');
      }
    }
  });

  it("lists the same tools over Streamable HTTP (serve --http) as in memory", async () => {
    const server = await startInProcess();
    try {
      const { client } = await connectHttp(server.url);
      expect((await client.listTools()).tools).toEqual(surfaces[1]?.tools);
      await client.close();
    } finally {
      await server.stop();
    }
  });

  it("keeps every argument through Anthropic's strict conversion (an open object became {} there)", () => {
    for (const { name, tools } of surfaces) {
      for (const tool of tools) {
        const strict = transformJSONSchema(tool.inputSchema as Schema) as Schema;
        expect(Object.keys(strict.properties as Schema), `${name}: ${tool.name}`).toEqual(
          Object.keys(tool.inputSchema.properties ?? {}),
        );
      }
    }
    const start = transformJSONSchema(operatorTool("start_match").inputSchema as Schema) as Schema;
    expect(Object.keys(at(start, "properties", "opponent_params", "properties"))).toEqual([
      "probabilities",
      "cycle",
    ]);
  });
});

describe("an opponent's params are listed closed, and still accept everything the server does", () => {
  const actions = [
    "opera",
    "football",
    "cooperate",
    "defect",
    "left",
    "middle",
    "right",
    "heads",
    "tails",
    "rock",
    "paper",
    "scissors",
  ];

  it("names every parameter an opponent of the registry takes, and every action of the catalog", () => {
    const taken = listOpponents().flatMap((opponent) =>
      Object.keys((z.toJSONSchema(opponent.params).properties ?? {}) as Schema),
    );
    for (const [tool, listed] of [
      ["start_match", at(operatorTool("start_match").inputSchema, "properties", "opponent_params")],
      [
        "register_study",
        at(
          operatorTool("register_study").inputSchema,
          "properties",
          "opponents",
          "items",
          "properties",
          "params",
        ),
      ],
    ] as const) {
      expect(Object.keys(at(listed, "properties")).sort(), tool).toEqual([...new Set(taken)].sort());
      expect(listed.additionalProperties, tool).toBe(false);
      expect(listed.default, tool).toEqual({});
      expect(Object.keys(at(listed, "properties", "probabilities", "properties")), tool).toEqual(actions);
      expect(at(listed, "properties", "cycle", "items").enum, tool).toEqual(actions);
    }
    expect(at(operatorTool("start_match").inputSchema, "properties", "opponent_params").description).toMatch(
      /^Parameters of the opponent, checked when the match starts/,
    );
  });

  it("accepts, in a draft-07 client and in the server, the params the server plays with", async () => {
    const check = new Ajv07({ allErrors: true }).compile(operatorTool("start_match").inputSchema);
    const client = surfaces[1]?.client as Client;
    for (const args of [
      { game: "rock-paper-scissors", opponent: "pattern", opponent_params: { cycle: ["rock", "paper"] } },
      {
        game: "prisoners-dilemma",
        opponent: "random",
        opponent_params: { probabilities: { cooperate: 0.3, defect: 0.7 } },
      },
      { game: "prisoners-dilemma", opponent: "tit-for-tat", opponent_params: {} },
    ]) {
      expect(check(args), JSON.stringify(check.errors)).toBe(true);
      const view = await call<{ match_id: string; round: number }>(client, "start_match", args);
      expect(view.round).toBe(1);
    }
    // The server, not the listing, knows which game's actions are valid: its refusal names them.
    const otherGame = {
      game: "prisoners-dilemma",
      opponent: "pattern",
      opponent_params: { cycle: ["rock"] },
    };
    expect(check(otherGame)).toBe(true);
    const refused = await client.callTool({ name: "start_match", arguments: otherGame });
    expect(refused.isError).toBe(true);
    expect((refused.content as { text: string }[])[0]?.text).toMatch(/rock.*cooperate, defect/);
    // A key no opponent takes, or a label for an action, is refused by the listing already.
    expect(
      check({ game: "prisoners-dilemma", opponent: "pattern", opponent_params: { cycles: ["defect"] } }),
    ).toBe(false);
    expect(
      check({ game: "prisoners-dilemma", opponent: "pattern", opponent_params: { cycle: ["Cooperate"] } }),
    ).toBe(false);
  });
});
