import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  RESOURCE_MIME_TYPE,
  RESOURCE_URI_META_KEY,
  registerAppResource,
} from "@modelcontextprotocol/ext-apps/server";
import { type McpServer, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { packageRoot } from "../../package-root.js";
import type { ToolContext } from "../tool-context.js";

/** The MCP App view that renders robustness, report, repeated_metrics and compare results in Apps-capable hosts. */
export const DASHBOARD_URI = "ui://same-game/dashboard.html";

/** Where `npm run build` writes the one self-contained HTML file of the view (scripts and styles inlined). */
export const DASHBOARD_HTML_PATH = join(packageRoot(), "dist", "app", "dashboard.html");

/**
 * The `_meta` an analysis tool carries to name its view: the current key (`ui.resourceUri`) and the
 * legacy flat key older hosts read. Hosts without Apps support ignore `_meta`; the result is unchanged.
 */
export const DASHBOARD_TOOL_META = {
  ui: { resourceUri: DASHBOARD_URI },
  [RESOURCE_URI_META_KEY]: DASHBOARD_URI,
} as const;

/**
 * The view loads nothing: every script, style and chart is inside the HTML, so it asks for no network
 * origin of any kind and a host can apply its strictest policy.
 */
const EMPTY_CSP = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };

let cachedHtml: string | undefined;

function dashboardHtml(): string {
  try {
    cachedHtml ??= readFileSync(DASHBOARD_HTML_PATH, "utf8");
    return cachedHtml;
  } catch {
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `The dashboard view is not built (${DASHBOARD_HTML_PATH} is missing); run npm run build.`,
    );
  }
}

/**
 * Registers the dashboard's UI resource. Call it with the analysis tools (robustness, report,
 * repeated_metrics, compare name it in their `_meta`; list_matches serves its clicks); never on the
 * player's surface.
 */
export function registerDashboardApp(server: McpServer, _context: ToolContext): void {
  registerAppResource(
    server,
    "same-game dashboard",
    DASHBOARD_URI,
    {
      title: "same-game dashboard",
      description:
        "Interactive view of robustness, report, repeated_metrics and compare results: cooperation by framing, R and shift forest plots, λ by framing, comprehension curves, the leaderboard (ranks with intervals, tied groups, a forest plot of R) and every pair's difference, verification checks; filters re-run the tool, a click on a group in the leaderboard filters the other views.",
      mimeType: RESOURCE_MIME_TYPE,
      _meta: { ui: { csp: EMPTY_CSP, prefersBorder: true } },
    },
    async (uri) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: RESOURCE_MIME_TYPE,
          text: dashboardHtml(),
          _meta: { ui: { csp: EMPTY_CSP, prefersBorder: true } },
        },
      ],
    }),
  );
}
