// The host side of the MCP App bridge, as a chat client embeds a view: the ext-apps AppBridge in the page,
// the view in a sandboxed iframe under the CSP a host derives from the view's (empty) declared policy.
// Tool calls and resource reads of the view go to the test process, which forwards them to a real
// same-game server over the SDK Client (window.hostCallTool / window.hostReadResource, exposed by puppeteer).
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

interface StartOptions {
  html: string;
  theme: "light" | "dark";
  width: number;
  toolName: string;
  toolArguments: Record<string, unknown>;
  /** The model's call's result; absent when the host tells the view the call was cancelled instead. */
  toolResult?: Record<string, unknown>;
  cancelled?: { reason?: string };
}

interface HostWindow {
  hostCallTool(params: unknown): Promise<Record<string, unknown>>;
  hostReadResource(params: unknown): Promise<Record<string, unknown>>;
  /** Told when the view cancels one of its calls (the bridge aborts the request's signal). */
  hostCallCancelled(params: unknown): Promise<void>;
  startHost(options: StartOptions): Promise<void>;
  setTheme(theme: "light" | "dark"): void;
}

/** The MCP Apps default policy for a view that declares no domain: nothing but its own inline code. */
const CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; font-src data:; connect-src 'none'; frame-src 'none'; base-uri 'none'";

const host = window as unknown as HostWindow & Window;
let bridge: AppBridge | undefined;
let context: Record<string, unknown> = {};

host.startHost = async (options) => {
  const frame = document.createElement("iframe");
  frame.setAttribute("sandbox", "allow-scripts");
  frame.style.cssText = `width:${options.width}px;height:600px;border:0;display:block;`;
  document.body.style.background = options.theme === "dark" ? "#1e1f22" : "#ffffff";
  document.body.append(frame);
  const view = frame.contentWindow;
  if (!view) throw new Error("the iframe has no window");
  context = {
    theme: options.theme,
    displayMode: "inline",
    availableDisplayModes: ["inline"],
    containerDimensions: { width: options.width, maxHeight: 6000 },
    platform: "web",
    locale: "en-US",
    toolInfo: { tool: { name: options.toolName, inputSchema: { type: "object" } } },
  };
  bridge = new AppBridge(
    null,
    { name: "same-game test host", version: "1.0.0" },
    { serverTools: {}, serverResources: {} },
    { hostContext: context as never },
  );
  bridge.oncalltool = async (params, extra) => {
    extra.mcpReq.signal.addEventListener("abort", () => void host.hostCallCancelled(params));
    return (await host.hostCallTool(params)) as never;
  };
  bridge.onreadresource = async (params) => (await host.hostReadResource(params)) as never;
  bridge.onsizechange = ({ height }) => {
    if (height) frame.style.height = `${Math.ceil(height)}px`;
  };
  bridge.oninitialized = () => {
    void bridge?.sendToolInput({ arguments: options.toolArguments });
    if (options.cancelled) void bridge?.sendToolCancelled(options.cancelled);
    else void bridge?.sendToolResult(options.toolResult as never);
  };
  await bridge.connect(new PostMessageTransport(view, view));
  const csp = `<meta http-equiv="Content-Security-Policy" content="${CSP}">`;
  frame.srcdoc = options.html.replace("<head>", `<head>${csp}`);
};

host.setTheme = (theme) => {
  document.body.style.background = theme === "dark" ? "#1e1f22" : "#ffffff";
  context = { ...context, theme };
  bridge?.setHostContext(context as never);
};
