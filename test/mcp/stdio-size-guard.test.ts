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

describe("the id of a refused stdio message is echoed only when it is read exactly", () => {
  const filler = "x".repeat(1000);
  const idOf = (id: string) =>
    refusedRequestId(...ends(`{"jsonrpc":"2.0","id":${id},"method":"ping","params":{"p":"${filler}"}}\n`));
  it("reads no id from a fraction, an exponent or a number past 2^53 (never a prefix of it)", () => {
    expect(idOf("1.5")).toBeUndefined();
    expect(idOf("1e3")).toBeUndefined();
    expect(idOf("12345678901234567")).toBeUndefined();
    expect(idOf("9999999999999999")).toBeUndefined(); // sixteen digits, past 9007199254740991
  });
  it("reads a safe integer, a negative one and a string whole", () => {
    expect(idOf("9007199254740991")).toBe(9007199254740991);
    expect(idOf("-42")).toBe(-42);
    expect(idOf('"a\\"b"')).toBe('a"b');
  });
  it("reads no id after the params when the last one is a fraction", () => {
    const line = `{"method":"ping","params":{"p":"${filler}"},"jsonrpc":"2.0","id":2.25}\n`;
    expect(refusedRequestId(...ends(line))).toBeUndefined();
  });
});
