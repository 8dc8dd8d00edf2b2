import { type McpServer, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { shownValue } from "../domain/named-value-schemas.js";
import { printable } from "../queries/format.js";

/**
 * A tool argument the input schema refuses is answered with one sentence per argument: its name, the value
 * received and what is valid, read from the tool's listed input schema (one bound: the tighter one). The
 * SDK's own answer lists each refusing check, so `round: 1e20` gave two contradictory bounds (an integer's
 * 2^53 − 1 and the round's 10000) and a refused union gave only "Invalid input". Only a refused call pays
 * for this: the SDK validates first, and this reads its refusal again.
 */
export function explainToolInputErrors(server: McpServer): void {
  const target = server as unknown as {
    validateToolInput?: (tool: unknown, args: unknown, toolName: string) => Promise<unknown>;
    toolInputSchemaJson?: (name: string) => unknown;
  };
  const original = target.validateToolInput;
  const schemaJson = target.toolInputSchemaJson;
  if (typeof original !== "function" || typeof schemaJson !== "function") {
    throw new Error("The MCP SDK no longer validates tool input where explainToolInputErrors expects it.");
  }
  target.validateToolInput = async (tool: unknown, args: unknown, toolName: string) => {
    try {
      return await original.call(server, tool, args, toolName);
    } catch (error) {
      const schema = (tool as { inputSchema?: { safeParse?: (v: unknown) => ZodResult } }).inputSchema;
      if (!(error instanceof ProtocolError) || typeof schema?.safeParse !== "function") throw error;
      const parsed = schema.safeParse(args ?? {});
      if (parsed.success) throw error;
      const json = schemaJson.call(server, toolName) as JsonSchema;
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Input validation error: Invalid arguments for tool ${toolName}: ${describeIssues(parsed.error.issues, args, json)}`,
      );
    }
  };
}

interface ZodIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}
type ZodResult = { success: true } | { success: false; error: { issues: readonly ZodIssue[] } };

interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly properties?: Record<string, JsonSchema>;
  readonly items?: JsonSchema;
  readonly anyOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
}

// zod's own wording ("Too big: expected number to be <=10000", "Invalid input"), replaced here.
const ZOD_DEFAULT_MESSAGE =
  /^(Invalid (input|option|string|number|key|element|value|type)|Too (big|small)|Unrecognized key)/;

/** One sentence per refused argument, in the order zod found them, each argument once. */
export function describeIssues(issues: readonly ZodIssue[], args: unknown, schema: JsonSchema): string {
  const seen = new Set<string>();
  const own: string[] = [];
  const sentences: string[] = [];
  for (const issue of issues) {
    const path = issue.path.filter((p): p is string | number => typeof p !== "symbol");
    const name = pathName(path);
    if (seen.has(name)) continue;
    seen.add(name);
    const value = valueAt(args, path);
    const expected = schemaAt(schema, path);
    // A schema's own message (a reply's length limit, a design key's likely spelling) already says it; it
    // is not prefixed with a name it starts with, and a text over its limit says how long it was.
    if (!ZOD_DEFAULT_MESSAGE.test(issue.message)) {
      const named = issue.message.startsWith(`${name} `) ? issue.message : `${name}: ${issue.message}`;
      const limit = expected?.maxLength;
      const over = typeof value === "string" && limit !== undefined && value.length > limit;
      own.push(over ? `${named} (received ${value.length.toLocaleString("en-US")})` : named);
      continue;
    }
    const valid = expected === undefined ? undefined : describe(expected);
    const got = value === undefined ? "is missing" : `is ${shown(value)}`;
    sentences.push(
      valid === undefined ? `${name} ${got}: ${issue.message}` : `${name} ${got}; it must be ${valid}`,
    );
  }
  // A schema's own message first: an unknown key explains the key it left missing, not the other way.
  return `${[...own, ...sentences].join("; ")}.`;
}

function pathName(path: readonly (string | number)[]): string {
  return path.length === 0 ? "the arguments" : path.join(".");
}

function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  let here = value;
  for (const key of path) {
    if (here === null || typeof here !== "object" || !Object.hasOwn(here, key)) return undefined;
    here = (here as Record<string | number, unknown>)[key];
  }
  return here;
}

function schemaAt(schema: JsonSchema, path: readonly (string | number)[]): JsonSchema | undefined {
  let here: JsonSchema | undefined = schema;
  for (const key of path) {
    if (here === undefined) return undefined;
    here = typeof key === "number" ? here.items : here.properties?.[key];
  }
  return here;
}

// An integer's own bound says nothing a caller can act on next to the argument's.
const NO_BOUND = Number.MAX_SAFE_INTEGER;

/** What a JSON schema accepts, as the end of "it must be …". */
function describe(schema: JsonSchema): string | undefined {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    const parts = alternatives.map(describe);
    return parts.every((p) => p !== undefined) ? parts.join(" or ") : undefined;
  }
  if (schema.enum) {
    const values = schema.enum.map((v) => printable(String(v)));
    return `one of ${values.length > 20 ? `${values.slice(0, 20).join(", ")}, …` : values.join(", ")}`;
  }
  if (schema.const !== undefined) return shown(schema.const);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "integer":
      return `an integer${range(schema)}`;
    case "number":
      return `a number${range(schema)}`;
    case "boolean":
      return "true or false";
    case "string": {
      const empty = (schema.minLength ?? 0) >= 1 ? "a non-empty string" : "a string";
      return schema.maxLength === undefined ? empty : `${empty} of at most ${schema.maxLength} characters`;
    }
    case "array": {
      const each = schema.items === undefined ? undefined : describe(schema.items);
      const count =
        schema.minItems !== undefined && schema.maxItems !== undefined
          ? `${schema.minItems} to ${schema.maxItems} items`
          : schema.maxItems !== undefined
            ? `at most ${schema.maxItems} items`
            : schema.minItems !== undefined
              ? `at least ${schema.minItems} items`
              : "items";
      return `a list of ${count}${each === undefined ? "" : `, each ${each}`}`;
    }
    case "object":
      return "an object";
    default:
      return undefined;
  }
}

function range(schema: JsonSchema): string {
  const low =
    schema.exclusiveMinimum !== undefined
      ? `greater than ${schema.exclusiveMinimum}`
      : schema.minimum !== undefined && schema.minimum > -NO_BOUND
        ? `at least ${schema.minimum}`
        : undefined;
  const high =
    schema.exclusiveMaximum !== undefined
      ? `less than ${schema.exclusiveMaximum}`
      : schema.maximum !== undefined && schema.maximum < NO_BOUND
        ? `at most ${schema.maximum}`
        : undefined;
  if (
    schema.minimum !== undefined &&
    schema.maximum !== undefined &&
    low?.startsWith("at least") &&
    high?.startsWith("at most")
  ) {
    return ` from ${schema.minimum} to ${schema.maximum}`;
  }
  return [low, high]
    .filter((b) => b !== undefined)
    .map((b) => ` ${b}`)
    .join(" and");
}

/** A received value in a sentence: JSON, its control characters escaped, cut to a readable length. */
function shown(value: unknown): string {
  return printable(shownValue(value));
}
