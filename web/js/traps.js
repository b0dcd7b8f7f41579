// SPDX-License-Identifier: MIT
// Section 3, Tail and hair: the sample character (examples/rigs/character.json) with its clips,
// IK and chains, its root following the pointer, and the mistakes the library exists to avoid,
// one switch each. Each switch's failure is measured by the wasm in a scripted run (the same
// scene, the same inputs, every frame rate) and shown beside it with the library's own figure.
import { animate, colors, fitCanvas, label } from './canvas.js';
import characterJson from './character-json.js';

// Bit, name, what goes wrong, the measurement it moves (index in lab_measure's output), its unit.
export const TRAPS = [
  { bit: 1, id: 'euler', name: 'Explicit Euler', fails: 'adds energy: the tail rings on',
    metric: 0, unit: '× the exact energy left 1 s after a swing', digits: 2, part: 'tail' },
  { bit: 2, id: 'variable-step', name: 'Variable step', fails: 'the look depends on the frame rate',
    metric: 1, unit: '% tail-tip spread across 24 to 240 fps and jittery frames', digits: 1, part: 'tail' },
  { bit: 4, id: 'previous-order', name: 'Previous-frame chain order', fails: 'each segment lags a frame more',
    metric: 2, unit: '° tail-tip lag in a steady spin', digits: 1, part: 'tail' },
  { bit: 8, id: 'no-projection', name: 'Position spring without length projection', fails: 'the hair stretches',
    metric: 4, unit: '% largest hair bone stretch while shaken', digits: 1, part: 'hair' },
  { bit: 16, id: 'keep-velocity', name: 'Projection without velocity correction', fails: 'the hair never comes to rest',
    metric: 5, unit: 'units/s hair-tip speed 3 s after the shaking stops', digits: 2, part: 'hair' },
  { bit: 32, id: 'no-folding', name: 'No angle folding', fails: 'a flip whips the tail the long way round',
    metric: 3, unit: '° largest angle of a segment from its target in a spin', digits: 0, part: 'tail' },
  { bit: 64, id: 'springs-before-ik', name: 'Springs before IK', fails: 'the ribbon hangs where the hand was',
    metric: 6, unit: 'units largest gap from the hand to the ribbon', digits: 1, part: 'ribbon' },
  { bit: 128, id: 'teleport-no-reset', name: 'Teleport without reset', fails: 'a teleport whips the hair',
    metric: 7, unit: 'units hair-tip swing after a 300-unit teleport', digits: 1, part: 'hair' },
];
const METRICS = 8;
const RATES = ['24', '30', '60', '144', '240', 'jittery'];

// The character's springs the scene uses (its tail and front hair), read from the rig file.
function sceneSprings(rig) {
  const chain = (name) => rig.chains.find((c) => c.name === name);
  const tail = chain('tail'), hair = chain('hair_front');
  return [tail.spring.frequency, tail.spring.damping_ratio, tail.tip_spring.frequency, tail.tip_spring.damping_ratio,
    hair.spring.duration, hair.spring.bounce, hair.tip_spring.duration, hair.tip_spring.bounce,
    hair.gravity[0], hair.gravity[1]];
}

export function setupTraps(lab, root) {
  const e = lab.exports;
  const text = new TextEncoder().encode(characterJson);
  new Uint8Array(e.memory.buffer, e.lab_text(), text.length).set(text);
  lab.input(sceneSprings(JSON.parse(characterJson)));
  const loaded = e.lab_character_load(text.length);
  if (loaded !== 0) throw new Error(lab.readString(e.lab_text(), 800).replace(/\0.*$/s, ''));
  const boneCount = e.lab_character_frame(0, 100, 0) > 0 ? lab.output(1)[0] : 0;
  const bones = [];
  for (let i = 0; i < boneCount; i++) {
    const ptr = e.lab_character_bone(i);
    const replaced = lab.output(1)[0] === 1;
    const bytes = new Uint8Array(e.memory.buffer, ptr, 64);
    bones.push({ name: new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0))), replaced });
  }

  const state = { flags: 0, rate: '60', measured: null, library: null, frames: 0 };
  const canvas = root.querySelector('canvas.stage');
  const list = root.querySelector('.trap-list');
  for (const t of TRAPS) {
    const row = document.createElement('label');
    row.className = 'trap';
    row.dataset.trap = t.id;
    row.innerHTML = `<input type="checkbox" name="trap-${t.id}">
      <span class="trap-name">${t.name} <em class="part part-${t.part}">${t.part}</em><small>${t.fails}</small></span>
      <span class="trap-figure"><b class="value"></b> <small>${t.unit}</small><small class="lib">library: <i class="library"></i></small><small class="with"></small></span>`;
    row.querySelector('input').addEventListener('change', (ev) => {
      state.flags = ev.target.checked ? state.flags | t.bit : state.flags & ~t.bit;
      e.lab_scene_set_traps(state.flags);
      measure();
    });
    list.appendChild(row);
  }
  const rates = root.querySelector('.rates');
  for (const r of RATES) {
    const b = document.createElement('label');
    b.innerHTML = `<input type="radio" name="fps" value="${r}"${r === state.rate ? ' checked' : ''}><span>${r === 'jittery' ? r : `${r} fps`}</span>`;
    b.querySelector('input').addEventListener('change', () => { state.rate = r; });
    rates.appendChild(b);
  }

  function measure() {
    lab.check(e.lab_measure(state.flags), 'measure');
    const m = lab.output(2 * METRICS);
    state.measured = Array.from(m.slice(0, METRICS));
    state.library = Array.from(m.slice(METRICS));
    for (const t of TRAPS) {
      const row = list.querySelector(`[data-trap="${t.id}"]`);
      const v = state.measured[t.metric], lib = state.library[t.metric];
      row.querySelector('.value').textContent = v.toFixed(t.digits);
      row.querySelector('.library').textContent = lib.toFixed(t.digits);
      const count = TRAPS.filter((x) => state.flags & x.bit).length;
      row.querySelector('.with').textContent = `measured with ${count === 0 ? 'no' : count} switch${count > 1 ? 'es' : ''} on`;
      row.dataset.value = v;
      row.dataset.library = lib;
      row.classList.toggle('on', (state.flags & t.bit) !== 0);
    }
    root.dataset.measuredFlags = state.flags;
    // What the figures measure: one scripted run with every switch that is on, not each alone.
    const on = TRAPS.filter((t) => state.flags & t.bit).map((t) => t.name.toLowerCase());
    root.querySelector('.trap-caption').textContent = on.length === 0
      ? 'With no switch on, every figure is the library\'s own, measured in a scripted run of this scene.'
      : `Every figure is measured in one scripted run of this scene with ${on.length === 1 ? 'the switch' : `all ${on.length} switches`} ` +
        `that are on (${on.join(', ')}), not the one beside it alone; "library" is the same run with none on.`;
  }
  measure();

  // The pointer, in rig units (y up, the ground at 0).
  let view = { scale: 1, ox: 0, oy: 0, width: 0, height: 0 };
  const pointer = { x: 60, y: 150 };
  const toRig = (ev) => {
    const r = canvas.getBoundingClientRect();
    return { x: (ev.clientX - r.left - view.ox) / view.scale, y: (view.oy - (ev.clientY - r.top)) / view.scale };
  };
  canvas.addEventListener('pointermove', (ev) => Object.assign(pointer, toRig(ev)));
  canvas.addEventListener('pointerdown', (ev) => Object.assign(pointer, toRig(ev)));
  root.querySelector('button.teleport').addEventListener('click', () => {
    const half = view.width / view.scale / 2;
    const dx = pointer.x > 0 ? -half : half; // to the other side
    lab.check(e.lab_character_teleport(dx), 'teleport');
    pointer.x += dx;
  });
  root.querySelector('button.flip').addEventListener('click', () => e.lab_character_flip());

  let pose = null;
  let carry = 0;
  let nextJitter = e.lab_jitter_dt();
  function frame(dt) {
    const n = e.lab_character_frame(pointer.x, pointer.y, dt);
    if (n < 0) throw new Error(`character: ${lab.resultString(-n)}`);
    pose = lab.output(n);
    state.frames++;
  }

  function draw() {
    const { ctx, width, height } = fitCanvas(canvas, 0.5, 300);
    const scale = Math.min(height / 300, width / 420);
    view = { scale, ox: width / 2, oy: height - 26, width, height };
    const P = (x, y) => [view.ox + x * scale, view.oy - y * scale];
    ctx.clearRect(0, 0, width, height);
    ctx.fillStyle = colors.soft;
    ctx.fillRect(0, 0, width, height);
    ctx.strokeStyle = '#c9cfdb';
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(0, view.oy + 1);
    ctx.lineTo(width, view.oy + 1);
    ctx.stroke();
    if (!pose) return;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    const count = pose[0];
    const thickness = (name) => (/^(spine|chest)/.test(name) ? 15 : /^hip/.test(name) ? 13 : /^(thigh|shin)/.test(name) ? 9
      : /^foot/.test(name) ? 7 : /^cape/.test(name) ? 6 : /^hair/.test(name) ? 4 : /arm|hand/.test(name) ? 6 : 5);
    const order = [...bones.keys()].sort((a, b) => (/^cape|^back_/.test(bones[b].name) ? 1 : 0) - (/^cape|^back_/.test(bones[a].name) ? 1 : 0));
    for (const i of order) {
      const b = bones[i];
      const [x, y, angle, length, sx] = pose.slice(1 + 5 * i, 6 + 5 * i);
      if (b.replaced || length === 0) continue;
      const a = P(x, y), c = P(x + Math.cos(angle) * length * sx, y + Math.sin(angle) * length * sx);
      ctx.strokeStyle = /^cape/.test(b.name) ? '#7d5ba6' : /^back_/.test(b.name) ? '#8a92a6' : /^hair/.test(b.name) ? '#c27c2c' : colors.bone;
      ctx.lineWidth = thickness(b.name) * scale;
      ctx.beginPath();
      ctx.moveTo(...a);
      ctx.lineTo(...c);
      ctx.stroke();
      if (b.name === 'head') {
        const m = P(x + Math.cos(angle) * length * 0.55, y + Math.sin(angle) * length * 0.55);
        ctx.fillStyle = colors.bone;
        ctx.beginPath();
        ctx.arc(m[0], m[1], 17 * scale, 0, Math.PI * 2);
        ctx.fill();
      }
    }
    // The scene: tail, front hair, the front arm and its ribbon (points after the bones).
    let k = 1 + 5 * count;
    const take = (n) => { const pts = []; for (let i = 0; i < n; i++) { pts.push(P(pose[k], pose[k + 1])); k += 2; } return pts; };
    const tail = take(7), hair = take(4), arm = take(3), ribbon = take(5);
    const trapOn = (bits) => (state.flags & bits) !== 0;
    const line = (pts, color, width) => {
      ctx.strokeStyle = color;
      ctx.lineWidth = width * scale;
      ctx.beginPath();
      pts.forEach((p, i) => (i ? ctx.lineTo(...p) : ctx.moveTo(...p)));
      ctx.stroke();
    };
    tail.slice(0, -1).forEach((p, i) => line([p, tail[i + 1]], trapOn(1 | 2 | 4 | 32) ? colors.trap : '#4a7c59', 9 - i * 1.2));
    line(hair, trapOn(8 | 16 | 128) ? colors.trap : '#c27c2c', 4);
    line(arm, colors.bone, 6);
    line(ribbon, trapOn(64 | 128) ? colors.trap : colors.accent, 3);
    ctx.fillStyle = colors.bone;
    ctx.beginPath();
    ctx.arc(arm[2][0], arm[2][1], 4.5 * scale, 0, Math.PI * 2);
    ctx.fill();
    const [px, py] = P(pointer.x, pointer.y);
    ctx.strokeStyle = colors.muted;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(px - 6, py); ctx.lineTo(px + 6, py); ctx.moveTo(px, py - 6); ctx.lineTo(px, py + 6);
    ctx.stroke();
    label(ctx, state.rate === 'jittery' ? 'jittery frames' : `${state.rate} fps`, 10, 18);
    if (width > 560) label(ctx, 'move the pointer: the character follows, the arm reaches', width - 10, 18, colors.muted, 'right');
  }

  animate(root, (dt) => {
    carry += dt;
    let frames = 0;
    if (state.rate === 'jittery') {
      while (carry >= nextJitter && frames < 16) {
        carry -= nextJitter;
        frame(nextJitter);
        nextJitter = e.lab_jitter_dt();
        frames++;
      }
    } else {
      const step = 1 / Number(state.rate);
      while (carry >= step && frames < 16) {
        carry -= step;
        frame(step);
        frames++;
      }
    }
    if (frames === 16) carry = 0; // a stalled tab: drop the backlog
    draw();
  });
  window.addEventListener('resize', draw);
  return state;
}
