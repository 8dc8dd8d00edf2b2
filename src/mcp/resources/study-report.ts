import { type McpServer, ResourceNotFoundError, ResourceTemplate } from "@modelcontextprotocol/server";
import { printable } from "../../queries/format.js";
import type { ToolContext } from "../tool-context.js";
import { startingWith } from "./catalog-resources.js";
import { templateVariable } from "./template-variable.js";

/**
 * `same-game://studies/{id}/report`: the study's HTML report (the page `same-game report --study ID`
 * writes), so a host can show or save it without a shell. Like the analysis tools it reads this client's
 * part of the study's play (a principal never sees another's); one resource is listed per study.
 */
export function registerStudyReport(server: McpServer, { deps, caller }: ToolContext): void {
  // The caller's view of the record: its own studies and play (and the operator's studies), never another
  // principal's, not even a study's name.
  const visible = deps.store.scopedTo(caller.principal);
  server.registerResource(
    "study-report",
    new ResourceTemplate("same-game://studies/{id}/report", {
      list: () => ({
        resources: visible.listStudies().map((study) => ({
          uri: `same-game://studies/${study.id}/report`,
          name: `Report of ${study.name}`,
          mimeType: "text/html",
        })),
      }),
      complete: {
        id: (typed) =>
          startingWith(
            visible.listStudies().map((s) => s.id),
            typed ?? "",
          ),
      },
    }),
    {
      title: "Study report",
      description:
        "Self-contained HTML report of one registered study: cooperation by framing, robustness R and shifts, payoff sensitivity λ, repeated-play comprehension, verification checks.",
      mimeType: "text/html",
    },
    async (uri, variables) => {
      const id = templateVariable(uri, variables, "id");
      const study = visible.getStudy(id);
      if (!study) {
        throw new ResourceNotFoundError(
          uri.href,
          `No study with id "${printable(id)}"; registered studies are listed under resources.`,
        );
      }
      // Loaded on first read: the renderer pulls in vega and vega-lite, and the query all the analysis code,
      // which a serving process otherwise never needs.
      const [{ reportData }, { renderReportHtml }] = await Promise.all([
        import("../../queries/report-data-query.js"),
        import("../../report/render-report.js"),
      ]);
      const text = await renderReportHtml(reportData({ ...deps, store: visible }, { study_id: study.id }));
      return { contents: [{ uri: uri.href, mimeType: "text/html", text }] };
    },
  );
}
