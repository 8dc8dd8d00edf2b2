import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BearerTokens, principalOfToken, readTokenFile } from "../../src/mcp/http/bearer-tokens.js";
import { isLoopbackHost } from "../../src/mcp/http/http-options.js";

const dir = mkdtempSync(join(tmpdir(), "same-game-tokens-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("bearer tokens", () => {
  it("reads one token per line, skipping blanks and # comments", () => {
    const file = join(dir, "tokens");
    writeFileSync(file, "# team A\nAAAAAAAAAAAAAAAA\n\n  BBBBBBBBBBBBBBBBBB  \r\n# end\n");
    expect(readTokenFile(file)).toEqual(["AAAAAAAAAAAAAAAA", "BBBBBBBBBBBBBBBBBB"]);
  });

  it("reads a token appended twice as one (the per-token shares divide among distinct tokens)", () => {
    const file = join(dir, "tokens-twice");
    writeFileSync(file, "AAAAAAAAAAAAAAAA\nBBBBBBBBBBBBBBBBBB\nAAAAAAAAAAAAAAAA\n");
    expect(readTokenFile(file)).toEqual(["AAAAAAAAAAAAAAAA", "BBBBBBBBBBBBBBBBBB"]);
  });

  it("refuses an empty file and names a short token's line", () => {
    const empty = join(dir, "empty");
    writeFileSync(empty, "# nothing\n");
    expect(() => readTokenFile(empty)).toThrow(/holds no token/);
    const short = join(dir, "short");
    writeFileSync(short, "AAAAAAAAAAAAAAAA\nabc\n");
    expect(() => readTokenFile(short)).toThrow(/line 2: a token must be at least 16 characters/);
  });

  it("maps a configured token to its SHA-256 and anything else to null", () => {
    const tokens = new BearerTokens(["AAAAAAAAAAAAAAAA"]);
    // SHA-256("abc") is the FIPS 180-2 test vector ba7816bf…f20015ad.
    expect(principalOfToken("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(tokens.principalOf("Bearer AAAAAAAAAAAAAAAA")).toBe(principalOfToken("AAAAAAAAAAAAAAAA"));
    expect(tokens.principalOf("bearer   AAAAAAAAAAAAAAAA")).toBe(principalOfToken("AAAAAAAAAAAAAAAA"));
    expect(tokens.principalOf("Bearer AAAAAAAAAAAAAAAB")).toBeNull();
    expect(tokens.principalOf("Basic AAAAAAAAAAAAAAAA")).toBeNull();
    expect(tokens.principalOf(undefined)).toBeNull();
  });
});

describe("isLoopbackHost", () => {
  it("accepts only addresses this machine alone can reach", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"])
      expect(isLoopbackHost(host)).toBe(true);
    for (const host of ["0.0.0.0", "::", "192.168.1.10", "example.com", "127.0.0.1.example.com"]) {
      expect(isLoopbackHost(host)).toBe(false);
    }
  });
});
