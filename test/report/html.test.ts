import { describe, expect, it } from "vitest";
import { html, trustedHtml } from "../../src/report/html.js";

describe("html template", () => {
  it("escapes the five markup characters in interpolated strings", () => {
    const name = `<b>"Tom" & 'Jerry'</b>`;
    expect(html`<td>${name}</td>`.text).toBe(
      "<td>&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;</td>",
    );
  });

  it("inserts trusted markup, nested templates and lists unchanged, and nothing for null", () => {
    const cells = [html`<td>${"a<"}</td>`, html`<td>${2}</td>`];
    expect(html`<tr>${cells}${null}${trustedHtml("<svg></svg>")}</tr>`.text).toBe(
      "<tr><td>a&lt;</td><td>2</td><svg></svg></tr>",
    );
  });
});
