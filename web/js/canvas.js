// SPDX-License-Identifier: MIT
// Canvas helpers shared by the sections: sharp drawing on high-density screens, the palette,
// and a time-series plot.
export const colors = {
  ink: '#1d2433', muted: '#6b7385', grid: '#e3e7ef', spring: '#2f6fed', tween: '#e4572e',
  band: 'rgba(47, 111, 237, 0.10)', accent: '#11a683', bone: '#3b4256', trap: '#d7263d', soft: '#f4f6fa',
};

// Sizes the canvas to its CSS box (width from the layout, height from `aspect` with a floor) and
// returns a 2D context in CSS pixels.
export function fitCanvas(canvas, aspect, minHeight = 0) {
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth || canvas.parentElement.clientWidth;
  const height = Math.max(minHeight, Math.round(width * aspect));
  canvas.style.height = `${height}px`;
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
  }
  const ctx = canvas.getContext('2d');
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  return { ctx, width, height };
}

// Draws series (arrays of values sharing x) between yMin and yMax into the box.
export function plotSeries(ctx, box, series, yMin, yMax, options = {}) {
  const { x, y, w, h } = box;
  ctx.save();
  ctx.strokeStyle = colors.grid;
  ctx.lineWidth = 1;
  ctx.strokeRect(x + 0.5, y + 0.5, w - 1, h - 1);
  if (options.zero !== undefined) {
    const zy = y + h - ((options.zero - yMin) / (yMax - yMin)) * h;
    ctx.beginPath();
    ctx.moveTo(x, zy);
    ctx.lineTo(x + w, zy);
    ctx.stroke();
  }
  for (const s of series) {
    if (s.values.length < 2) continue;
    ctx.strokeStyle = s.color;
    ctx.lineWidth = s.width || 2;
    ctx.setLineDash(s.dash || []);
    ctx.beginPath();
    const n = options.length || s.values.length;
    s.values.forEach((v, i) => {
      const px = x + (i / (n - 1)) * w;
      const py = y + h - ((Math.min(Math.max(v, yMin), yMax) - yMin) / (yMax - yMin)) * h;
      if (i === 0) ctx.moveTo(px, py); else ctx.lineTo(px, py);
    });
    ctx.stroke();
  }
  ctx.restore();
}

export function label(ctx, text, x, y, color = colors.muted, align = 'left', font = '12px system-ui, sans-serif') {
  ctx.save();
  ctx.fillStyle = color;
  ctx.font = font;
  ctx.textAlign = align;
  ctx.fillText(text, x, y);
  ctx.restore();
}

export function disc(ctx, x, y, r, fill, stroke) {
  ctx.beginPath();
  ctx.arc(x, y, r, 0, Math.PI * 2);
  ctx.fillStyle = fill;
  ctx.fill();
  if (stroke) {
    ctx.strokeStyle = stroke;
    ctx.lineWidth = 2;
    ctx.stroke();
  }
}

// Runs `frame(dt)` on every animation frame while the element is on screen (dt in seconds,
// capped at 0.25 s so a background tab does not arrive as one enormous frame).
export function animate(element, frame) {
  let last = null;
  let visible = true;
  if ('IntersectionObserver' in window) {
    new IntersectionObserver((entries) => { visible = entries[0].isIntersecting; }).observe(element);
  }
  let frames = 0;
  const tick = (now) => {
    const dt = last === null ? 0 : Math.min((now - last) / 1000, 0.25);
    last = now;
    if (visible) {
      frame(dt);
      // How many frames the section has drawn: what the browser tests wait for (never a time).
      element.dataset.frames = String(++frames);
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}
