import { randomUUID } from "node:crypto";

/** The parts of a tool answer whose JSON is built once and kept (deep-frozen by the caller). */
interface KeptAnswer {
  readonly structuredContent: Record<string, unknown>;
  readonly content: readonly object[];
  /** Their JSON as bytes, built when the first message carrying them is sent. */
  structuredBytes?: Buffer;
  contentBytes?: Buffer;
}

/**
 * Kept answers by one object member of their structured content. The SDK validates a tool result with its
 * wire schema on the way out and sends zod's copy: a new structured-content object and new content blocks,
 * but the very same member values (unknown values are passed through, strings are shared). So a message is
 * matched to its kept answer by a member, then checked key by key (same keys in the same order, the same
 * values): what it would serialise to is then exactly the kept JSON.
 */
const byMember = new WeakMap<object, KeptAnswer[]>();

/** Counts for tests and benches: how often a kept part's JSON was built (once per part when all is well). */
export const wireBytesCounts = { partsSerialised: 0 };

/** Keeps an answer (deep-frozen by the caller) whose JSON is to be built once and written again. */
export function keepSerialised(answer: {
  structuredContent: Record<string, unknown>;
  content: object[];
}): void {
  const anchor = anchorOf(answer.structuredContent);
  if (anchor === undefined) return; // no object member: small, serialised as usual
  const kept = byMember.get(anchor) ?? [];
  if (kept.some((k) => k.structuredContent === answer.structuredContent)) return;
  kept.push({ structuredContent: answer.structuredContent, content: answer.content });
  byMember.set(anchor, kept);
}

function anchorOf(structured: Record<string, unknown>): object | undefined {
  for (const value of Object.values(structured))
    if (typeof value === "object" && value !== null) return value;
  return undefined;
}

// Stands for a kept part in the JSON of the rest of the message; a random name no result text can carry.
const MARK = `same-game:kept-part:${randomUUID()}`;
const QUOTED_MARK = JSON.stringify(MARK);

/**
 * The JSON-RPC message as the line to write (its JSON and a newline), in pieces to be written one after the
 * other: the kept parts of its result are their stored bytes (not copied into one buffer), the rest of the
 * message (the id, the result's `_meta`) is serialised as usual. `undefined` when the message carries no
 * kept part: the transport's own serialisation applies.
 */
export function messageLine(message: unknown): Buffer[] | undefined {
  const result = (message as { result?: unknown } | null)?.result;
  if (typeof result !== "object" || result === null) return undefined;
  const { structuredContent, content } = result as { structuredContent?: unknown; content?: unknown };
  if (typeof structuredContent !== "object" || structuredContent === null) return undefined;
  const anchor = anchorOf(structuredContent as Record<string, unknown>);
  const kept =
    anchor &&
    byMember.get(anchor)?.find((k) => sameMembers(k.structuredContent, structuredContent as object));
  if (!kept) return undefined;
  const sameContent =
    Array.isArray(content) &&
    content.length === kept.content.length &&
    content.every((block, i) => sameMembers(kept.content[i] as object, block));
  const spliced: Buffer[] = [];
  const rest = JSON.stringify(message, function (this: unknown, _key: string, value: unknown) {
    if (this !== result) return value;
    if (value === structuredContent) {
      kept.structuredBytes ??= bytesOf(kept.structuredContent);
      spliced.push(kept.structuredBytes);
      return MARK;
    }
    if (value === content && sameContent) {
      kept.contentBytes ??= bytesOf(kept.content);
      spliced.push(kept.contentBytes);
      return MARK;
    }
    return value;
  });
  const between = rest.split(QUOTED_MARK);
  // Only the marks this call put in: anything else (which no result can hold) takes the plain path.
  if (between.length !== spliced.length + 1) return undefined;
  const line: Buffer[] = [];
  between.forEach((text, i) => {
    line.push(Buffer.from(text, "utf8"));
    const part = spliced[i];
    if (part !== undefined) line.push(part);
  });
  line.push(NEWLINE);
  return line;
}

const NEWLINE = Buffer.from("\n");

/** The same own keys in the same order with the very same values: the two serialise alike. */
function sameMembers(kept: object, other: unknown): boolean {
  if (typeof other !== "object" || other === null) return false;
  const keys = Object.keys(kept);
  const otherKeys = Object.keys(other);
  if (keys.length !== otherKeys.length) return false;
  return keys.every(
    (key, i) =>
      otherKeys[i] === key &&
      (kept as Record<string, unknown>)[key] === (other as Record<string, unknown>)[key],
  );
}

/**
 * A kept part's JSON. Every character past ASCII is written as its `\u` escape: the same JSON value, and an
 * all-ASCII text is read by the client's decoder and parser on their fast one-byte paths (a single `≥` in a
 * notes line would otherwise make the whole message two-byte text).
 */
function bytesOf(part: object): Buffer {
  wireBytesCounts.partsSerialised++;
  // ASCII only, so latin1 and UTF-8 give the same bytes; latin1 is the encoder's plain copy.
  return Buffer.from(asciiJson(JSON.stringify(part)), "latin1");
}

/** JSON text with every non-ASCII character escaped (JSON.stringify has already escaped lone surrogates). */
export function asciiJson(json: string): string {
  return json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
