import {
  fromJsonSchema,
  type JsonSchemaType,
  type StandardSchemaWithJSON,
} from "@modelcontextprotocol/server";
import { z } from "zod";

type Json = Record<string, unknown>;

/**
 * A tool's `outputSchema` as every client can read it. zod emits 2020-12 JSON Schema with a `$schema` key
 * (which a draft-07 validator refuses to compile), `prefixItems` for tuples (which draft-07 reads as
 * `items: false`) and `additionalProperties: false` on plain objects (which rejects every key a later
 * version adds). This converts once and rewrites those three into their portable forms: no `$schema`,
 * arrays as `items` + `minItems`/`maxItems`, and open objects. The server then validates each result with
 * the very schema it advertises (the SDK's JSON Schema validator), not with a zod twin that strips keys
 * and so hides a mismatch from our own tests.
 */
export function advertisedOutputSchema(schema: z.ZodType): StandardSchemaWithJSON<Json, Json> {
  let advertised = converted.get(schema);
  if (!advertised) {
    advertised = lazilyConverted(schema);
    converted.set(schema, advertised);
  }
  return advertised;
}

/** Converted (and validator-compiled) once per schema, not once per connection: an HTTP server makes a
 * server per session, and compiling every tool's validator each time would slow every session's start. */
const converted = new WeakMap<z.ZodType, StandardSchemaWithJSON<Json, Json>>();

/**
 * The SDK's `fromJsonSchema` compiles the validator at once (some 20 ms a schema, most of a cold start's
 * own work); a server needs the JSON at its first `tools/list` and the validator at a tool's first result,
 * so both are made on first use and kept.
 */
function lazilyConverted(schema: z.ZodType): StandardSchemaWithJSON<Json, Json> {
  let json: JsonSchemaType | undefined;
  let compiled: StandardSchemaWithJSON<Json, Json> | undefined;
  // Frozen results (prepared answers: deep-frozen, answered again from the cache) found valid already.
  const passed = new WeakSet<object>();
  const jsonOf = (): JsonSchemaType =>
    (json ??= portable(z.toJSONSchema(schema, { target: "draft-2020-12", io: "output" })) as JsonSchemaType);
  return {
    "~standard": {
      version: 1,
      vendor: "mcp",
      jsonSchema: { input: jsonOf, output: jsonOf },
      validate: (data) => {
        if (typeof data === "object" && data !== null && passed.has(data)) return { value: data as Json };
        compiled ??= fromJsonSchema<Json>(jsonOf());
        validations.count++;
        const outcome = compiled["~standard"].validate(data);
        if (Object.isFrozen(data) && !(outcome instanceof Promise) && !outcome.issues)
          passed.add(data as object);
        return outcome;
      },
    },
  };
}

/** Counts for tests and benches: results run through an output validator (a cache hit runs none). */
export const validations = { count: 0 };

/** The JSON Schema rewritten to what draft-07 and 2020-12 validators read alike (see above). */
export function portable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(portable);
  if (node === null || typeof node !== "object") return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    if (key === "$schema") continue;
    if (key === "additionalProperties" && value === false) continue;
    if (key === "prefixItems") continue;
    if (isStringKeysOnly(key, value)) continue;
    out[key] = portable(value);
  }
  const prefix = (node as Json).prefixItems;
  if (Array.isArray(prefix)) {
    const members = prefix.map(portable);
    const same = members.every((m) => JSON.stringify(m) === JSON.stringify(members[0]));
    out.items = same ? members[0] : { anyOf: members };
    out.minItems ??= members.length;
    out.maxItems ??= members.length;
  }
  return out;
}

/**
 * `propertyNames: {type: "string"}`, which zod writes for every `z.record(z.string(), …)`, says what every
 * JSON object's keys already are, so dropping it changes nothing a validator accepts. Model providers'
 * tool schemas do not take the keyword: Gemini's function declarations refuse the request ("Unknown name
 * propertyNames"; its Schema has no such field) and OpenAI's strict mode lists it as unsupported, so an
 * adapter that hands the schema on (LangChain's Gemini chat model) failed every call of every tool.
 */
export function isStringKeysOnly(key: string, value: unknown): boolean {
  if (key !== "propertyNames" || value === null || typeof value !== "object") return false;
  const entries = Object.entries(value as Json);
  return entries.length === 1 && entries[0]?.[0] === "type" && entries[0]?.[1] === "string";
}

/** A confidence interval `[lo, hi]`: advertised as a plain 2-item number array, never a tuple. */
export const interval = z.array(z.number()).length(2);
