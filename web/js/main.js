// SPDX-License-Identifier: MIT
// The playground: one page, five sections, every number from the library compiled to wasm.
import { loadLab } from './lab.js';
import { setupRetarget } from './retarget.js';
import { setupTuner } from './tuner.js';
import { setupTraps } from './traps.js';
import { setupUndulation } from './undulation.js';

async function start() {
  const lab = await loadLab();
  const section = (id) => document.getElementById(id);
  // Reachable from the console (and by the browser tests): what each section recorded.
  window.playground = {
    retarget: setupRetarget(lab, section('retarget')),
    tuner: setupTuner(lab, section('tuner')),
    traps: setupTraps(lab, section('tail')),
    undulation: setupUndulation(lab, section('undulation')),
  };
  document.body.dataset.ready = 'true';
  // The avatar, with three.js and its model, is loaded once the rest is ready (#avatar[data-ready]
  // then). It needs WebGL: without it the other sections still work and the section says why.
  window.playground.avatar = await import('./avatar.js').then(({ setupAvatar }) => setupAvatar(section('avatar'))).catch((e) => {
    section('avatar').querySelector('.avatar-status').textContent = `The avatar could not be shown: ${e.message}`;
    console.error(e);
    return null;
  });
  if (window.playground.avatar) section('avatar').dataset.ready = 'true';
}

start().catch((e) => {
  const box = document.getElementById('failure');
  box.hidden = false;
  box.textContent = `The playground could not start: ${e.message}`;
  throw e;
});
