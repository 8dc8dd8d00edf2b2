import { Transform, type TransformCallback } from "node:stream";
import { malformedBatchMessage, malformedLine } from "./stdio-malformed-line.js";

/**
 * The largest JSON-RPC message `serve` reads on stdin. The SDK's stdio transport closes the connection —
 * and the server exits without a word — when one line passes its own 10 MB buffer; lines over this
 * smaller limit are dropped here instead and answered with a JSON-RPC error, and the session goes on.
 */
export const MAX_STDIO_MESSAGE_BYTES = 8 * 1024 * 1024;

/**
 * How much of each end of a refused line is kept to find its request id: a client may write the id
 * before the params or after them (the SDK writes `{"method":…,"params":{…},"jsonrpc":"2.0","id":5}`).
 */
const END_BYTES = 256;

/**
 * A stream between stdin and the transport that passes complete lines of at most `maxBytes` that hold one
 * JSON-RPC message each; a batch line is passed as one line per message of it. A longer line, or one that
 * is not a JSON-RPC message (nor a batch of them), is answered instead: the
 * error reply line (with the request's id when it can be read exactly) and a sentence for stderr go to
 * `refuse`; a malformed response from the client gets no reply line, only the sentence.
 */
export function stdioSizeGuard(
  refuse: (reply: string | undefined, reason: string) => void,
  maxBytes = MAX_STDIO_MESSAGE_BYTES,
): Transform {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let refusing: Buffer | null = null; // the head of a line being dropped
  let tail: Buffer = Buffer.alloc(0); // the last bytes of it seen so far
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      let start = 0;
      while (start < chunk.length) {
        const newline = chunk.indexOf(10, start);
        const end = newline === -1 ? chunk.length : newline + 1;
        const piece = chunk.subarray(start, end);
        if (refusing === null && pendingBytes + piece.length - (newline === -1 ? 0 : 1) > maxBytes) {
          const line = Buffer.concat([...pending, piece]);
          refusing = line.subarray(0, END_BYTES);
          tail = line.subarray(Math.max(0, line.length - END_BYTES));
          pending = [];
          pendingBytes = 0;
        } else if (refusing !== null) {
          tail = Buffer.concat([tail, piece]);
          tail = tail.subarray(Math.max(0, tail.length - END_BYTES));
        } else {
          pending.push(piece);
          pendingBytes += piece.length;
        }
        if (newline !== -1) {
          if (refusing !== null) {
            refuse(
              oversizeReply(refusing, tail, maxBytes),
              "refused a stdio message over the size limit (answered with a JSON-RPC error)",
            );
            refusing = null;
            tail = Buffer.alloc(0);
          } else {
            const line = Buffer.concat(pending);
            pending = [];
            pendingBytes = 0;
            const malformed = malformedLine(line.toString("utf8"));
            if (malformed === undefined) this.push(line);
            else if ("batch" in malformed) {
              for (const message of malformed.batch) {
                const refused = malformedBatchMessage(message);
                if (refused === undefined) this.push(Buffer.from(`${message}\n`));
                else refuse(refused.reply, refused.reason);
              }
            } else refuse(malformed.reply, malformed.reason);
          }
        }
        start = end;
      }
      done();
    },
  });
}

// An integer id is read whole or not at all: `1.5`, `1e3` or a 17th digit must not leave a prefix that
// reads as another request's id.
const ID = String.raw`"id"\s*:\s*("(?:[^"\\]|\\.){0,100}"|-?(?:0|[1-9]\d{0,15})(?![\d.eE]))`;
const SHORT_MEMBER = String.raw`"(?:jsonrpc|method)"\s*:\s*"[^"]{0,100}"`;
/** The request id among the members before the params: `{"jsonrpc":"2.0","id":5,"method":…,"params":…`. */
const LEADING_ID = new RegExp(String.raw`^\s*\{\s*(?:${SHORT_MEMBER}\s*,\s*)*${ID}`);
/** The request id among the members after the params: `…},"jsonrpc":"2.0","id":5}`. */
const TRAILING_ID = new RegExp(String.raw`[,{]\s*${ID}\s*(?:,\s*${SHORT_MEMBER}\s*)*\}\s*$`);

/** The top-level id of a refused request from the two ends of its line, or undefined (a notification, or an id
 * that cannot be read exactly: a fraction, an integer past 2^53, a string JSON refuses). */
export function refusedRequestId(head: Buffer, tail: Buffer): string | number | undefined {
  const found =
    LEADING_ID.exec(head.toString("utf8"))?.[1] ??
    TRAILING_ID.exec(tail.toString("utf8").replace(/\n$/, ""))?.[1];
  if (found === undefined) return undefined;
  try {
    const id: unknown = JSON.parse(found);
    return typeof id === "string" || Number.isSafeInteger(id) ? (id as string | number) : undefined;
  } catch {
    return undefined; // a string id with an escape JSON refuses
  }
}

function oversizeReply(head: Buffer, tail: Buffer, maxBytes: number): string {
  const id = refusedRequestId(head, tail);
  return `${JSON.stringify({
    jsonrpc: "2.0",
    id: id ?? null,
    error: {
      code: -32600,
      message: `Message refused: longer than ${maxBytes} bytes (the limit of one stdio message); send less.`,
    },
  })}\n`;
}
