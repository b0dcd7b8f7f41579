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

// A console error or warning of the page's. Not one: the software GL driver's performance note
// when a test reads the WebGL canvas's pixels back (a screenshot), which is chromium's own.
const isProblem = (m) => (m.type() === 'error' || m.type() === 'warning') && !/GL Driver Message \(OpenGL, Performance/.test(m.text());

// Opens the page in a fresh context, recording console errors and failed requests.
async function open(viewport) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (isProblem(m)) problems.push(`console ${m.type()}: ${m.text()}`); });
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
      // the speed graph's axes carry values (0 px/s up, and "now")
      const axis = await page.evaluate(() => window.playground.retarget.axis);
      assert.ok(axis && axis.speed[0] === 0 && axis.speed.length >= 2 && axis.seconds.at(-1) === 0, JSON.stringify(axis));
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
    // the speed graph's axis values: from 0 up past the fastest speed it shows, in seconds back to now
    // (once the graph holds more than a second: waited for by the page's own clock, not a timer)
    await page.waitForFunction(() => {
      const t = window.playground.retarget.time;
      return t.length > 1 && t[t.length - 1] - t[Math.max(0, t.length - 240)] > 1.1;
    }, null, { timeout: 120000 });
    await framesDrawn(page, 'retarget', 1);
    const axis = await page.evaluate(() => {
      const rec = window.playground.retarget;
      const from = Math.max(0, rec.time.length - 240);
      return { ...rec.axis, fastest: Math.max(...rec.spring.slice(from), ...rec.tween.slice(from)) };
    });
    assert.equal(axis.speed[0], 0);
    assert.ok(axis.speed.length >= 3 && axis.speed.at(-1) >= axis.fastest && axis.speed.at(-2) < axis.fastest * 1.05,
      `speed axis ${axis.speed} for a fastest ${axis.fastest} px/s`);
    assert.equal(axis.seconds.at(-1), 0);
    assert.ok(axis.seconds.length >= 2, `seconds axis ${axis.seconds}`);
    assert.deepEqual(problems, []);
    await context.close();
  });
});

// The tuner's helpers: set a field as a person types it; read a figure.
const setField = (page, key, value) => page.locator(`input[name="tuner.${key}"]`).fill(String(value));
const figure = (page, k) => page.locator(`#tuner [data-out="${k}"]`).textContent();
const cliJson = (...args) => JSON.parse(execFileSync(cli, [...args, '--json'], { encoding: 'utf8' }));

// Chooses Time or Physics as a person does: the switch scrolled into sight (below what stays at the
// top of a phone's screen), then its label clicked.
async function chooseMode(page, mode) {
  const choice = page.locator(`#tuner .mode label:has(input[value="${mode}"]) span`);
  await choice.evaluate((el) => el.scrollIntoView({ block: 'end' }));
  await choice.click();
  assert.equal(await page.locator(`#tuner .mode input[value="${mode}"]`).isChecked(), true);
}

// A screenshot of what a test just checked, kept under SCREENSHOTS, and checked for content.
async function shot(page, locator, file) {
  const png = await locator.screenshot();
  if (shots) fs.writeFileSync(path.join(shots, `${file}.png`), png);
  const variance = await pixelVariance(page, png);
  assert.ok(variance > 100, `${file}: the screenshot is blank (grey-level variance ${variance.toFixed(1)})`);
}

for (const [size, viewport] of Object.entries(VIEWPORTS)) describe(`tuner on a ${size}`, () => {
  test('duration 0.5, bounce 0.3: stiffness 157.9, damping 17.6; one settle figure (settleTime, spring params, the curve); the CSS is the CLI\'s', { timeout: 300000 }, async () => {
    const { context, page, problems } = await open(viewport);
    await setField(page, 'duration', 1.2);
    await setField(page, 'bounce', 0);
    assert.notEqual(await figure(page, 'stiffness'), '157.9');
    await setField(page, 'duration', 0.5);
    await setField(page, 'bounce', 0.3);
    assert.equal(await figure(page, 'stiffness'), '157.9');
    assert.equal(await figure(page, 'damping'), '17.6');
    assert.equal(await figure(page, 'damping-ratio'), '0.700');
    assert.equal(await figure(page, 'frequency'), '2.000 Hz');
    // One settle figure: the page's, its settleTime() and `spring params`' exact settling time
    const exact = cliJson('params', '--duration', '0.5', '--bounce', '0.3').settling.time_exact;
    const inPage = await page.evaluate(() => window.playground.tuner.params.settleTime());
    assert.equal(await figure(page, 'settle'), `${exact.toFixed(3)} s`);
    assert.equal(await figure(page, 'settle'), '0.819 s');
    assert.equal(inPage.toFixed(3), exact.toFixed(3));
    await shot(page, page.locator('#tuner .tuner-view'), `${size}-tuner-settle`);
    // the curve's settle line is the same number
    assert.equal(await page.evaluate(() => window.playground.tuner.settle.toFixed(3)), exact.toFixed(3));
    // The CSS: the CLI's text; its duration ends after the settle time, at most two stops later
    const cliOut = execFileSync(cli, ['css', '--duration', '0.5', '--bounce', '0.3'], { encoding: 'utf8' });
    const cliLines = cliOut.split('\n').filter((l) => /^transition-(timing-function|duration):/.test(l)).join('\n');
    assert.match(cliLines, /^transition-timing-function: linear\(/);
    const shown = await page.locator('[data-snippet="css"] pre').textContent();
    assert.equal(shown, cliLines);
    const cssMs = Number(/transition-duration: (\d+)ms/.exec(shown)[1]);
    assert.ok(cssMs / 1000 >= exact && cssMs / 1000 < exact + 0.02, `CSS ${cssMs} ms against a settle time of ${exact} s`);
    assert.match(await page.locator('[data-snippet="css"] .snippet-note').textContent(), /820 ms here, for a settle time from rest of 0\.819 s/);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']).catch(() => {});
    await page.locator('[data-snippet="css"] button').click();
    await page.waitForFunction(() => document.getElementById('tuner').dataset.copied !== undefined);
    assert.equal(await page.evaluate(() => document.getElementById('tuner').dataset.copied), cliLines);
    const clipboard = await page.evaluate(() => navigator.clipboard.readText().catch(() => null));
    if (clipboard !== null) assert.equal(clipboard, cliLines);
    // Time -> Physics keeps the spring: the physics fields read it, nothing changes
    await chooseMode(page, 'physics');
    assert.equal(await page.locator('input[name="tuner.stiffness"]').inputValue(), '157.9');
    assert.equal(await page.locator('input[name="tuner.damping"]').inputValue(), '17.59');
    assert.equal(await page.locator('input[name="tuner.mass"]').inputValue(), '1');
    assert.equal(await page.locator('input[name="tuner.duration"]').isVisible(), false);
    assert.equal(await figure(page, 'damping-ratio'), '0.700');
    assert.equal(await figure(page, 'settle'), '0.819 s');
    await setField(page, 'damping', 25.13);
    assert.equal(await figure(page, 'damping-ratio'), '1.000');
    const physical = await page.evaluate(() => window.playground.tuner.params.toJSON());
    await chooseMode(page, 'time');
    assert.ok(Math.abs(Number(await page.locator('input[name="tuner.bounce"]').inputValue())) < 1e-3);
    // switching modes alone changes nothing (the rounded fields are not read back)
    assert.deepEqual(await page.evaluate(() => window.playground.tuner.params.toJSON()), physical);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('presets: SwiftUI and Material 3 Expressive are the library\'s, Compose\'s constants and react-spring\'s config.* as those libraries publish them', { timeout: 300000 }, async () => {
    const { context, page, problems } = await open(viewport);
    const pick = async (name, value) => {
      const plays = await page.evaluate(() => Number(document.getElementById('tuner').dataset.plays || 0));
      await page.locator(`#tuner select[name="${name}"]`).selectOption(value);
      // a preset replays the card
      assert.equal(await page.evaluate(() => Number(document.getElementById('tuner').dataset.plays)), plays + 1);
      // the CSS note's claim: the CSS duration ends at or after the settle time (the curve also has
      // to be nearly still: 84 ms after it for Compose's HighBouncy at StiffnessLow)
      const { cssMs, settle } = await page.evaluate(() => ({ cssMs: window.playground.tuner.cssMs,
        settle: window.playground.tuner.params.settleTime() }));
      assert.ok(cssMs / 1000 >= settle, `${value}: CSS ${cssMs} ms, settles ${settle} s`);
    };
    const physics = async () => [Number(await figure(page, 'stiffness')), Number(await figure(page, 'damping')),
      Number(await figure(page, 'mass'))];
    // SwiftUI .bouncy: duration 0.5, bounce 0.3 (k 157.914, c 17.5929)
    await pick('preset-swiftui', 'bouncy');
    assert.deepEqual(await physics(), [157.9, 17.6, 1]);
    assert.equal(await page.locator('input[name="tuner.bounce"]').inputValue(), '0.3');
    await pick('preset-swiftui', 'smooth');
    assert.deepEqual(await physics(), [157.9, 25.1, 1]);
    // Material 3 Expressive: the CLI's preset (the same table)
    for (const name of ['expressive-fast-spatial', 'standard-default-effects']) {
      await pick('preset-material', name);
      const c = cliJson('params', '--preset', name).spring;
      assert.deepEqual(await physics(), [Number(c.stiffness.toFixed(1)), Number(c.damping.toFixed(1)), c.mass], name);
    }
    // expressive-fast-spatial is stiffness 800, damping ratio 0.6
    await pick('preset-material', 'expressive-fast-spatial');
    assert.equal(await figure(page, 'damping-ratio'), '0.600');
    assert.equal(await figure(page, 'stiffness'), '800.0');
    // an initial velocity does not read the spring back from its rounded fields
    const exactly = await page.evaluate(() => window.playground.tuner.params.toJSON());
    await setField(page, 'velocity', 1);
    assert.deepEqual(await page.evaluate(() => window.playground.tuner.params.toJSON()), exactly);
    await setField(page, 'velocity', 0);
    // react-spring config.wobbly {tension 180, friction 12}, config.molasses {280, 120}
    await pick('preset-react-spring', 'wobbly');
    assert.deepEqual(await physics(), [180, 12, 1]);
    await pick('preset-react-spring', 'molasses');
    assert.deepEqual(await physics(), [280, 120, 1]);
    // Compose: spring(dampingRatio = Spring.DampingRatioHighBouncy, stiffness = Spring.StiffnessLow): 0.2, 200
    await pick('preset-compose-damping', 'DampingRatioHighBouncy');
    await pick('preset-compose-stiffness', 'StiffnessLow');
    assert.equal(await figure(page, 'stiffness'), '200.0');
    assert.equal(await figure(page, 'damping-ratio'), '0.200');
    assert.equal(await figure(page, 'damping'), (2 * 0.2 * Math.sqrt(200)).toFixed(1));
    // the other families' menus went back to their titles; Compose's pair stays
    assert.equal(await page.locator('#tuner select[name="preset-react-spring"]').inputValue(), '');
    await shot(page, page.locator('#tuner .tuner-view'), `${size}-tuner-preset`);
    assert.equal(await page.locator('#tuner select[name="preset-compose-damping"]').inputValue(), 'DampingRatioHighBouncy');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('errors name the field and its range in plain words beside it; an emptied field is not 0; the old figures are marked', { timeout: 300000 }, async () => {
    const { context, page, problems } = await open(viewport);
    const error = (key) => page.locator(`#tuner [data-field="${key}"] .error`).textContent();
    const stale = () => page.evaluate(() => document.getElementById('tuner').dataset.stale);
    assert.equal(await stale(), 'false');
    assert.equal(await page.locator('#tuner .stale-note').isVisible(), false);
    await setField(page, 'bounce', 1.5);
    assert.equal(await error('bounce'), 'Bounce must be more than -1 and at most 1 (it is 1.5).');
    assert.equal(await error('duration'), '');
    assert.equal(await stale(), 'true');
    assert.ok(await page.locator('#tuner .stale-note').isVisible());
    assert.match(await page.locator('#tuner .stale-note').textContent(), /last valid spring \(duration 0\.5 s, bounce 0\.3/);
    assert.equal(await figure(page, 'stiffness'), '157.9');
    await page.locator('#tuner [data-field="bounce"]').evaluate((el) => el.scrollIntoView({ block: 'end' }));
    await shot(page, page.locator('#tuner [data-field="bounce"]'), `${size}-tuner-error`);
    // the figures say they are old
    assert.equal(await page.locator('#tuner [data-out="settle"]').evaluate((el) => getComputedStyle(el, '::after').content), '" (old)"');
    // the bound itself is allowed
    await setField(page, 'bounce', 1);
    assert.equal(await error('bounce'), '');
    assert.equal(await stale(), 'false');
    await setField(page, 'bounce', 0.3);
    await setField(page, 'duration', -1);
    assert.equal(await error('duration'), 'Duration must be more than 0 (it is -1).');
    assert.equal(await stale(), 'true');
    // emptied: said so, not read as 0
    await setField(page, 'duration', '');
    assert.equal(await error('duration'), 'Duration is empty: type a number.');
    assert.equal(await figure(page, 'stiffness'), '157.9');
    await setField(page, 'velocity', '');
    assert.equal(await error('velocity'), 'Initial velocity is empty: type a number.');
    await setField(page, 'velocity', 0);
    await setField(page, 'duration', 0.5);
    assert.equal(await stale(), 'false');
    assert.equal(await error('duration'), '');
    // physics mode: each field's own range
    await chooseMode(page, 'physics');
    await setField(page, 'damping', -2);
    assert.equal(await error('damping'), 'Damping must be at least 0 (it is -2).');
    await setField(page, 'damping', 0);
    assert.equal(await error('damping'), '');
    await setField(page, 'mass', 0);
    assert.equal(await error('mass'), 'Mass must be more than 0 (it is 0).');
    // no page text speaks the library's internal prefix
    assert.doesNotMatch(await page.locator('#tuner').textContent(), /springParams|invalid spring/);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('the card replays the spring beside the curve: it moves, grows and turns, and comes to rest at the target; initial velocity and reduced motion change the preview', { timeout: 300000 }, async () => {
    const { context, page, problems } = await open(viewport);
    const tuner = page.locator('#tuner');
    await tuner.scrollIntoViewIfNeeded();
    const card = page.locator('#tuner .card');
    const curve = await page.locator('#tuner canvas.curve').boundingBox();
    const stage = await page.locator('#tuner .card-stage').boundingBox();
    assert.ok(stage.x >= curve.x + curve.width && Math.abs(stage.y - curve.y) < 1, 'the card sits beside the curve');
    const transformAt = () => card.evaluate((el) => ({ value: Number(el.dataset.value), t: el.style.transform }));
    // clicked and read in one task, before any frame moves it
    const start = await page.evaluate(() => {
      document.querySelector('#tuner button.play').click();
      const el = document.querySelector('#tuner .card');
      return { value: Number(el.dataset.value), t: el.style.transform };
    });
    assert.equal(start.value, 0);
    assert.match(start.t, /^translateY\([\d.-]+px\) scale\(0\.7\) rotate\(-25deg\)$/);
    const seen = [];
    await page.waitForFunction(() => document.getElementById('tuner').dataset.playing === 'false', null, { timeout: 120000 });
    const end = await transformAt();
    // at rest: full size and upright
    const [, scale, turn] = /scale\(([\d.]+)\) rotate\(([-\d.e]+)deg\)/.exec(end.t).map(Number);
    assert.ok(Math.abs(scale - 1) < 0.005 && Math.abs(turn) < 0.5, end.t);
    const trail = await page.evaluate(() => window.playground.tuner.play.trail.map(([, v]) => v));
    seen.push(...trail);
    assert.ok(Math.max(...seen) > 1.03, `it overshoots as the curve does (peak ${Math.max(...seen)})`);
    assert.ok(Math.abs(end.value - 1) < 0.01, `at rest on the target: ${end.value}`);
    await shot(page, page.locator('#tuner .card-stage'), `${size}-tuner-card`);
    const cardBox = await card.boundingBox();
    assert.ok(cardBox.y >= stage.y && cardBox.y + cardBox.height <= stage.y + stage.height, 'the card stays on its stage');
    // Initial velocity: the settle figure is settleTime's for that move; the replay starts with it
    await setField(page, 'velocity', 5);
    const withV = await page.evaluate(() => window.playground.tuner.params.settleTime({ velocity: 5 }));
    assert.equal(await figure(page, 'settle'), `${withV.toFixed(3)} s`);
    assert.notEqual(await figure(page, 'settle'), '0.819 s');
    await page.locator('#tuner button.play').click();
    await framesDrawn(page, 'tuner', 3);
    const fast = await page.evaluate(() => {
      const { play, params } = window.playground.tuner;
      const [t, v] = play.trail[1];
      return { v, withV: params.evaluate(t, { velocity: 5 }).value, without: params.evaluate(t).value };
    });
    assert.ok(Math.abs(fast.v - fast.withV) < 1e-3 && fast.v > fast.without, JSON.stringify(fast));
    await setField(page, 'velocity', 0);
    // Reduced motion: the library's reduced form, no overshoot, within half the settle time
    await page.locator('#tuner input[name="reduced-motion"]').check();
    assert.ok(await page.locator('#tuner .reduced-figure').isVisible());
    const reduced = await page.evaluate(() => {
      const { preview, params } = window.playground.tuner;
      return { overshoot: preview.overshoot, ratio: preview.dampingRatio, settle: preview.settleTime(), original: params.settleTime() };
    });
    assert.equal(reduced.overshoot, 0);
    assert.ok(reduced.ratio >= 1 && reduced.settle <= reduced.original / 2 + 1e-6, JSON.stringify(reduced));
    assert.equal(await figure(page, 'reduced'), `settles ${reduced.settle.toFixed(3)} s, 0.0 % overshoot`);
    await page.waitForFunction(() => document.getElementById('tuner').dataset.playing === 'false', null, { timeout: 120000 });
    const peak = await page.evaluate(() => Math.max(...window.playground.tuner.play.trail.map(([, v]) => v)));
    assert.ok(peak <= 1 + 1e-6, `the reduced replay does not overshoot (peak ${peak})`);
    assert.deepEqual(problems, []);
    await context.close();
  });

  if (size === 'phone') test('the curve and the card stay in view while any slider moves', { timeout: 300000 }, async () => {
    const { context, page, problems } = await open(VIEWPORTS.phone);
    const view = page.locator('#tuner .tuner-view');
    for (const mode of ['time', 'physics']) {
      await chooseMode(page, mode);
      const keys = mode === 'time' ? ['duration', 'bounce', 'velocity'] : ['stiffness', 'damping', 'mass', 'velocity'];
      for (const key of keys) {
        const slider = page.locator(`#tuner [data-field="${key}"] input[type="range"]`);
        // the slider just under the curve: the page scrolled as far as it can go with the slider still
        // in sight (on a page without a fixed curve this scrolls the curve away)
        await slider.evaluate((el) => el.scrollIntoView({ block: 'end' }));
        await page.evaluate((k) => {
          const el = document.querySelector(`#tuner [data-field="${k}"] input[type="range"]`);
          const view = document.querySelector('#tuner .tuner-view').getBoundingClientRect();
          window.scrollBy(0, el.getBoundingClientRect().top - view.height - 10);
        }, key);
        const before = await page.evaluate(() => window.playground.tuner.params.toJSON());
        const frames = await page.evaluate(() => Number(document.getElementById('tuner').dataset.frames));
        const box = await slider.boundingBox();
        await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
        await page.mouse.down();
        await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 4 });
        // mid-drag: the curve is on screen, drawn, and not over the slider
        await page.waitForFunction((f) => Number(document.getElementById('tuner').dataset.frames) > f, frames);
        const curve = await page.locator('#tuner canvas.curve').boundingBox();
        const card = await page.locator('#tuner .card-stage').boundingBox();
        const now = await slider.boundingBox();
        for (const [what, b] of [['curve', curve], ['card', card]]) {
          assert.ok(b.y >= 0 && b.y + b.height <= VIEWPORTS.phone.height, `${key}: the ${what} is off screen (${b.y}..${b.y + b.height})`);
        }
        const viewBox = await view.boundingBox();
        assert.ok(now.y >= viewBox.y + viewBox.height, `${key}: the slider is under the curve`);
        await page.mouse.up();
        if (key !== 'velocity') {
          assert.notDeepEqual(await page.evaluate(() => window.playground.tuner.params.toJSON()), before, `${key}: the slider moved nothing`);
        }
        const png = await page.locator('#tuner canvas.curve').screenshot();
        if (shots) fs.writeFileSync(path.join(shots, `phone-tuner-${key}.png`), png);
        const variance = await pixelVariance(page, png);
        assert.ok(variance > 100, `${key}: the curve is blank mid-drag (variance ${variance.toFixed(1)})`);
      }
    }
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

describe('tail and hair: what the figures measure', () => {
  for (const [size, viewport] of Object.entries(VIEWPORTS)) test(`on a ${size}: the caption names every switch that is on (the figures are measured with all of them); each figure says what it measures`, { timeout: 300000 }, async () => {
    const { context, page, problems } = await open(viewport);
    const caption = () => page.locator('#tail .trap-caption').textContent();
    assert.match(await caption(), /no switch on, every figure is the library's own/);
    await page.locator('#tail .trap[data-trap="euler"] input').check();
    await page.waitForFunction(() => document.getElementById('tail').dataset.measuredFlags === '1');
    assert.match(await caption(), /with the switch that are on \(explicit euler\), not the one beside it alone/);
    const eulerAlone = await page.locator('#tail .trap[data-trap="variable-step"]').evaluate((r) => Number(r.dataset.value));
    await page.locator('#tail .trap[data-trap="variable-step"] input').check();
    await page.waitForFunction(() => document.getElementById('tail').dataset.measuredFlags === '3');
    assert.match(await caption(), /with all 2 switches that are on \(explicit euler, variable step\)/);
    assert.equal(await page.locator('#tail .trap[data-trap="no-folding"] .with').textContent(), 'measured with 2 switches on');
    // the variable-step figure is the run with both on, not with Euler alone or variable step alone
    const both = await page.locator('#tail .trap[data-trap="variable-step"]').evaluate((r) => Number(r.dataset.value));
    assert.notEqual(both, eulerAlone);
    for (const [id, words] of [['euler', /energy left 1 s after a swing/], ['variable-step', /across 24 to 240 fps/],
      ['springs-before-ik', /gap from the hand to the ribbon/], ['teleport-no-reset', /after a 300-unit teleport/]]) {
      assert.match(await page.locator(`#tail .trap[data-trap="${id}"] .trap-figure`).textContent(), words, id);
    }
    await page.locator('#tail .trap-caption').evaluate((el) => el.scrollIntoView({ block: 'end' }));
    await shot(page, page.locator('#tail .trap-caption'), `${size}-tail-caption`);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('on a phone the character stays in view beside each switch', { timeout: 300000 }, async () => {
    const { context, page, problems } = await open(VIEWPORTS.phone);
    const ids = await page.evaluate(() => [...document.querySelectorAll('#tail .trap')].map((r) => r.dataset.trap));
    assert.equal(ids.length, 8);
    for (const id of ids) {
      const row = page.locator(`#tail .trap[data-trap="${id}"]`);
      await row.evaluate((el) => el.scrollIntoView({ block: 'end' }));
      await row.locator('input').check();
      await framesDrawn(page, 'tail', 2);
      const stage = await page.locator('#tail canvas.stage').boundingBox();
      const box = await row.boundingBox();
      assert.ok(stage.y >= 0 && stage.y + stage.height <= VIEWPORTS.phone.height, `${id}: the character is off screen (${stage.y})`);
      assert.ok(box.y >= stage.y + stage.height && box.y + box.height <= VIEWPORTS.phone.height, `${id}: the switch is hidden (row ${box.y}..${box.y + box.height}, character ${stage.y}..${stage.y + stage.height})`);
      const png = await page.screenshot();
      if (shots) fs.writeFileSync(path.join(shots, `phone-tail-${id}.png`), png);
      const stagePng = await page.locator('#tail canvas.stage').screenshot();
      assert.ok(await pixelVariance(page, stagePng) > 100, `${id}: the character is blank`);
      await row.locator('input').uncheck();
    }
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

// The avatar section: its view's pixels that are not the background, and the spring tips' paths
// the page plots for a rate and an engine (picked as a person picks them).
async function avatarReady(page) {
  await page.locator('#avatar').scrollIntoViewIfNeeded();
  await page.waitForSelector('#avatar[data-ready="true"]', { timeout: 120000 });
  await framesDrawn(page, 'avatar', 3);
}
async function modelPixels(page) {
  const png = await page.locator('#avatar canvas.avatar-view').screenshot();
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    [c.width, c.height] = [img.width, img.height];
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    const corner = 4 * (12 * c.width + 12); // inside the view's rounded corner: the scene's background
    const [r, g, b] = [d[corner], d[corner + 1], d[corner + 2]];
    let other = 0;
    for (let i = 0; i < d.length; i += 4) other += Math.abs(d[i] - r) + Math.abs(d[i + 1] - g) + Math.abs(d[i + 2] - b) > 24;
    return other / (d.length / 4);
  }, png.toString('base64'));
}
async function tipPaths(page, engine, rate) {
  await page.locator('input[name="avatar-three-vrm"]').setChecked(engine === 'three-vrm');
  await page.locator('select[name="avatar-rate"]').selectOption(String(rate));
  return page.evaluate(() => {
    const a = window.playground.avatar;
    return { ...a.plotted.chosen, spread: a.spread, readout: document.querySelector('#avatar .avatar-readout').textContent };
  });
}
// The farthest a tip of run `a` is from its path in run `b`, every 1/6 s (a frame at every rate).
function farthest(a, b) {
  let worst = 0;
  for (let s = 0; s <= 12; s++) {
    const [i, j] = [(s * a.rate) / 6, (s * b.rate) / 6];
    a.paths.forEach((p, k) => {
      const q = b.paths[k];
      worst = Math.max(worst, Math.hypot(p[3 * i] - q[3 * j], p[3 * i + 1] - q[3 * j + 1], p[3 * i + 2] - q[3 * j + 2]));
    });
  }
  return worst;
}

for (const [size, viewport] of Object.entries(VIEWPORTS)) describe(`avatar on a ${size}`, () => {
  test('Godette is drawn (WebGL) with its attribution; at 24 and 240 fps libspring\'s spring tips keep their paths, three-vrm\'s own do not', { timeout: 300000 }, async (t) => {
    const { context, page, problems } = await open(viewport);
    await avatarReady(page);
    const drawn = await modelPixels(page);
    t.diagnostic(`${size}: ${(100 * drawn).toFixed(1)} % of the view is the model`);
    assert.ok(drawn > 0.03, `the avatar covers ${(100 * drawn).toFixed(2)} % of the view`);
    if (shots) fs.writeFileSync(path.join(shots, `${size}-avatar.png`), await page.locator('#avatar').screenshot());
    assert.match(await page.locator('#avatar .credit').textContent(), /SirRichard94[\s\S]*Lyuma[\s\S]*Creative Commons Attribution 3\.0/);
    const runs = {};
    for (const engine of ['libspring', 'three-vrm']) {
      for (const rate of [24, 240, 60]) runs[`${engine} ${rate}`] = await tipPaths(page, engine, rate);
    }
    const lib = farthest(runs['libspring 24'], runs['libspring 240']);
    const own = farthest(runs['three-vrm 24'], runs['three-vrm 240']);
    t.diagnostic(`spring tips, 24 fps against 240 fps (every 1/6 s, ${runs['libspring 24'].paths.length} tips): ` +
      `libspring ${(100 * lib).toFixed(3)} cm apart at most, three-vrm ${(100 * own).toFixed(2)} cm`);
    // libspring steps at 60 Hz whatever the frame: what is left at 24 fps is the head's own motion,
    // seen 24 times a second (the library interpolates the pose between two frames for its steps)
    assert.ok(lib < 0.015, `libspring: ${lib} m`);
    assert.ok(own > 0.1, `three-vrm: ${own} m`);
    assert.ok(own > 10 * lib);
    // the figure the page shows is its plot's numbers: the chosen rate's tips against 60 fps's
    for (const [key, run] of Object.entries(runs)) {
      const want = farthest(run, runs[`${key.split(' ')[0]} 60`]);
      assert.ok(Math.abs(run.spread - want) < 1e-12, `${key}: the page says ${run.spread}, its paths ${want}`);
      assert.match(run.readout, new RegExp(`at ${run.rate} fps: the ${run.paths.length} spring tips are at most ${
        (100 * want).toFixed(want < 0.001 ? 4 : 2)} cm`), run.readout);
    }
    assert.equal(runs['libspring 60'].spread, 0);
    // 60 fps, a frame a step (the springs' rate): libspring's paths are three-vrm's; at 24 fps not
    const same = farthest(runs['libspring 60'], runs['three-vrm 60']);
    const apart = farthest(runs['libspring 24'], runs['three-vrm 24']);
    t.diagnostic(`libspring against three-vrm: ${(100 * same).toExponential(2)} cm apart at most at 60 fps, ` +
      `${(100 * apart).toFixed(2)} cm at 24 fps`);
    assert.ok(same < 1e-4, `60 fps: ${same} m`);
    assert.ok(apart > 0.1, `24 fps: ${apart} m`);
    assert.deepEqual(problems, []);
    await context.close();
  });
});

describe('avatar: a dropped model', () => {
  test('a .vrm dropped on the view is read in the page (no request) and drawn with its springs', { timeout: 300000 }, async () => {
    const { context, page, problems } = await open(VIEWPORTS.desktop);
    await avatarReady(page);
    const requests = [];
    page.on('request', (r) => { if (!/^(data|blob):/.test(r.url())) requests.push(r.url()); });
    const before = await page.evaluate(() => window.playground.avatar.plotted.chosen.paths[0][3 * 30]);
    const bytes = fs.readFileSync(path.join(repo, 'tests/vrm/models/Godette_vrm_v4.vrm')).toString('base64');
    await page.evaluate((b64) => {
      const raw = atob(b64);
      const data = Uint8Array.from(raw, (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([data], 'mine.vrm'));
      document.querySelector('#avatar canvas.avatar-view').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }, bytes);
    await page.waitForFunction(() => window.playground.avatar.model === 'mine.vrm', null, { timeout: 120000 });
    assert.equal(await page.locator('#avatar .avatar-status').textContent(), 'mine.vrm: 8 spring tips, turned from side to side as a whole.');
    // the whole model turned (not its head alone): other paths
    const after_ = await page.evaluate(() => window.playground.avatar.plotted.chosen.paths[0][3 * 30]);
    assert.notEqual(after_, before);
    await framesDrawn(page, 'avatar', 2);
    assert.ok(await modelPixels(page) > 0.03);
    // a file that is not a model: said in the section, the avatar kept
    await page.evaluate(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['not a model'], 'notes.txt'));
      document.querySelector('#avatar canvas.avatar-view').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    });
    await page.waitForFunction(() => /^notes\.txt could not be shown: /.test(document.querySelector('#avatar .avatar-status').textContent), null, { timeout: 60000 });
    assert.equal(await page.evaluate(() => window.playground.avatar.model), 'mine.vrm');
    await framesDrawn(page, 'avatar', 2);
    assert.deepEqual(requests, []);
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
      page.on('console', (m) => { if (isProblem(m)) problems.push(`console ${m.type()}: ${m.text()}`); });
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
