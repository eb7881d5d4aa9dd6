// Runs Lighthouse on one page with Debian's Chromium (CHROME_PATH), headless, and writes the JSON report.
//   node lighthouse-run.mjs URL OUT.json [USER_DATA_DIR]
// Mobile form factor with simulated throttling: Lighthouse computes the load on a slow phone and network
// from the page's own trace (Lantern) instead of timing it on this network. The CPU part of that
// simulation scales the main thread's measured task times by a slowdown factor, so on a host slower
// than the desktop Lighthouse's default assumes (benchmark index about 1000), the factor is calibrated
// down by the host's benchmark index, as Lighthouse's throttling guide does: the simulated phone stays
// the same phone whatever the load of the machine running the test. A given user data dir (prepared
// by the test: a seat token in localStorage) is used as it is, with its storage kept.
import { writeFileSync } from "node:fs";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

// The flags Debian's Chromium needs here: as root, no GPU, nothing phoning home.
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync"];
const DEFAULT_SLOWDOWN = 4;
const REFERENCE_INDEX = 1000;

const [url, out, userDataDir] = process.argv.slice(2);
if (!url || !out) {
  console.error("usage: node lighthouse-run.mjs URL OUT.json [USER_DATA_DIR]");
  process.exit(2);
}

async function run(slowdown) {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH || "/usr/bin/chromium", chromeFlags: FLAGS, userDataDir: userDataDir || undefined,
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port, output: "json", logLevel: "error", formFactor: "mobile", throttlingMethod: "simulate",
      throttling: { rttMs: 150, throughputKbps: 1638.4, cpuSlowdownMultiplier: slowdown },
      screenEmulation: { mobile: true, width: 412, height: 823, deviceScaleFactor: 1.75, disabled: false },
      onlyCategories: ["performance", "accessibility", "best-practices"], disableStorageReset: Boolean(userDataDir),
    });
    return result;
  } finally {
    await chrome.kill();
  }
}

let result = await run(DEFAULT_SLOWDOWN);
const index = result.lhr.environment.benchmarkIndex;
if (index < REFERENCE_INDEX) {
  const slowdown = Math.max(1, DEFAULT_SLOWDOWN * index / REFERENCE_INDEX);
  result = await run(slowdown);
  result.lhr.runWarnings.push(`talon: CPU slowdown calibrated to ${slowdown.toFixed(2)} for benchmark index ${index}`);
  result.report = JSON.stringify(result.lhr);
}
writeFileSync(out, result.report);
const scores = Object.fromEntries(Object.entries(result.lhr.categories).map(([k, v]) => [k, v.score]));
console.log(JSON.stringify({ url, benchmarkIndex: index, scores }));
