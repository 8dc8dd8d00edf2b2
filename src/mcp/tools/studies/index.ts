import type { McpServer } from "@modelcontextprotocol/server";
import type { ToolContext } from "../../tool-context.js";
import { registerRegisterStudy } from "./register-study.js";

/** Toolset `studies`: pre-registering designs that players then take with next_trial. */
export function registerStudiesToolset(server: McpServer, context: ToolContext): void {
  registerRegisterStudy(server, context);
}
