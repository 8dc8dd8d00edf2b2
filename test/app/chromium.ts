import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer, { type Browser } from "puppeteer-core";
import { describe } from "vitest";

export const CHROMIUM = process.env.SAME_GAME_CHROMIUM ?? "/usr/bin/chromium";

/** Whether the browser the view tests drive is installed on this machine. */
export const CHROMIUM_PRESENT = existsSync(CHROMIUM);

const INSTALL = "apt-get install -y chromium";

/**
 * A suite that drives headless Chromium. On a machine without it (Node and npm only) the suite is
 * skipped with a loud message naming the install command, so `npm test` passes there; `.ci/run`
 * installs Chromium and sets SAME_GAME_REQUIRE_CHROMIUM=1, which turns a missing browser into a failure,
 * so CI can never pass a view test that did not run.
 */
export function describeWithChromium(name: string, suite: () => void): void {
  if (CHROMIUM_PRESENT) {
    describe(name, suite);
    return;
  }
  if (process.env.SAME_GAME_REQUIRE_CHROMIUM === "1") {
    throw new Error(`SAME_GAME_REQUIRE_CHROMIUM=1 but there is no Chromium at ${CHROMIUM}: run ${INSTALL}.`);
  }
  process.stderr.write(
    `\n*** SKIPPED: ${name} (no Chromium at ${CHROMIUM}; install it with ${INSTALL}). ***\n\n`,
  );
  describe.skip(name, suite);
}

/** Debian's headless Chromium with a fresh profile and nothing running in the background. */
export async function launchChromium(): Promise<{ browser: Browser; close(): Promise<void> }> {
  if (!CHROMIUM_PRESENT) {
    throw new Error(`The view tests need Chromium at ${CHROMIUM}: run ${INSTALL}.`);
  }
  const profile = mkdtempSync(join(tmpdir(), "same-game-chromium-"));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      `--user-data-dir=${profile}`,
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
