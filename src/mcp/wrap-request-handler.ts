import type { McpServer } from "@modelcontextprotocol/server";

export type RequestHandler = (request: unknown, ctx: unknown) => Promise<unknown>;

/**
 * Puts `wrap` in front of the SDK's stored handler of `method`, which gets the SDK's own handler as
 * `inner`. The SDK has no hook in front of its own request validation, so the handler is replaced in
 * place; the guards' tests fail loudly if an SDK update moves it. A method with no handler (nothing of
 * it registered) is left to the SDK, which answers it as unknown.
 */
export function wrapRequestHandler(
  server: McpServer,
  method: string,
  wrap: (inner: RequestHandler) => RequestHandler,
): void {
  const handlers = (server.server as unknown as { _requestHandlers?: unknown })._requestHandlers;
  if (!(handlers instanceof Map)) {
    throw new Error(
      `The MCP SDK no longer keeps its request handlers where the ${method} guard expects them.`,
    );
  }
  const inner = handlers.get(method) as RequestHandler | undefined;
  if (inner !== undefined) handlers.set(method, wrap(inner));
}
