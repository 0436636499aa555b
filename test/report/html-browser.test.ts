/**
 * report.html opened in headless Chromium (Debian's `chromium` package; `.ci/run` installs it). Checked from
 * the rendered page: the findings table has rows, both charts are drawn with points and a real size, nothing
 * is fetched beyond the page itself. A full-page screenshot is kept in a temp folder (its path is printed).
 * Without a browser the test says why and is skipped on a laptop, and fails when CI=true (CI must have one:
 * `.ci/run` installs it). CHROMIUM_PATH points to another binary.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { renderReportHtml } from '../../src/render/report-html.ts';
import { seedReport } from './fixture-report.ts';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
// Outside the source tree: tests write nothing into the repository.
const ARTIFACTS = join(tmpdir(), 'steward-test-artifacts') + sep;
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

if (!existsSync(CHROMIUM) && process.env['CI'] === 'true') {
  test('report.html in headless Chromium (CI=true: a browser is required)', () => {
    assert.unreachable(`no Chromium at ${CHROMIUM}: CI must install it (.ci/run does, with apt-get install chromium), or set CHROMIUM_PATH`);
  });
} else if (!existsSync(CHROMIUM)) {
  process.stdout.write(`\nhtml-browser.test.ts: skipped, no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)\n`);
  test.skip('report.html in headless Chromium', () => {});
} else {
  test('report.html in headless Chromium: findings table and both charts rendered, nothing fetched', async () => {
    const { chromium } = await import('playwright-core');
    mkdirSync(ARTIFACTS, { recursive: true });
    const file = `${ARTIFACTS}report.html`;
    writeFileSync(file, renderReportHtml(await seedReport()));

    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 15_000 });
    try {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      const url = pathToFileURL(file).href;
      await page.goto(url);

      // The summary and the findings, as the browser rendered them.
      assert.match((await page.getByTestId('summary').innerText()).replace(/\s+/g, ' '), /prod-warehouse 2 6 2 30 5 2/);
      const tables = page.getByTestId('findings-table');
      assert.is(await tables.count(), 2);
      const rows = tables.first().getByTestId('finding');
      assert.is(await rows.count(), 10);
      assert.match(await rows.first().innerText(), /error\s+pipe\.state\s+pipe logs-from-s3/);
      assert.ok((await tables.first().boundingBox())!.height > 200, 'findings table has height');
      assert.is(await page.locator('[data-testid="finding"][data-finding-id="pipe.missing"]').count(), 1);

      // Both charts in the prod section: an SVG of real size with a line and one point per plotted backup.
      const prod = page.getByTestId('service').first();
      for (const [id, points] of [
        ['chart-backup-size', 28],
        ['chart-backup-duration', 29],
      ] as const) {
        const chart = prod.getByTestId(id);
        assert.is(await chart.count(), 1, id);
        const svg = chart.locator('svg[role="img"]');
        const box = await svg.boundingBox();
        assert.ok(box && box.width > 200 && box.height > 60, `${id} drawn at ${JSON.stringify(box)}`);
        assert.is(await svg.locator('circle').count(), points, `${id} points`);
        const line = await svg.locator('polyline.series').getAttribute('points');
        assert.ok(line && line.split(' ').length === points, `${id} line`);
        // Points are inside the drawing, not collapsed onto one spot.
        const ys = await svg.locator('circle').evaluateAll((cs) => cs.map((c) => Number(c.getAttribute('cy'))));
        assert.ok(new Set(ys).size > 3, `${id} varies`);
      }
      // A tooltip without script: the slow backup's point says how long it took.
      assert.match((await prod.getByTestId('chart-backup-duration').locator('circle title').allTextContents()).join('\n'), /3h 5m/);

      assert.equal(requests, [url], 'no request beyond the page itself');
      assert.equal(errors, []);
      await page.screenshot({ path: `${ARTIFACTS}report.png`, fullPage: true });
      assert.ok(existsSync(`${ARTIFACTS}report.png`));
    } finally {
      await browser.close();
    }
  });
}

test.run();
