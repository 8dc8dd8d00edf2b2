import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer, { type Browser } from "puppeteer-core";

export const CHROMIUM = "/usr/bin/chromium";

/**
 * Debian's headless Chromium with a fresh profile and nothing running in the background. Missing
 * Chromium fails the test with the command that installs it: a view test that silently passes without a
 * browser would prove nothing.
 */
export async function launchChromium(): Promise<{ browser: Browser; close(): Promise<void> }> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `The dashboard view test needs Chromium at ${CHROMIUM}: run apt-get install -y chromium.`,
    );
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
