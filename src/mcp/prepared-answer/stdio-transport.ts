import type { Readable, Writable } from "node:stream";
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { messageLine } from "./wire-bytes.js";

/**
 * The SDK's stdio transport, except that a message carrying a prepared answer (a cached analysis result)
 * is written from the answer's kept bytes instead of being serialised again: a megabyte of JSON per call
 * that is the same every time. Every other message goes through the SDK's own `send`.
 */
export class PreparedStdioTransport extends StdioServerTransport {
  private ended = false;

  constructor(
    stdin: Readable,
    private readonly output: Writable,
  ) {
    super(stdin, output);
  }

  override async close(): Promise<void> {
    this.ended = true;
    return super.close();
  }

  override send(message: JSONRPCMessage): Promise<void> {
    const line = this.ended ? undefined : messageLine(message);
    if (line === undefined) return super.send(message);
    // As the SDK writes: settled when written, or at the next drain when the pipe is full.
    return new Promise((resolve, reject) => {
      const onError = (error: Error) => {
        this.output.off("drain", onDrain);
        reject(error);
      };
      const onDrain = () => {
        this.output.off("error", onError);
        resolve();
      };
      this.output.once("error", onError);
      // Corked: the pieces go out in one vectored write, without first being copied into one buffer.
      this.output.cork();
      let flowing = true;
      for (const piece of line) flowing = this.output.write(piece);
      this.output.uncork();
      if (flowing) {
        this.output.off("error", onError);
        resolve();
      } else {
        this.output.once("drain", onDrain);
      }
    });
  }
}
