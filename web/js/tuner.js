// SPDX-License-Identifier: MIT
// Section 2, Tuner: a spring set by a preset, by time (duration and bounce) or by physics
// (stiffness, damping, mass), with an initial velocity; every other way of describing it is read
// back from the library (the npm package: springParams and its queries). The curve is the closed
// form (evaluate) with the settle band and the settle time; Replay runs a SpringMotion frame by
// frame over it and moves a card with it. The presets and the reduced-motion form are the C
// library's own (spring_params_from_preset, spring_params_reduced_motion, through the page's wasm).
import { cssLinear, springParams, SpringMotion } from '../../js/index.js';
import { animate, colors, disc, fitCanvas, label } from './canvas.js';
import { snippets } from './snippets.js';

// The settle band: the library's settling time (settleTime, spring_settling_time, `spring params`)
// is within 0.001 of a unit move. Every settle figure on the page is settleTime's, with its default.
const BAND = 0.001;

// The two ways of setting the spring: each field's key (the library's), its words, unit, slider range.
const MODES = {
  time: { title: 'Time', note: 'how long it takes and how much it bounces (SwiftUI, Flutter)',
    fields: [['duration', 's', 0.05, 3, 0.01], ['bounce', '', -0.9, 0.95, 0.01]],
    read: (p) => ({ duration: p.duration, bounce: p.bounce }) },
  physics: { title: 'Physics', note: 'a mass on a spring with a damper (react-spring, Motion, Flutter)',
    fields: [['stiffness', 'N/m', 1, 4000, 0.1], ['damping', 'N·s/m', 0, 200, 0.1], ['mass', 'kg', 0.1, 10, 0.01]],
    read: (p) => ({ stiffness: p.stiffness, damping: p.damping, mass: p.mass }) },
};
const LABELS = { duration: 'duration', bounce: 'bounce', stiffness: 'stiffness', damping: 'damping', mass: 'mass',
  velocity: 'initial velocity' };

// Presets as each platform names them. SwiftUI's and Material 3 Expressive's come from the
// library's preset table (read from the wasm at start); Compose's named constants and
// react-spring's config.* are written as those libraries write them, then converted by springParams.
const COMPOSE_STIFFNESS = [['StiffnessHigh', 10000], ['StiffnessMedium', 1500], ['StiffnessMediumLow', 400],
  ['StiffnessLow', 200], ['StiffnessVeryLow', 50]];
const COMPOSE_DAMPING = [['DampingRatioHighBouncy', 0.2], ['DampingRatioMediumBouncy', 0.5],
  ['DampingRatioLowBouncy', 0.75], ['DampingRatioNoBouncy', 1]];
const REACT_SPRING = [['default', 170, 26], ['gentle', 120, 14], ['wobbly', 180, 12], ['stiff', 210, 20],
  ['slow', 280, 60], ['molasses', 280, 120]];

const show = (v) => (Math.abs(v) >= 100 ? v.toFixed(1) : Number(v.toPrecision(4)).toString());
const seconds = (t) => (Number.isFinite(t) ? `${t.toFixed(3)} s` : 'never (undamped)');

// "(must be in (-1, 1])" -> "more than -1 and at most 1"; "> 0" -> "more than 0".
const BOUND = { '(': 'more than', '[': 'at least', ')': 'less than', ']': 'at most', '>': 'more than', '>=': 'at least',
  '<': 'less than', '<=': 'at most' };
function plainRange(rule) {
  const m = /^in ([[(])\s*([^,]+),\s*([^\])]+)([\])])$/.exec(rule);
  if (m) return `${BOUND[m[1]]} ${m[2]} and ${BOUND[m[4]]} ${m[3]}`;
  const c = /^(>=|<=|>|<)\s*(\S+)$/.exec(rule);
  return c ? `${BOUND[c[1]]} ${c[2]}` : rule;
}

// The library's reason ("springParams: bounce: 1.5 is out of range (must be in (-1, 1])") as a
// sentence for the field it names: {key, text}.
export function plainError(message) {
  const reason = message.replace(/^springParams:\s*/, '');
  const m = /^(\w+): (.*)$/.exec(reason);
  if (!m) return { key: null, text: reason };
  const [, key, rest] = m;
  const name = LABELS[key] ?? key;
  const Name = name[0].toUpperCase() + name.slice(1);
  const range = /^(\S+) is out of range \(must be (.*)\)$/.exec(rest);
  if (range) return { key, text: `${Name} must be ${plainRange(range[2])} (it is ${range[1]}).` };
  return { key, text: `${Name}: ${rest}` };
}

export function setupTuner(lab, root) {
  const e = lab.exports;
  const state = { params: null, preview: null, css: '', play: null, mode: 'time', velocity: 0, reduced: false,
    stale: false, settle: 0, presets: {} };

  // --- presets
  const libraryPresets = [];
  for (let i = 0; ; i++) {
    const ptr = e.lab_preset(i);
    if (!ptr) break;
    const name = lab.readString(ptr, 64).replace(/\0.*$/s, '');
    const [stiffness, damping, mass] = lab.output(3);
    libraryPresets.push({ name, spec: { stiffness, damping, mass } });
  }
  const presetBox = root.querySelector('.presets');
  const families = [
    { id: 'swiftui', title: 'SwiftUI', items: libraryPresets.filter((p) => !p.name.includes('-'))
      .map((p) => ({ value: p.name, text: `.${p.name}`, spec: p.spec })) },
    { id: 'material', title: 'Material 3 Expressive', items: libraryPresets.filter((p) => p.name.includes('-'))
      .map((p) => ({ value: p.name, text: p.name, spec: p.spec })) },
    { id: 'react-spring', title: 'react-spring', items: REACT_SPRING.map(([name, tension, friction]) => ({
      value: name, text: `config.${name}`, spec: { mass: 1, tension, friction } })) },
  ];
  const choose = (title, id, options) => {
    const select = document.createElement('select');
    select.name = `preset-${id}`;
    select.setAttribute('aria-label', `${title} preset`);
    select.innerHTML = `<option value="">${title}…</option>` +
      options.map((o) => `<option value="${o.value}">${o.text}</option>`).join('');
    return select;
  };
  for (const f of families) {
    const select = choose(f.title, f.id, f.items);
    for (const item of f.items) state.presets[`${f.id}:${item.value}`] = item.spec;
    select.addEventListener('change', () => {
      const item = f.items.find((i) => i.value === select.value);
      if (item) applyPreset(item.spec, select);
    });
    presetBox.appendChild(select);
  }
  // Compose: spring(dampingRatio = Spring.X, stiffness = Spring.Y), its named constants.
  const compose = document.createElement('span');
  compose.className = 'compose';
  const composeDamping = choose('Compose damping', 'compose-damping',
    COMPOSE_DAMPING.map(([n]) => ({ value: n, text: `Spring.${n}` })));
  const composeStiffness = choose('Compose stiffness', 'compose-stiffness',
    COMPOSE_STIFFNESS.map(([n]) => ({ value: n, text: `Spring.${n}` })));
  const composeSpec = () => {
    // Compose's spring() defaults: DampingRatioNoBouncy, StiffnessMedium
    const d = COMPOSE_DAMPING.find(([n]) => n === composeDamping.value) ?? COMPOSE_DAMPING[3];
    const s = COMPOSE_STIFFNESS.find(([n]) => n === composeStiffness.value) ?? COMPOSE_STIFFNESS[1];
    return { stiffness: s[1], dampingRatio: d[1] };
  };
  for (const [n, v] of COMPOSE_STIFFNESS) for (const [m, d] of COMPOSE_DAMPING) state.presets[`compose:${m}:${n}`] = { stiffness: v, dampingRatio: d };
  for (const s of [composeDamping, composeStiffness]) {
    s.addEventListener('change', () => applyPreset(composeSpec(), s));
    compose.appendChild(s);
  }
  presetBox.appendChild(compose);

  // --- the mode switch and the fields
  const fieldsBox = root.querySelector('.fields');
  const inputs = {};
  const errors = {};
  function field(key, unit, min, max, step, box) {
    const row = document.createElement('div');
    row.className = 'field';
    row.dataset.field = key;
    row.innerHTML = `<label for="tuner-${key}">${LABELS[key]}${unit ? ` <small>(${unit})</small>` : ''}</label>
      <input type="range" min="${min}" max="${max}" step="${step}" aria-label="${LABELS[key]} slider">
      <input type="number" id="tuner-${key}" step="${step}" name="tuner.${key}">
      <p class="error" role="alert"></p>`;
    const [range, number] = row.querySelectorAll('input');
    range.addEventListener('input', () => { number.value = range.value; changed(key); });
    number.addEventListener('input', () => { if (number.value !== '') range.value = number.value; changed(key); });
    range.addEventListener('change', replay); // the slider let go: show the new spring once
    inputs[key] = { range, number };
    errors[key] = row.querySelector('.error');
    box.appendChild(row);
  }
  for (const [id, mode] of Object.entries(MODES)) {
    const box = document.createElement('fieldset');
    box.className = 'group';
    box.dataset.mode = id;
    box.innerHTML = `<legend>${mode.title} <small>${mode.note}</small></legend>`;
    for (const f of mode.fields) field(...f, box);
    fieldsBox.appendChild(box);
  }
  field('velocity', 'moves/s', -10, 10, 0.1, root.querySelector('.velocity'));
  root.querySelector('.velocity [data-field="velocity"] .error').insertAdjacentHTML('beforebegin',
    '<small class="hint">how fast it is already going at the start: 1 is the whole move in a second</small>');

  const modeButtons = root.querySelectorAll('.mode input');
  for (const b of modeButtons) b.addEventListener('change', () => setMode(b.value));
  function setMode(mode) {
    state.mode = mode;
    for (const b of modeButtons) b.checked = b.value === mode;
    for (const box of fieldsBox.querySelectorAll('.group')) box.hidden = box.dataset.mode !== mode;
    fill(); // the new mode's fields read the current spring, which stays as it is
    changed();
  }

  const reduced = root.querySelector('input[name="reduced-motion"]');
  reduced.checked = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  reduced.addEventListener('change', () => { update(); replay(); });

  // Writes the spring into the current mode's fields. Until one of them is edited the spring is
  // kept as it is, not read back from their rounded text (a preset stays exactly the preset).
  function fill() {
    state.edited = false;
    if (!state.params) return;
    for (const [key, v] of Object.entries(MODES[state.mode].read(state.params))) {
      inputs[key].number.value = show(v);
      inputs[key].range.value = v;
    }
  }

  function applyPreset(spec, from) {
    for (const s of presetBox.querySelectorAll('select')) if (s !== from && !(from.parentElement === compose && s.parentElement === compose)) s.value = '';
    state.params = springParams(spec);
    fill();
    changed();
    replay();
  }

  // Reads the current mode's fields and the velocity: the spring, or the errors beside the fields.
  // `key`: the field just edited (none: the spring was set by a preset or a mode switch).
  function changed(key) {
    if (key && key !== 'velocity') state.edited = true;
    const keep = !state.edited;
    for (const p of Object.values(errors)) p.textContent = '';
    const spec = {};
    let problem = false;
    const keys = keep ? ['velocity'] : [...MODES[state.mode].fields.map((f) => f[0]), 'velocity'];
    for (const key of keys) {
      const text = inputs[key].number.value.trim();
      if (text === '') {
        errors[key].textContent = `${LABELS[key][0].toUpperCase()}${LABELS[key].slice(1)} is empty: type a number.`;
        problem = true;
      } else if (!Number.isFinite(Number(text))) {
        errors[key].textContent = `${LABELS[key][0].toUpperCase()}${LABELS[key].slice(1)} must be a number.`;
        problem = true;
      } else if (key !== 'velocity') {
        spec[key] = Number(text);
      }
    }
    let params = null;
    if (!problem && keep) {
      params = state.params;
    } else if (!problem) {
      try {
        params = springParams(spec);
      } catch (err) {
        const { key, text } = plainError(err.message);
        (errors[key] ?? errors[keys[0]]).textContent = text;
      }
    }
    const valid = params !== null;
    if (valid) {
      state.params = params;
      state.velocity = Number(inputs.velocity.number.value);
    }
    state.stale = !valid;
    root.dataset.stale = String(!valid);
    for (const [key, p] of Object.entries(errors)) p.closest('.field').classList.toggle('invalid', p.textContent !== '');
    const note = root.querySelector('.stale-note');
    note.hidden = valid;
    if (!valid) {
      const p = state.params;
      note.textContent = `Out of date: the figures, curve and code below are still those of the last valid spring ` +
        `(duration ${show(p.duration)} s, bounce ${show(p.bounce)}, initial velocity ${show(state.velocity)}). Fix the field marked in red.`;
    }
    update();
  }

  // The spring the preview runs: the tuned one, or its reduced-motion form.
  function previewParams() {
    const p = state.params;
    if (!reduced.checked) return p;
    lab.check(e.lab_reduced_motion(p.stiffness, p.damping, p.mass), 'reduced motion');
    const [stiffness, damping, mass] = lab.output(3);
    return springParams({ stiffness, damping, mass });
  }

  function update() {
    const params = state.params;
    state.preview = previewParams();
    state.reduced = reduced.checked;
    const move = { velocity: state.velocity };
    state.settle = params.settleTime(move);
    const numbers = {
      stiffness: params.stiffness.toFixed(1), damping: params.damping.toFixed(1), mass: show(params.mass),
      'damping-ratio': params.dampingRatio.toFixed(3), frequency: `${params.frequency.toFixed(3)} Hz`,
      duration: `${show(params.duration)} s`, bounce: show(params.bounce), 'visual-duration': `${show(params.visualDuration)} s`,
      'half-life': `${show(params.halfLife)} s`, overshoot: `${(params.overshoot * 100).toFixed(1)} %`,
      settle: seconds(state.settle),
      reduced: `settles ${seconds(state.preview.settleTime(move))}, ${(state.preview.overshoot * 100).toFixed(1)} % overshoot`,
    };
    for (const [k, v] of Object.entries(numbers)) root.querySelector(`[data-out="${k}"]`).textContent = v;
    root.querySelector('.reduced-figure').hidden = !reduced.checked;
    const out = root.querySelector('.snippets');
    out.innerHTML = '';
    let css;
    let cssNote = '';
    try {
      const c = cssLinear(params);
      css = c.css;
      state.cssMs = c.durationMs;
      cssNote = `A move from rest. It lasts until the sampled curve rests at a stop ${show(c.resolution)} ms apart ` +
        `(within 0.1 % and nearly still): ${c.durationMs} ms here, for a settle time from rest of ${seconds(params.settleTime())}.`;
    } catch (err) {
      css = `/* ${err.message} */`;
      state.cssMs = null;
    }
    state.css = css;
    for (const s of [{ id: 'css', title: 'CSS linear()', text: css, note: cssNote }, ...snippets(params)]) {
      const item = document.createElement('div');
      item.className = 'snippet';
      item.dataset.snippet = s.id;
      item.innerHTML = `<div class="snippet-head"><span>${s.title}</span><button type="button">Copy</button></div><pre></pre>` +
        (s.note ? '<p class="snippet-note"></p>' : '');
      item.querySelector('pre').textContent = s.text;
      if (s.note) item.querySelector('.snippet-note').textContent = s.note;
      const button = item.querySelector('button');
      button.addEventListener('click', async () => {
        try {
          await navigator.clipboard.writeText(s.text);
          button.textContent = 'Copied';
        } catch (err) {
          // no clipboard (an old browser or a page without the permission): select the text
          const range = document.createRange();
          range.selectNodeContents(item.querySelector('pre'));
          getSelection().removeAllRanges();
          getSelection().addRange(range);
          button.textContent = 'Selected';
        }
        root.dataset.copied = s.text;
        setTimeout(() => { button.textContent = 'Copy'; }, 1500);
      });
      out.appendChild(item);
    }
    draw();
  }

  const canvas = root.querySelector('canvas.curve');
  const card = root.querySelector('.card');
  const stage = root.querySelector('.card-stage');
  function draw() {
    const { ctx, width, height } = fitCanvas(canvas, 0.42, 190);
    stage.style.height = `${height}px`;
    ctx.clearRect(0, 0, width, height);
    const params = state.preview;
    const start = { velocity: state.velocity };
    const settle = params.settleTime(start);
    const span = Math.min(Math.max(Number.isFinite(settle) ? settle * 1.35 : 3, 0.6), 6);
    const n = 240;
    const curve = (p) => Array.from({ length: n }, (_, i) => p.evaluate((span * i) / (n - 1), start).value);
    const values = curve(params);
    const tuned = state.reduced ? curve(state.params) : null;
    const all = tuned ? values.concat(tuned) : values;
    const lo = Math.min(0, ...all) - 0.08;
    const hi = Math.max(1, ...all) + 0.12;
    const pad = { l: 34, r: 10, t: 12, b: 24 };
    const X = (t) => pad.l + (t / span) * (width - pad.l - pad.r);
    const Y = (v) => pad.t + ((hi - v) / (hi - lo)) * (height - pad.t - pad.b);
    state.curveY = { lo, hi, top: pad.t, bottom: height - pad.b };
    ctx.fillStyle = colors.band;
    const bandTop = Y(1 + BAND), bandBottom = Y(1 - BAND);
    ctx.fillRect(pad.l, bandTop - 2, width - pad.l - pad.r, bandBottom - bandTop + 4);
    ctx.strokeStyle = colors.grid;
    ctx.lineWidth = 1;
    for (const v of [0, 1]) {
      ctx.beginPath();
      ctx.moveTo(pad.l, Y(v));
      ctx.lineTo(width - pad.r, Y(v));
      ctx.stroke();
      label(ctx, String(v), pad.l - 6, Y(v) + 4, colors.muted, 'right');
    }
    label(ctx, '±0.1 %', width - pad.r - 4, bandTop - 6, colors.spring, 'right');
    for (let s = 0; s <= span + 1e-9; s += span > 3 ? 1 : span > 1.2 ? 0.5 : 0.25) {
      label(ctx, `${Number(s.toFixed(2))} s`, X(s), height - 6, colors.muted, 'center');
    }
    const path = (vs, color, w, dash = []) => {
      ctx.strokeStyle = color;
      ctx.lineWidth = w;
      ctx.setLineDash(dash);
      ctx.beginPath();
      vs.forEach((v, i) => { const x = X((span * i) / (n - 1)); if (i) ctx.lineTo(x, Y(v)); else ctx.moveTo(x, Y(v)); });
      ctx.stroke();
      ctx.setLineDash([]);
    };
    if (tuned) path(tuned, colors.muted, 1.5, [5, 4]);
    path(values, colors.spring, 2.5);
    if (params.overshoot > 0.0005 && state.velocity === 0) {
      let peak = 0;
      values.forEach((v, i) => { if (v > values[peak]) peak = i; });
      const px = X((span * peak) / (n - 1)), py = Y(values[peak]);
      disc(ctx, px, py, 4, colors.tween);
      label(ctx, `overshoot ${(params.overshoot * 100).toFixed(1)} %`, px + 8, py - 6, colors.tween);
    }
    if (Number.isFinite(settle) && settle > 0) {
      ctx.strokeStyle = colors.accent;
      ctx.setLineDash([4, 4]);
      ctx.beginPath();
      ctx.moveTo(X(settle), pad.t);
      ctx.lineTo(X(settle), height - pad.b);
      ctx.stroke();
      ctx.setLineDash([]);
      const right = X(settle) + 120 > width;
      label(ctx, `settles ${settle.toFixed(3)} s`, X(settle) + (right ? -6 : 6), height - pad.b - 6, colors.accent, right ? 'right' : 'left');
    }
    if (state.reduced) label(ctx, 'reduced motion (dashed: the tuned spring)', pad.l + 4, pad.t + 10, colors.muted);
    let value = 1;
    if (state.play) {
      ctx.strokeStyle = colors.tween;
      ctx.lineWidth = 2;
      ctx.beginPath();
      state.play.trail.forEach(([t, v], i) => { if (i) ctx.lineTo(X(Math.min(t, span)), Y(v)); else ctx.moveTo(X(t), Y(v)); });
      ctx.stroke();
      const [t, v] = state.play.trail[state.play.trail.length - 1];
      disc(ctx, X(Math.min(t, span)), Y(v), 6, colors.tween, '#fff');
      value = v;
    }
    state.span = span;
    moveCard(value, height, pad, Y);
  }

  // The card follows the motion: up the stage as the value goes 0 -> 1 (level with the curve),
  // growing from 70 % and turning from -25 degrees to upright.
  function moveCard(v, height, pad, Y) {
    const size = 44;
    const y = Y(v) - size / 2;
    card.style.transform = `translateY(${y.toFixed(2)}px) scale(${(0.7 + 0.3 * v).toFixed(4)}) rotate(${(-25 * (1 - v)).toFixed(2)}deg)`;
    card.dataset.value = v.toFixed(4);
  }

  function replay() {
    if (!state.preview) return;
    state.play?.motion.dispose();
    const motion = new SpringMotion({ value: 0, target: 1, velocity: state.velocity, params: state.preview });
    state.play = { motion, time: 0, trail: [[0, 0]], done: false };
    state.plays = (state.plays ?? 0) + 1;
    root.dataset.plays = String(state.plays);
    draw();
  }
  root.querySelector('button.play').addEventListener('click', replay);

  animate(root, (dt) => {
    if (state.play && !state.play.done) {
      const s = state.play.motion.update(dt);
      state.play.time += dt;
      state.play.trail.push([state.play.time, s.value]);
      if (state.play.time > state.span || s.isResting) state.play.done = true;
      root.dataset.playing = String(!state.play.done);
      draw();
    }
  });
  window.addEventListener('resize', draw);
  state.params = springParams({ duration: 0.5, bounce: 0.3 });
  inputs.velocity.number.value = '0';
  inputs.velocity.range.value = 0;
  setMode('time');
  return state;
}
