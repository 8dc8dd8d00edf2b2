import { createHash, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { UsageError } from "../../usage-error.js";

/** Shorter tokens are guessable; the file is refused rather than served with them. */
export const MIN_TOKEN_LENGTH = 16;

/** Printable ASCII without the space: what every HTTP client sends in a header byte for byte. */
const TOKEN_SYNTAX = /^[\x21-\x7E]+$/;

/**
 * The tokens of a token file: one per line, blank lines and `#` comments skipped. A missing file, an
 * empty one, a short token or one with a character outside printable ASCII is a UsageError: a server that would accept no one (or anyone) must not start.
 */
export function readTokenFile(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new UsageError(
      `--token-file "${path}" cannot be read; give a file with one bearer token per line.`,
    );
  }
  const tokens: string[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    const token = line.trim();
    if (token === "" || token.startsWith("#")) return;
    // A client sends the token in a header, as bytes: outside printable ASCII, Node's fetch refuses to
    // send it at all (an emoji) and curl sends UTF-8 where the server reads Latin-1 (a "ö"), so such a
    // token would let one client in and shut another out.
    if (token.length < MIN_TOKEN_LENGTH || !TOKEN_SYNTAX.test(token)) {
      throw new UsageError(
        `--token-file "${path}" line ${index + 1}: a token must be at least ${MIN_TOKEN_LENGTH} characters, each printable ASCII without spaces ("!" to "~": letters, digits, - . _ ~ + / = and the like; e.g. openssl rand -hex 32).`,
      );
    }
    // A token appended twice is one principal: counted twice it would halve every share the server
    // divides among its tokens (sessions per principal).
    if (!tokens.includes(token)) tokens.push(token);
  });
  if (tokens.length === 0) {
    throw new UsageError(`--token-file "${path}" holds no token; put one bearer token per line.`);
  }
  return tokens;
}

/** The access-control principal of a token: its SHA-256, so the token itself is never stored. */
export function principalOfToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** Checks `Authorization: Bearer …` headers against a fixed set of tokens. */
export class BearerTokens {
  private readonly digests: Buffer[];

  constructor(tokens: readonly string[]) {
    this.digests = tokens.map((t) => Buffer.from(principalOfToken(t), "hex"));
  }

  /**
   * The principal of the presented token, or null. Comparing fixed-length digests with timingSafeEqual,
   * over every configured token without an early exit, keeps the time independent of how much matched.
   */
  principalOf(authorization: string | undefined): string | null {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
    if (!match) return null;
    const presented = Buffer.from(principalOfToken(match[1] as string), "hex");
    let found = false;
    for (const digest of this.digests) found = timingSafeEqual(digest, presented) || found;
    return found ? presented.toString("hex") : null;
  }
}
