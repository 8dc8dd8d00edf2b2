import { type McpServer, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { printable } from "../queries/format.js";
import { wrapRequestHandler } from "./wrap-request-handler.js";

/** The list methods: each answers in one page, so its result never carries a `nextCursor`. */
const LIST_METHODS = ["tools/list", "prompts/list", "resources/list", "resources/templates/list"] as const;

interface ListRequest {
  params?: { cursor?: unknown };
}

/**
 * A list request with a cursor is refused as invalid params (MCP pagination: "Invalid cursors SHOULD result
 * in an error with code -32602"). This server lists everything in one page and never hands out a cursor,
 * so every cursor is one it did not issue; the SDK ignored it and answered the first page again, which a
 * client paging on would take for the next page (duplicates, or a loop). An empty cursor is read as none.
 */
export function guardListCursors(server: McpServer): void {
  for (const method of LIST_METHODS) {
    wrapRequestHandler(server, method, (inner) => async (request: unknown, ctx: unknown) => {
      const cursor = (request as ListRequest).params?.cursor;
      if (typeof cursor === "string" && cursor !== "") {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Invalid cursor ${printable(JSON.stringify(cursor.slice(0, 100)))}: ${method} answers in one page and gives no nextCursor, so no cursor is valid; list without one.`,
        );
      }
      return inner(request, ctx);
    });
  }
}
