// SPDX-License-Identifier: MIT
// Section 1, Retarget: a click or tap sends a ball. Left, a tween (CSS ease-in-out, restarted
// from where it is on every click); right, a spring (spring_motion: a new target keeps the
// velocity). The speed graph underneath shows the tween's cliff and the spring's bend.
import { animate, colors, disc, fitCanvas, label, plotSeries } from './canvas.js';

const SPRING = { duration: 0.6, bounce: 0.2 };
const TWEEN_SECONDS = 0.6;
const GRAPH_FRAMES = 240;

export function setupRetarget(lab, root) {
  const field = root.querySelector('canvas.field');
  const graph = root.querySelector('canvas.graph');
  const e = lab.exports;
  let size = fitCanvas(field, 0.3, 220);
  const half = () => size.width / 2;
  const start = [half() / 2, size.height / 2];
  lab.check(e.lab_retarget_init(start[0], start[1], SPRING.duration, SPRING.bounce, TWEEN_SECONDS), 'retarget');
  // Everything recorded, for the graph and for anyone checking the page (the browser tests).
  const record = { time: [], spring: [], tween: [], clicks: [], state: null, axis: null };
  let time = 0;
  let target = start;

  const send = (event) => {
    const r = field.getBoundingClientRect();
    const x = event.clientX - r.left;
    const y = event.clientY - r.top;
    const lx = x >= half() ? x - half() : x; // the same place in both halves
    target = [Math.min(Math.max(lx, 14), half() - 14), Math.min(Math.max(y, 14), size.height - 14)];
    lab.check(e.lab_retarget_click(target[0], target[1]), 'retarget');
    // the speeds at the instant of the retarget (no time passes): the spring's is the one it had,
    // the restarted tween's is zero
    record.clicks.push(record.time.length);
    lab.check(e.lab_retarget_advance(0), 'retarget');
    sample();
  };
  const sample = () => {
    const s = lab.output(6);
    record.time.push(time);
    record.spring.push(s[2]);
    record.tween.push(s[5]);
    record.state = s;
  };
  field.addEventListener('pointerdown', send);

  const draw = () => {
    size = fitCanvas(field, 0.3, 220);
    const { ctx, width, height } = size;
    const s = record.state;
    ctx.clearRect(0, 0, width, height);
    ctx.fillStyle = colors.soft;
    ctx.fillRect(0, 0, width, height);
    ctx.strokeStyle = colors.grid;
    ctx.beginPath();
    ctx.moveTo(half() + 0.5, 8);
    ctx.lineTo(half() + 0.5, height - 8);
    ctx.stroke();
    label(ctx, 'tween: ease-in-out, restarted', 12, 20, colors.tween);
    label(ctx, 'spring: keeps its velocity', half() + 12, 20, colors.spring);
    for (const offset of [0, half()]) {
      ctx.strokeStyle = colors.muted;
      ctx.setLineDash([3, 4]);
      ctx.beginPath();
      ctx.arc(offset + target[0], target[1], 16, 0, Math.PI * 2);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    if (s) {
      disc(ctx, s[3], s[4], 12, colors.tween);
      disc(ctx, half() + s[0], s[1], 12, colors.spring);
    }
    label(ctx, 'click or tap anywhere', width - 12, height - 12, colors.muted, 'right');

    const g = fitCanvas(graph, 0.16, 130);
    g.ctx.clearRect(0, 0, g.width, g.height);
    const from = Math.max(0, record.time.length - GRAPH_FRAMES);
    const springs = record.spring.slice(from);
    const tweens = record.tween.slice(from);
    // The speed axis in round steps (100, 200, 500, 1000 px/s...), its top a whole step above the fastest.
    const fastest = Math.max(200, ...springs, ...tweens);
    const step = [100, 200, 500, 1000, 2000, 5000, 10000].find((s) => fastest / s <= 4) ?? 20000;
    const top = Math.ceil((fastest * 1.05) / step) * step;
    const box = { x: 44, y: 26, w: g.width - 46, h: g.height - 44 };
    plotSeries(g.ctx, box, [
      { values: tweens, color: colors.tween },
      { values: springs, color: colors.spring },
    ], 0, top, { length: GRAPH_FRAMES });
    for (const c of record.clicks) {
      if (c < from) continue;
      const px = box.x + ((c - from) / (GRAPH_FRAMES - 1)) * box.w;
      g.ctx.strokeStyle = colors.muted;
      g.ctx.setLineDash([2, 3]);
      g.ctx.beginPath();
      g.ctx.moveTo(px, box.y);
      g.ctx.lineTo(px, box.y + box.h);
      g.ctx.stroke();
      g.ctx.setLineDash([]);
    }
    // The axes' values: speed on the left, seconds before now underneath.
    const yTicks = [];
    for (let v = 0; v <= top; v += step) {
      const py = box.y + box.h - (v / top) * box.h;
      label(g.ctx, String(v), box.x - 5, py + 4, colors.muted, 'right');
      yTicks.push(v);
    }
    // (the graph holds the last GRAPH_FRAMES frames: whole seconds back from the newest, by the frames' times)
    const xTicks = [];
    const newest = record.time.length - 1;
    const span = newest > from ? record.time[newest] - record.time[from] : 0;
    const right = box.x + ((springs.length - 1) / (GRAPH_FRAMES - 1)) * box.w;
    for (let t = Math.floor(span); t >= 0; t -= 1) {
      const px = span > 0 ? right - (t / span) * (right - box.x) : right;
      label(g.ctx, t === 0 ? 'now' : `−${t} s`, Math.min(Math.max(px, box.x + 14), box.x + box.w - 14), g.height - 4, colors.muted, 'center');
      xTicks.push(t);
    }
    record.axis = { speed: yTicks, seconds: xTicks };
    // The legend on the right; the caption shortens where the canvas is narrow (phones).
    label(g.ctx, g.width < 520 ? 'speed (px/s)' : 'speed (px/s) over the last 4 s: dashed lines are clicks', 4, 12);
    label(g.ctx, 'tween', g.width - 56, 12, colors.tween, 'right');
    label(g.ctx, 'spring', g.width - 4, 12, colors.spring, 'right');
    const last = record.time.length - 1;
    root.querySelector('.readout').textContent = last < 0 ? '' :
      `tween ${record.tween[last].toFixed(0)} px/s · spring ${record.spring[last].toFixed(0)} px/s`;
  };

  animate(root, (dt) => {
    if (dt > 0) {
      lab.check(e.lab_retarget_advance(dt), 'retarget');
      time += dt;
      sample();
      if (record.time.length > 20000) {
        const cut = 10000;
        for (const k of ['time', 'spring', 'tween']) record[k].splice(0, cut);
        record.clicks = record.clicks.map((c) => c - cut).filter((c) => c >= 0);
      }
    }
    draw();
  });
  return record;
}
