// Are the report's pictures the same? Draws each chart of two report files (before and after a change) in
// Debian's headless Chromium at its own size, pixel by pixel, and prints how many pixels differ visibly
// (a channel off by more than 64 of 255) and the largest difference; saves both as PNG beside the reports.
// Run: node bench/report-size/compare-pictures.mjs BEFORE.html AFTER.html
import { readFileSync, writeFileSync } from "node:fs";
import puppeteer from "puppeteer-core";

const [beforeFile, afterFile] = process.argv.slice(2);
const charts = (file) => [...readFileSync(file, "utf8").matchAll(/<svg[\s\S]*?<\/svg>/g)].map((m) => m[0]);
const before = charts(beforeFile);
const after = charts(afterFile);
if (before.length !== after.length) throw new Error(`${before.length} charts before, ${after.length} after`);

const browser = await puppeteer.launch({
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--font-render-hinting=none"],
});
const page = await browser.newPage();
await page.goto("about:blank");
let same = true;
for (let i = 0; i < before.length; i++) {
  const result = await page.evaluate(
    async (a, b) => {
      const draw = async (svg) => {
        const img = new Image();
        img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
        await img.decode();
        const canvas = document.createElement("canvas");
        canvas.width = img.naturalWidth;
        canvas.height = img.naturalHeight;
        const context = canvas.getContext("2d");
        context.drawImage(img, 0, 0);
        return { canvas, data: context.getImageData(0, 0, canvas.width, canvas.height).data };
      };
      const x = await draw(a);
      const y = await draw(b);
      if (x.data.length !== y.data.length) return { size: false };
      let visible = 0;
      let largest = 0;
      for (let p = 0; p < x.data.length; p += 4) {
        let d = 0;
        for (let c = 0; c < 4; c++) d = Math.max(d, Math.abs(x.data[p + c] - y.data[p + c]));
        largest = Math.max(largest, d);
        if (d > 64) visible++;
      }
      return {
        size: true,
        width: x.canvas.width,
        height: x.canvas.height,
        visible,
        largest,
        pngs: [x.canvas.toDataURL("image/png"), y.canvas.toDataURL("image/png")],
      };
    },
    before[i],
    after[i],
  );
  if (!result.size) {
    console.log(`chart ${i + 1}: sizes differ`);
    same = false;
    continue;
  }
  const pixels = result.width * result.height;
  console.log(
    `chart ${i + 1} (${result.width}×${result.height}): ${result.visible} of ${pixels} pixels differ visibly (${((100 * result.visible) / pixels).toFixed(3)}%), largest channel difference ${result.largest}`,
  );
  if (result.visible > pixels * 0.001) same = false;
  for (const [k, file] of [beforeFile, afterFile].entries()) {
    writeFileSync(
      file.replace(/\.html$/, `-chart${i + 1}.png`),
      Buffer.from(result.pngs[k].split(",")[1], "base64"),
    );
  }
}
await browser.close();
console.log(same ? "same pictures" : "the pictures differ");
process.exitCode = same ? 0 : 1;
