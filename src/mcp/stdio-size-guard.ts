import { Transform, type TransformCallback } from "node:stream";

/**
 * The largest JSON-RPC message `serve` reads on stdin. The SDK's stdio transport closes the connection —
 * and the server exits without a word — when one line passes its own 10 MB buffer; lines over this
 * smaller limit are dropped here instead and answered with a JSON-RPC error, and the session goes on.
 */
export const MAX_STDIO_MESSAGE_BYTES = 8 * 1024 * 1024;

/** How much of a refused line is kept to find its request id. */
const HEAD_BYTES = 256;

/**
 * A stream between stdin and the transport that passes complete lines of at most `maxBytes` and, for a
 * longer line, writes an error reply (with the request's id when its opening bytes name one) to `reply`.
 */
export function stdioSizeGuard(reply: (line: string) => void, maxBytes = MAX_STDIO_MESSAGE_BYTES): Transform {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let refusing: Buffer | null = null; // the head of a line being dropped
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      let start = 0;
      while (start < chunk.length) {
        const newline = chunk.indexOf(10, start);
        const end = newline === -1 ? chunk.length : newline + 1;
        const piece = chunk.subarray(start, end);
        if (refusing === null && pendingBytes + piece.length - (newline === -1 ? 0 : 1) > maxBytes) {
          refusing = Buffer.concat([...pending, piece]).subarray(0, HEAD_BYTES);
          pending = [];
          pendingBytes = 0;
        } else if (refusing === null) {
          pending.push(piece);
          pendingBytes += piece.length;
        }
        if (newline !== -1) {
          if (refusing !== null) {
            reply(oversizeReply(refusing, maxBytes));
            refusing = null;
          } else {
            this.push(Buffer.concat(pending));
            pending = [];
            pendingBytes = 0;
          }
        }
        start = end;
      }
      done();
    },
  });
}

function oversizeReply(head: Buffer, maxBytes: number): string {
  const id = /"id"\s*:\s*("(?:[^"\\]|\\.){0,100}"|-?\d{1,16})/.exec(head.toString("utf8"))?.[1];
  return `${JSON.stringify({
    jsonrpc: "2.0",
    id: id === undefined ? null : JSON.parse(id),
    error: {
      code: -32600,
      message: `Message refused: longer than ${maxBytes} bytes (the limit of one stdio message); send less.`,
    },
  })}\n`;
}
