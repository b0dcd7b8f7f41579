// SPDX-License-Identifier: MIT
// Section 2, Tuner: every parameterisation the library has, each a group of sliders; moving one
// converts the spring into all the others (the npm package: springParams and its queries). The
// plot is the closed form (evaluate) with the settle band, the overshoot and the settle time;
// Play runs a SpringMotion frame by frame over it. The snippets are the same spring in each
// platform's own terms.
import { cssLinear, springParams, SpringMotion } from '../../js/index.js';
import { animate, colors, disc, fitCanvas, label } from './canvas.js';
import { snippets } from './snippets.js';

const BAND = 0.01; // the settle band: within 1 % of the move

// Each group: the fields (name, range) and how the spring's queries read back into them.
const GROUPS = [
  { id: 'duration-bounce', title: 'Duration & bounce', note: 'SwiftUI Spring(duration:bounce:)',
    fields: [['duration', 's', 0.05, 3, 0.01], ['bounce', '', -0.9, 0.95, 0.01]],
    spec: (v) => v, read: (p) => ({ duration: p.duration, bounce: p.bounce }) },
  { id: 'response', title: 'Response & damping fraction', note: 'SwiftUI spring(response:dampingFraction:), react-spring',
    fields: [['response', 's', 0.05, 3, 0.01], ['dampingFraction', '', 0, 2, 0.01]],
    spec: (v) => v, read: (p) => ({ response: p.duration, dampingFraction: p.dampingRatio }) },
  { id: 'frequency', title: 'Frequency & damping ratio', note: 'natural frequency in hertz',
    fields: [['frequency', 'Hz', 0.1, 10, 0.01], ['dampingRatio', '', 0, 2, 0.01]],
    spec: (v) => v, read: (p) => ({ frequency: p.frequency, dampingRatio: p.dampingRatio }) },
  { id: 'stiffness-ratio', title: 'Stiffness & damping ratio', note: 'Jetpack Compose, Flutter (mass 1)',
    fields: [['stiffness', 'N/m', 1, 2000, 0.1], ['dampingRatio', '', 0, 2, 0.01]],
    // the frequency that stiffness has at mass 1, then the ratio
    spec: (v) => ({ frequency: springParams({ stiffness: v.stiffness, damping: 0, mass: 1 }).frequency,
      dampingRatio: v.dampingRatio }),
    read: (p) => ({ stiffness: springParams({ frequency: p.frequency, dampingRatio: p.dampingRatio }).stiffness,
      dampingRatio: p.dampingRatio }) },
  { id: 'physical', title: 'Stiffness, damping & mass', note: 'physical: N/m, N·s/m, kg',
    fields: [['stiffness', 'N/m', 1, 2000, 0.1], ['damping', 'N·s/m', 0, 200, 0.1], ['mass', 'kg', 0.1, 10, 0.01]],
    spec: (v) => v, read: (p) => ({ stiffness: p.stiffness, damping: p.damping, mass: p.mass }) },
  { id: 'visual-duration', title: 'Visual duration & bounce', note: 'Motion {visualDuration, bounce}',
    fields: [['visualDuration', 's', 0.05, 3, 0.01], ['bounce', '', -0.9, 0.95, 0.01]],
    spec: (v) => v, read: (p) => ({ visualDuration: p.visualDuration, bounce: p.bounce }) },
  { id: 'half-life', title: 'Half-life', note: 'critically damped: the gap halves every half-life',
    fields: [['halfLife', 's', 0.01, 1, 0.001]],
    spec: (v) => v, read: (p) => ({ halfLife: p.halfLife }) },
];

const LABELS = { duration: 'duration', bounce: 'bounce', response: 'response', dampingFraction: 'damping fraction',
  frequency: 'frequency', dampingRatio: 'damping ratio', stiffness: 'stiffness', damping: 'damping', mass: 'mass',
  visualDuration: 'visual duration', halfLife: 'half-life' };

const show = (v) => (Math.abs(v) >= 100 ? v.toFixed(1) : Number(v.toPrecision(4)).toString());

export function setupTuner(root) {
  const groupsBox = root.querySelector('.groups');
  const inputs = {};
  for (const g of GROUPS) {
    const box = document.createElement('fieldset');
    box.className = 'group';
    box.dataset.group = g.id;
    box.innerHTML = `<legend>${g.title} <small>${g.note}</small></legend>`;
    inputs[g.id] = {};
    for (const [key, unit, min, max, step] of g.fields) {
      const row = document.createElement('label');
      row.className = 'field';
      row.innerHTML = `<span>${LABELS[key]}${unit ? ` <small>(${unit})</small>` : ''}</span>
        <input type="range" min="${min}" max="${max}" step="${step}" aria-label="${LABELS[key]} slider">
        <input type="number" min="${min}" max="${max}" step="${step}" name="${g.id}.${key}" aria-label="${LABELS[key]}">`;
      const [range, number] = row.querySelectorAll('input');
      range.addEventListener('input', () => { number.value = range.value; changed(g); });
      number.addEventListener('input', () => { range.value = number.value; changed(g); });
      inputs[g.id][key] = { range, number };
      box.appendChild(row);
    }
    const error = document.createElement('p');
    error.className = 'error';
    box.appendChild(error);
    groupsBox.appendChild(box);
  }

  let params = springParams({ duration: 0.5, bounce: 0.3 });
  const state = { params, css: '', play: null };

  function fill(except) {
    for (const g of GROUPS) {
      if (g === except) continue;
      const values = g.read(params);
      for (const [key, v] of Object.entries(values)) {
        inputs[g.id][key].number.value = show(v);
        inputs[g.id][key].range.value = v;
      }
      root.querySelector(`[data-group="${g.id}"] .error`).textContent = '';
    }
  }

  function changed(g) {
    const values = {};
    for (const key of Object.keys(inputs[g.id])) values[key] = Number(inputs[g.id][key].number.value);
    const error = root.querySelector(`[data-group="${g.id}"] .error`);
    try {
      params = springParams(g.spec(values));
      error.textContent = '';
    } catch (e) {
      error.textContent = e.message;
      return;
    }
    fill(g);
    update();
  }

  function update() {
    state.params = params;
    const settle = params.settleTime({ epsilon: BAND });
    const numbers = {
      stiffness: params.stiffness.toFixed(1), damping: params.damping.toFixed(1), mass: show(params.mass),
      'damping-ratio': params.dampingRatio.toFixed(3), overshoot: `${(params.overshoot * 100).toFixed(1)} %`,
      settle: Number.isFinite(settle) ? `${settle.toFixed(3)} s` : 'never (undamped)',
      frequency: `${params.frequency.toFixed(3)} Hz`,
    };
    for (const [k, v] of Object.entries(numbers)) root.querySelector(`[data-out="${k}"]`).textContent = v;
    const out = root.querySelector('.snippets');
    out.innerHTML = '';
    let css;
    try {
      css = cssLinear(params).css;
    } catch (e) {
      css = `/* ${e.message} */`;
    }
    state.css = css;
    for (const s of [{ id: 'css', title: 'CSS linear()', text: css }, ...snippets(params)]) {
      const item = document.createElement('div');
      item.className = 'snippet';
      item.dataset.snippet = s.id;
      item.innerHTML = `<div class="snippet-head"><span>${s.title}</span><button type="button">Copy</button></div><pre></pre>`;
      item.querySelector('pre').textContent = s.text;
      const button = item.querySelector('button');
      button.addEventListener('click', async () => {
        try {
          await navigator.clipboard.writeText(s.text);
          button.textContent = 'Copied';
        } catch (e) {
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
  function draw() {
    const { ctx, width, height } = fitCanvas(canvas, 0.42, 200);
    ctx.clearRect(0, 0, width, height);
    const settle = params.settleTime({ epsilon: BAND });
    const span = Math.min(Math.max(Number.isFinite(settle) ? settle * 1.35 : 3, 0.6), 6);
    const n = 240;
    const values = [];
    for (let i = 0; i < n; i++) values.push(params.evaluate((span * i) / (n - 1)).value);
    const lo = Math.min(0, ...values) - 0.08;
    const hi = Math.max(1, ...values) + 0.12;
    const pad = { l: 34, r: 10, t: 12, b: 24 };
    const X = (t) => pad.l + (t / span) * (width - pad.l - pad.r);
    const Y = (v) => pad.t + ((hi - v) / (hi - lo)) * (height - pad.t - pad.b);
    ctx.fillStyle = colors.band;
    const bandTop = Y(1 + BAND), bandBottom = Y(1 - BAND);
    ctx.fillRect(pad.l, bandTop - 3, width - pad.l - pad.r, bandBottom - bandTop + 6);
    ctx.strokeStyle = colors.grid;
    ctx.lineWidth = 1;
    for (const v of [0, 1]) {
      ctx.beginPath();
      ctx.moveTo(pad.l, Y(v));
      ctx.lineTo(width - pad.r, Y(v));
      ctx.stroke();
      label(ctx, String(v), pad.l - 6, Y(v) + 4, colors.muted, 'right');
    }
    label(ctx, '±1 %', width - pad.r - 4, bandTop - 6, colors.spring, 'right');
    for (let s = 0; s <= span + 1e-9; s += span > 3 ? 1 : span > 1.2 ? 0.5 : 0.25) {
      label(ctx, `${Number(s.toFixed(2))} s`, X(s), height - 6, colors.muted, 'center');
    }
    ctx.strokeStyle = colors.spring;
    ctx.lineWidth = 2.5;
    ctx.beginPath();
    values.forEach((v, i) => { const x = X((span * i) / (n - 1)); if (i) ctx.lineTo(x, Y(v)); else ctx.moveTo(x, Y(v)); });
    ctx.stroke();
    if (params.overshoot > 0.0005) {
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
      label(ctx, `settled ${settle.toFixed(2)} s`, X(settle) + 6, height - pad.b - 6, colors.accent);
    }
    if (state.play) {
      ctx.strokeStyle = colors.tween;
      ctx.lineWidth = 2;
      ctx.beginPath();
      state.play.trail.forEach(([t, v], i) => { if (i) ctx.lineTo(X(t), Y(v)); else ctx.moveTo(X(t), Y(v)); });
      ctx.stroke();
      const [t, v] = state.play.trail[state.play.trail.length - 1];
      disc(ctx, X(Math.min(t, span)), Y(v), 6, colors.tween, '#fff');
      // the moving block the simulation drives, in the strip on the right
      disc(ctx, width - pad.r - 4, Y(v), 5, colors.tween);
    }
    state.span = span;
  }

  root.querySelector('button.play').addEventListener('click', () => {
    state.play?.motion.dispose();
    const motion = new SpringMotion({ value: 0, target: 1, params });
    state.play = { motion, time: 0, trail: [[0, 0]] };
  });

  animate(root, (dt) => {
    if (state.play && state.play.time <= state.span) {
      const s = state.play.motion.advance(dt);
      state.play.time += dt;
      state.play.trail.push([state.play.time, s.value]);
      if (state.play.time > state.span || s.atRest) state.play.time = state.span + 1;
      draw();
    }
  });
  window.addEventListener('resize', draw);
  fill(null);
  update();
  return state;
}
