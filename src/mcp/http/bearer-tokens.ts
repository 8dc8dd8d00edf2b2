import { createHash, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { UsageError } from "../../usage-error.js";

/** Shorter tokens are guessable; the file is refused rather than served with them. */
export const MIN_TOKEN_LENGTH = 16;

/**
 * The tokens of a token file: one per line, blank lines and `#` comments skipped. A missing file, an
 * empty one or a short token is a UsageError: a server that would accept no one (or anyone) must not start.
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
    if (token.length < MIN_TOKEN_LENGTH || /\s/.test(token)) {
      throw new UsageError(
        `--token-file "${path}" line ${index + 1}: a token must be at least ${MIN_TOKEN_LENGTH} characters without spaces.`,
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
