import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import type { Frame, Page } from "puppeteer-core";
import { expect } from "vitest";
import { DASHBOARD_URI } from "../../src/mcp/app/dashboard-app.js";
import { createServer } from "../../src/mcp/create-server.js";
import { TOOLSET_NAMES } from "../../src/mcp/toolsets.js";
import type { tempDeps } from "../support/harness.js";
import { launchChromium } from "./chromium.js";
import { hostPageHtml } from "./host-page-bundle.js";

// The built view (dist/app/dashboard.html, read through resources/read as a host does) in headless
// Chromium, embedded by the ext-apps AppBridge; every tool call of the view goes to a real same-game
// server on a real temp record. Screenshots land in test-artifacts/dashboard/ (gitignored).

export const ARTIFACTS = join(import.meta.dirname, "..", "..", "test-artifacts", "dashboard");
const APPS_CAPABILITIES = {
  extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } },
};

export interface ToolCall {
  name: string;
  arguments?: Record<string, unknown>;
}

type Deps = ReturnType<typeof tempDeps>;

/** A real SDK client (declaring MCP Apps support) on a real same-game server over the record. */
export async function connectHost(deps: Deps, name: string, principal?: string): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await createServer(deps, { transport: "memory", principal, toolsets: TOOLSET_NAMES }).connect(
    serverTransport,
  );
  const next = new Client({ name, version: "1.0.0" }, { capabilities: APPS_CAPABILITIES });
  await next.connect(clientTransport);
  return next;
}

export interface OpenOptions {
  theme: "light" | "dark";
  width: number;
  /** The server the host forwards the view's calls to (default: the harness's host). */
  host?: Client;
  /**
   * What the host answers a call of the view instead of forwarding it (as a host that refuses a call, or
   * a tool failing): a result, a thrown error, or undefined to forward it.
   */
  answer?: (call: ToolCall) => Promise<Record<string, unknown> | undefined>;
  /** Whether the view must draw the result (false for a result the view can only report as a failure). */
  drawn?: boolean;
  /** The host stops the model's call: it sends tool-cancelled (with this reason) instead of a result. */
  cancelled?: { reason?: string };
}

/** Chromium, the built view and the scripted host page, and every tool call the view made. */
export interface ViewHarness {
  readonly calls: ToolCall[];
  /** The calls the view cancelled through the host, as the host saw them. */
  readonly cancelled: ToolCall[];
  /** Opens the view in a fresh page as a host would after the model called `toolName`. */
  open(
    toolName: string,
    toolArguments: Record<string, unknown>,
    options: OpenOptions,
  ): Promise<{ page: Page; view: Frame }>;
  waitForCall(name: string, from: number): Promise<ToolCall>;
  close(): Promise<void>;
}

export async function startViewHarness(host: Client): Promise<ViewHarness> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const chromium = await launchChromium();
  const read = await host.readResource({ uri: DASHBOARD_URI });
  const content = read.contents[0];
  const viewHtml = content && "text" in content ? content.text : "";
  const hostHtml = await hostPageHtml();
  const calls: ToolCall[] = [];
  const cancelled: ToolCall[] = [];

  async function open(toolName: string, toolArguments: Record<string, unknown>, options: OpenOptions) {
    const server = options.host ?? host;
    const page = await chromium.browser.newPage();
    await page.setViewport({ width: options.width, height: 900, deviceScaleFactor: 1 });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(String(error)));
    await page.exposeFunction("hostCallTool", async (params: ToolCall) => {
      calls.push(params);
      return (await options.answer?.(params)) ?? (await server.callTool(params));
    });
    await page.exposeFunction("hostReadResource", async (params: { uri: string }) =>
      server.readResource(params),
    );
    await page.exposeFunction("hostCallCancelled", async (params: ToolCall) => {
      cancelled.push(params);
    });
    await page.setContent(hostHtml);
    const toolResult = options.cancelled
      ? undefined
      : await server.callTool({ name: toolName, arguments: toolArguments });
    await page.evaluate(
      (opts) => (globalThis as unknown as { startHost(o: unknown): Promise<void> }).startHost(opts),
      {
        html: viewHtml,
        theme: options.theme,
        width: options.width,
        toolName,
        toolArguments,
        toolResult,
        cancelled: options.cancelled,
      },
    );
    const view = await waitForView(page);
    if (options.drawn === false || options.cancelled) {
      await view.waitForFunction('document.querySelector("[role=status]")?.textContent !== ""', {
        timeout: 30_000,
      });
    } else {
      await view.waitForSelector('body[data-ready="true"], body[data-ready="error"]', { timeout: 30_000 });
      expect(
        await view.evaluate(
          'document.body.dataset.ready + " " + document.querySelector("[role=status]").textContent',
        ),
      ).toBe("true ");
    }
    expect(errors).toEqual([]);
    return { page, view };
  }

  async function waitForCall(name: string, from: number): Promise<ToolCall> {
    for (let i = 0; i < 200; i++) {
      const call = calls.slice(from).find((c) => c.name === name);
      if (call) return call;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the view never called ${name}; calls: ${JSON.stringify(calls.slice(from))}`);
  }

  return { calls, cancelled, open, waitForCall, close: () => chromium.close() };
}

async function waitForView(page: Page): Promise<Frame> {
  for (let i = 0; i < 100; i++) {
    const frame = page.frames().find((f) => f !== page.mainFrame());
    if (frame) return frame;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the view's iframe never appeared");
}

/**
 * The SVG paths of one vega-lite layer's marks in a chart: vega gives each mark group its layer's name as
 * a class (child_… inside a facet), so legend symbols and error-bar ticks are not counted as data marks.
 */
export function layerMarks(chart: string, layer: string, mark: string): string {
  return `[data-chart="${chart}"] svg g.mark-${mark}.${layer}_marks > path`;
}

export async function markCount(view: Frame, chart: string, layer: string, mark: string): Promise<number> {
  return view.$$eval(layerMarks(chart, layer, mark), (paths) => paths.length);
}

export async function axisLabels(view: Frame, chart: string): Promise<string[]> {
  return view.$$eval(`[data-chart="${chart}"] svg g.role-axis-label text`, (texts) =>
    texts.map((t) => t.textContent ?? ""),
  );
}

/** A PNG of the view's frame (its top `height` pixels when given) in test-artifacts/dashboard/. */
export async function screenshot(page: Page, name: string, height?: number): Promise<void> {
  const frame = await page.$("iframe");
  const box = await frame?.boundingBox();
  const clip =
    height && box ? { x: 0, y: 0, width: box.width, height: Math.min(height, box.height) } : undefined;
  await frame?.screenshot({ path: join(ARTIFACTS, `${name}.png`), clip });
}
