// SPDX-License-Identifier: MIT
// Section 4, Undulation: the standard 8-bone tail as a 3D tip chain (spring_chain) swinging round
// a sphere collider, drawn in perspective. Drag to move its root; it also turns as it swims.
import { animate, colors, fitCanvas, label } from './canvas.js';

const BALL = { x: 95, y: -35, z: 10, r: 26 };
const BONES = 8;

export function setupUndulation(lab, root) {
  const e = lab.exports;
  lab.check(e.lab_undulation_init(BALL.x, BALL.y, BALL.z, BALL.r), 'undulation');
  const canvas = root.querySelector('canvas.deep');
  const swim = root.querySelector('input[name="swim"]');
  const state = { time: 0, root: { x: -40, y: 30, z: 0 }, points: null, depth: 0, frames: 0 };
  let view = null;
  const camera = { yaw: -0.55, pitch: 0.38, distance: 520, focal: 560 };

  function project([x, y, z]) {
    const cy = Math.cos(camera.yaw), sy = Math.sin(camera.yaw);
    const cp = Math.cos(camera.pitch), sp = Math.sin(camera.pitch);
    const x1 = cy * x + sy * z, z1 = -sy * x + cy * z;
    const y2 = cp * y - sp * z1, z2 = sp * y + cp * z1;
    const depth = camera.distance - z2;
    const k = (camera.focal / depth) * view.scale;
    return { x: view.cx + x1 * k, y: view.cy - y2 * k, k, depth };
  }

  const drag = (ev) => {
    if (ev.type === 'pointermove' && !(ev.buttons & 1) && ev.pointerType === 'mouse') return;
    const r = canvas.getBoundingClientRect();
    state.root.x = ((ev.clientX - r.left - view.cx) / view.scale) * 0.8;
    state.root.y = ((view.cy - (ev.clientY - r.top)) / view.scale) * 0.8;
  };
  canvas.addEventListener('pointerdown', drag);
  canvas.addEventListener('pointermove', drag);

  function draw() {
    const { ctx, width, height } = fitCanvas(canvas, 0.5, 280);
    view = { cx: width * 0.42, cy: height * 0.52, scale: Math.min(width / 520, height / 300) };
    const grad = ctx.createLinearGradient(0, 0, 0, height);
    grad.addColorStop(0, '#eef3fb');
    grad.addColorStop(1, '#dfe7f3');
    ctx.fillStyle = grad;
    ctx.fillRect(0, 0, width, height);
    // the floor grid, for depth
    ctx.strokeStyle = 'rgba(60, 80, 120, 0.15)';
    ctx.lineWidth = 1;
    for (let i = -4; i <= 4; i++) {
      for (const [a, b] of [[[i * 50, -110, -200], [i * 50, -110, 200]], [[-200, -110, i * 50], [200, -110, i * 50]]]) {
        const p = project(a), q = project(b);
        ctx.beginPath();
        ctx.moveTo(p.x, p.y);
        ctx.lineTo(q.x, q.y);
        ctx.stroke();
      }
    }
    if (!state.points) return;
    const pts = [];
    for (let i = 0; i <= BONES; i++) pts.push(project(state.points.slice(3 * i, 3 * i + 3)));
    // painter's order: the sphere and each segment by depth
    const items = [{ depth: project([BALL.x, BALL.y, BALL.z]).depth, draw: () => {
      const c = project([BALL.x, BALL.y, BALL.z]);
      const r = BALL.r * c.k;
      const g = ctx.createRadialGradient(c.x - r * 0.35, c.y - r * 0.35, r * 0.1, c.x, c.y, r);
      g.addColorStop(0, '#ffd6a5');
      g.addColorStop(1, '#e07a2e');
      ctx.fillStyle = g;
      ctx.beginPath();
      ctx.arc(c.x, c.y, r, 0, Math.PI * 2);
      ctx.fill();
      // its shadow on the floor
      const s = project([BALL.x, -110, BALL.z]);
      ctx.fillStyle = 'rgba(40, 50, 80, 0.12)';
      ctx.beginPath();
      ctx.ellipse(s.x, s.y, r, r * 0.3, 0, 0, Math.PI * 2);
      ctx.fill();
    } }];
    for (let i = 0; i < BONES; i++) {
      const a = pts[i], b = pts[i + 1];
      items.push({ depth: (a.depth + b.depth) / 2, draw: () => {
        ctx.strokeStyle = `hsl(${215 - i * 6}, 70%, ${38 + i * 3}%)`;
        ctx.lineWidth = Math.max(2, (12 - i * 1.1) * a.k);
        ctx.lineCap = 'round';
        ctx.beginPath();
        ctx.moveTo(a.x, a.y);
        ctx.lineTo(b.x, b.y);
        ctx.stroke();
      } });
    }
    items.sort((p, q) => q.depth - p.depth).forEach((it) => it.draw());
    const r0 = pts[0];
    ctx.fillStyle = colors.ink;
    ctx.beginPath();
    ctx.arc(r0.x, r0.y, 7 * r0.k, 0, Math.PI * 2);
    ctx.fill();
    label(ctx, 'drag to move the root', width - 10, height - 10, colors.muted, 'right');
    root.dataset.depth = state.depth;
  }

  animate(root, (dt) => {
    if (dt > 0) {
      state.time += dt;
      const on = swim.checked;
      const yaw = on ? 0.7 * Math.sin(state.time * 1.6) : 0;
      const roll = on ? 0.5 * Math.sin(state.time * 0.9) : 0;
      const n = e.lab_undulation_update(state.root.x, state.root.y, state.root.z, yaw, roll, dt);
      if (n < 0) throw new Error(`undulation: ${lab.resultString(-n)}`);
      const out = lab.output(n);
      state.points = out.slice(0, 3 * (BONES + 1));
      state.depth = out[3 * (BONES + 1)];
      state.frames++;
    }
    draw();
  });
  return state;
}
