import { describe, expect, it } from "vitest";
import { refusedRequestId } from "../../src/mcp/stdio-size-guard.js";

const ends = (line: string) => [Buffer.from(line.slice(0, 256)), Buffer.from(line.slice(-256))] as const;

describe("the id of a refused stdio message, from the two ends of its line", () => {
  const filler = "x".repeat(1000);
  it("finds an id written before the params", () => {
    expect(
      refusedRequestId(
        ...ends(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"a":"${filler}"}}\n`),
      ),
    ).toBe(7);
  });
  it("finds an id written after the params (the SDK's order), not one inside them", () => {
    const line = `{"method":"tools/call","params":{"id":3,"a":"${filler}","id":4},"jsonrpc":"2.0","id":"req-9"}\n`;
    expect(refusedRequestId(...ends(line))).toBe("req-9");
  });
  it("finds none for a notification, whatever the params hold", () => {
    expect(
      refusedRequestId(...ends(`{"jsonrpc":"2.0","method":"x","params":{"a":"${filler}","id":5}}\n`)),
    ).toBeUndefined();
  });
});
