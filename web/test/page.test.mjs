// SPDX-License-Identifier: MIT
// Browser tests of the playground page (make test-web-page): Debian's chromium driven by
// playwright-core, the page opened from disk (file://) as users open it.
//   node --test web/test/   (BUILD=build by default; the page is $BUILD/web/index.html and the CLI
//   $BUILD/release/tools/spring). SCREENSHOTS=DIR keeps the section screenshots.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const build = path.resolve(repo, process.env.BUILD || 'build');
const pageFile = path.join(build, 'web/index.html');
const cli = process.env.SPRING_CLI || path.join(build, 'release/tools/spring');
const shots = process.env.SCREENSHOTS;
const SECTIONS = ['retarget', 'tuner', 'tail', 'undulation'];
const VIEWPORTS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };

let browser;
before(async () => {
  assert.ok(fs.existsSync(pageFile), `${pageFile} is missing: run make web`);
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
});
after(async () => { await browser?.close(); });

// Opens the page in a fresh context, recording console errors and failed requests.
async function open(viewport) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`failed request: ${r.url()}`));
  await page.goto(`file://${pageFile}`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  return { context, page, problems };
}

// Waits until a section has drawn `count` more frames. The tests wait for what they read, never
// for a time: on a busy machine the page only gets slower, and the wait with it.
async function framesDrawn(page, id, count = 1) {
  await page.evaluate(([sid, n]) => new Promise((resolve, reject) => {
    const el = document.getElementById(sid);
    const frames = () => Number(el.dataset.frames || 0);
    const target = frames() + n;
    const give_up = setTimeout(() => reject(new Error(`#${sid} drew ${frames()} of ${target} frames in 120 s`)), 120000);
    const check = () => {
      if (frames() >= target) {
        clearTimeout(give_up);
        resolve();
      } else {
        requestAnimationFrame(check);
      }
    };
    check();
  }), [id, count]);
}

// Variance of the screenshot's grey levels, computed by the browser from the PNG.
async function pixelVariance(page, png) {
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    let sum = 0, sq = 0, n = 0;
    for (let i = 0; i < d.length; i += 4) {
      const g = (d[i] + d[i + 1] + d[i + 2]) / 3;
      sum += g; sq += g * g; n++;
    }
    return sq / n - (sum / n) ** 2;
  }, png.toString('base64'));
}

for (const [name, viewport] of Object.entries(VIEWPORTS)) {
  describe(`the page on a ${name} (${viewport.width}x${viewport.height})`, () => {
    test('loads from file:// with no console errors or failed requests; each section draws something', { timeout: 300000 }, async () => {
      const { context, page, problems } = await open(viewport);
      for (const id of SECTIONS) {
        const section = page.locator(`#${id}`);
        await section.scrollIntoViewIfNeeded();
        await framesDrawn(page, id, 3);
        const png = await section.screenshot();
        if (shots) fs.writeFileSync(path.join(shots, `${name}-${id}.png`), png);
        const variance = await pixelVariance(page, png);
        assert.ok(variance > 100, `${id}: the screenshot is blank (grey-level variance ${variance.toFixed(1)})`);
        // and its canvases were drawn on: a blank canvas is transparent everywhere
        const drawn = await page.evaluate((sid) => [...document.querySelectorAll(`#${sid} canvas`)].every((c) => {
          const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
          let opaque = 0;
          for (let i = 3; i < d.length; i += 4) opaque += d[i] > 0;
          return opaque > d.length / 4 / 200; // at least 0.5 % of the pixels
        }), id);
        assert.ok(drawn, `${id}: a canvas is empty`);
      }
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page is ${overflow} px wider than the screen`);
      assert.deepEqual(problems, []);
      await context.close();
    });
  });
}

describe('retarget', () => {
  test('a click sends both balls toward it; the spring keeps its speed through a retarget, the tween drops to zero', { timeout: 300000 }, async () => {
    const { context, page, problems } = await open(VIEWPORTS.desktop);
    const field = page.locator('#retarget canvas.field');
    await field.scrollIntoViewIfNeeded();
    const box = await field.boundingBox();
    const state = () => page.evaluate(() => Array.from(window.playground.retarget.state));
    await framesDrawn(page, 'retarget', 2);
    const start = await state();
    // a target in the right half (both balls go to the same place of their halves), to the right
    const half = box.width / 2;
    const local = [start[0] + 0.3 * half, start[1]];
    await page.mouse.click(box.x + half + local[0], box.y + local[1]);
    const distance = (s, i, p) => Math.hypot(s[i] - p[0], s[i + 1] - p[1]);
    // Mid-flight (both well under way), a second click further on the same way: sent from the
    // page on the frame it is due, so that the browser's frame rate cannot make it late.
    const second = [half - 20, start[1]];
    const moving = await page.evaluate(({ x, y }) => new Promise((resolve) => {
      const canvas = document.querySelector('#retarget canvas.field');
      let frames = 0;
      const due = () => {
        const r = window.playground.retarget;
        const n = r.spring.length - 1;
        if (r.clicks.length === 1 && n > r.clicks[0] && r.spring[n] > 100 && r.tween[n] > 100) {
          const state = Array.from(r.state);
          canvas.dispatchEvent(new PointerEvent('pointerdown', { clientX: x, clientY: y, bubbles: true }));
          resolve(state);
        } else if (++frames > 240) {
          resolve(null); // never both under way: reported below
        } else {
          requestAnimationFrame(due);
        }
      };
      due();
    }), { x: box.x + half + second[0], y: box.y + second[1] });
    assert.ok(moving, 'the tween and the spring were never both under way');
    assert.ok(distance(moving, 0, local) < distance(start, 0, local) - 1, `spring: ${start} -> ${moving}`);
    assert.ok(distance(moving, 3, local) < distance(start, 3, local) - 1, `tween: ${start} -> ${moving}`);
    // both balls head for the second click: wait until each has come 20 px nearer
    const near = ({ m, p }) => {
      const s = window.playground.retarget.state;
      return [0, 3].every((i) => Math.hypot(s[i] - p[0], s[i + 1] - p[1]) < Math.hypot(m[i] - p[0], m[i + 1] - p[1]) - 20);
    };
    await page.waitForFunction(near, { m: moving, p: second }, { timeout: 120000 }).catch(() => {});
    const later = await state();
    for (const i of [0, 3]) {
      assert.ok(distance(later, i, second) < distance(moving, i, second) - 20, `toward the click: ${moving} -> ${later}`);
    }
    // The speed series at the retarget: the last frame before it and the instant of it (the page
    // records the speeds when a click retargets, no time passing).
    const r = await page.evaluate(() => {
      const rec = window.playground.retarget;
      const c = rec.clicks[rec.clicks.length - 1];
      return { spring: rec.spring.slice(c - 3, c + 3), tween: rec.tween.slice(c - 3, c + 3) };
    });
    const [tb, ta, sb, sa] = [r.tween[2], r.tween[3], r.spring[2], r.spring[3]];
    assert.ok(tb > 100 && sb > 100, `both were moving at the retarget (tween ${tb}, spring ${sb} px/s)`);
    assert.ok(ta < 0.05 * tb, `the tween has a cliff: ${r.tween.map(Math.round)} px/s`);
    assert.ok(Math.abs(sa - sb) < 0.01 * sb, `the spring has no cliff: ${r.spring.map(Math.round)} px/s`);
    assert.deepEqual(problems, []);
    await context.close();
  });
});

describe('tuner', () => {
  test('duration 0.5, bounce 0.3 shows stiffness 157.9 and damping 17.6; the CSS is the CLI\'s', { timeout: 300000 }, async () => {
    const { context, page, problems } = await open(VIEWPORTS.desktop);
    const set = async (name, value) => {
      const input = page.locator(`input[name="${name}"]`);
      await input.fill(String(value));
    };
    await set('duration-bounce.duration', 1.2);
    await set('duration-bounce.bounce', 0);
    const text = (k) => page.locator(`[data-out="${k}"]`).textContent();
    assert.notEqual(await text('stiffness'), '157.9');
    await set('duration-bounce.duration', 0.5);
    await set('duration-bounce.bounce', 0.3);
    assert.equal(await text('stiffness'), '157.9');
    assert.equal(await text('damping'), '17.6');
    // the other parameterisations followed (frequency 2 Hz, damping ratio 0.7)
    assert.equal(await page.locator('input[name="frequency.frequency"]').inputValue(), '2');
    assert.equal(await page.locator('input[name="frequency.dampingRatio"]').inputValue(), '0.7');
    const cliOut = execFileSync(cli, ['css', '--duration', '0.5', '--bounce', '0.3'], { encoding: 'utf8' });
    const cliLines = cliOut.split('\n').filter((l) => /^transition-(timing-function|duration):/.test(l)).join('\n');
    assert.match(cliLines, /^transition-timing-function: linear\(/);
    const shown = await page.locator('[data-snippet="css"] pre').textContent();
    assert.equal(shown, cliLines);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']).catch(() => {});
    await page.locator('[data-snippet="css"] button').click();
    await page.waitForFunction(() => document.getElementById('tuner').dataset.copied !== undefined);
    assert.equal(await page.evaluate(() => document.getElementById('tuner').dataset.copied), cliLines);
    const clipboard = await page.evaluate(() => navigator.clipboard.readText().catch(() => null));
    if (clipboard !== null) assert.equal(clipboard, cliLines);
    // and a bad value is refused with the library's reason, the rest of the page unchanged
    await set('duration-bounce.duration', -1);
    assert.match(await page.locator('[data-group="duration-bounce"] .error').textContent(), /duration/);
    assert.equal(await text('stiffness'), '157.9');
    assert.deepEqual(problems, []);
    await context.close();
  });
});

// Each trap's measured property with the switch on, and with it off again (the library's).
const TRAP_BOUNDS = {
  'euler': { on: (v) => v > 1.5, off: (v) => v < 1.1 },                 // energy left vs exact
  'variable-step': { on: (v) => v > 10, off: (v) => v < 2 },            // % tip spread across frame rates
  'previous-order': { on: (v) => v > 6, off: (v) => v < 1 },            // degrees of tip lag
  'no-projection': { on: (v) => v > 20, off: (v) => v < 1 },            // % stretch
  'keep-velocity': { on: (v) => v > 1, off: (v) => v < 0.01 },          // tip speed at rest
  'no-folding': { on: (v) => v > 180, off: (v) => v < 90 },             // degrees from target in a flip
  'springs-before-ik': { on: (v) => v > 20, off: (v) => v < 5 },        // gap hand to ribbon
  'teleport-no-reset': { on: (v) => v > 15, off: (v) => v < 1 },        // hair swing after a teleport
};

describe('tail and hair', () => {
  test('each trap switch moves its measured property past its bound; switching back restores it', { timeout: 300000 }, async () => {
    const { context, page, problems } = await open(VIEWPORTS.desktop);
    const ids = await page.evaluate(() => [...document.querySelectorAll('#tail .trap')].map((r) => r.dataset.trap));
    assert.deepEqual(ids.sort(), Object.keys(TRAP_BOUNDS).sort());
    for (const [id, bound] of Object.entries(TRAP_BOUNDS)) {
      const row = page.locator(`#tail .trap[data-trap="${id}"]`);
      const value = () => row.evaluate((r) => Number(r.dataset.value));
      assert.ok(bound.off(await value()), `${id}: the library's figure ${await value()} is out of bounds`);
      await row.locator('input').check();
      await page.waitForFunction(() => document.getElementById('tail').dataset.measuredFlags !== '0');
      const on = await value();
      assert.ok(bound.on(on), `${id}: with the trap the figure is only ${on}`);
      await framesDrawn(page, 'tail', 10); // the live scene runs with the trap
      await row.locator('input').uncheck();
      await page.waitForFunction(() => document.getElementById('tail').dataset.measuredFlags === '0');
      const off = await value();
      assert.ok(bound.off(off), `${id}: switched back, the figure is ${off}`);
    }
    // the frame-rate selector, the flip and the teleport run without errors at every rate
    for (const rate of ['24', '30', '60', '144', '240', 'jittery']) {
      await page.locator(`#tail input[name="fps"][value="${rate}"]`).check({ force: true });
      await framesDrawn(page, 'tail', 5);
    }
    await page.locator('#tail button.flip').click();
    await page.locator('#tail button.teleport').click();
    await framesDrawn(page, 'tail', 20);
    const frames = await page.evaluate(() => window.playground.traps.frames);
    assert.ok(frames > 30, `the character ran ${frames} frames`);
    assert.deepEqual(problems, []);
    await context.close();
  });
});

describe('undulation', () => {
  test('the 3D tail moves with its root and stays out of the sphere', { timeout: 300000 }, async () => {
    const { context, page, problems } = await open(VIEWPORTS.desktop);
    const canvas = page.locator('#undulation canvas');
    await canvas.scrollIntoViewIfNeeded();
    // the section steps its tail from its second drawn frame on (the first has no frame time)
    await page.waitForFunction(() => window.playground.undulation.points !== null, null, { timeout: 120000 });
    const before = await page.evaluate(() => Array.from(window.playground.undulation.points));
    const box = await canvas.boundingBox();
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.3);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.65, box.y + box.height * 0.4, { steps: 5 });
    await page.mouse.up();
    // the root moved with the drag: wait for a frame that stepped the tail from it
    await page.waitForFunction((b) => window.playground.undulation.points.slice(0, 3).some((v, i) => v !== b[i]),
      before, { timeout: 120000 }).catch(() => {});
    const after_ = await page.evaluate(() => Array.from(window.playground.undulation.points));
    assert.notDeepEqual(after_.slice(0, 3), before.slice(0, 3));
    assert.equal(await page.evaluate(() => window.playground.undulation.depth), 0);
    assert.deepEqual(problems, []);
    await context.close();
  });
});

describe('served as separate modules', () => {
  test('build/web/static/ loads from a static server with no console errors or failed requests', { timeout: 300000 }, async () => {
    const root = path.join(build, 'web/static');
    const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
    const server = http.createServer((req, res) => {
      const file = path.join(root, decodeURIComponent(new URL(req.url, 'http://x').pathname));
      if (!file.startsWith(root) || !fs.existsSync(file)) {
        res.writeHead(404);
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
      res.end(fs.readFileSync(file));
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
      const page = await context.newPage();
      const problems = [];
      page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('requestfailed', (r) => problems.push(`failed request: ${r.url()}`));
      page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
      await page.goto(`http://127.0.0.1:${server.address().port}/web/index.html`);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
      assert.equal(await page.locator('[data-out="stiffness"]').textContent(), '157.9');
      assert.deepEqual(problems, []);
      await context.close();
    } finally {
      server.close();
    }
  });
});
