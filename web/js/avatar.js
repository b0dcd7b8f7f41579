// SPDX-License-Identifier: MIT
// Section 5, Avatar: a VRM model (Godette, or one dropped on the view) drawn by three.js with
// three-vrm, its spring bones stepped by libspring through the package's three-vrm adapter
// (useLibspring) or by three-vrm's own update. The avatar is stepped with a simulated frame time,
// 1/rate, over a scripted motion (the head shaken, tests/vrm/motions/godette-shake.json), so its
// figures do not depend on the screen's rate; the plot overlays the spring tips' paths at the
// chosen rate and at 60 fps, the rate the springs are authored for.
import libspringThree from './three-bundle.js';
import { godetteBase64 } from './godette-vrm.js';
import godetteShake from './godette-shake-json.js';
import { loadVrm } from '../../js/index.js';
import { useLibspring } from '../../js/three-vrm.js';
import { animate, colors, fitCanvas, label } from './canvas.js';

const THREE = libspringThree;
export const RATES = [24, 30, 60, 144, 240];
const REFERENCE_RATE = 60;
// The moments every rate has a frame at (multiples of 1/6 s): where paths at two rates are compared.
const SHARED_PER_SECOND = 6;
const ENGINES = { libspring: 'libspring', 'three-vrm': 'three-vrm' };

function fromBase64(text) {
  const raw = atob(text);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

// A model read by three-vrm (mesh, materials, spring bones) and by the library (its node names
// and the motion sampler), under a group the motion's "$root" moves.
async function readModel(bytes, motionJson) {
  const loader = new THREE.GLTFLoader();
  // the look-at is not read: the avatar looks at nothing here (and three-vrm warns of Godette's curves)
  const lookAtPlugin = { name: 'VRMLookAtLoaderPlugin', afterRoot: async () => {} };
  loader.register((parser) => new THREE.VRMLoaderPlugin(parser, { lookAtPlugin }));
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const gltf = await new Promise((resolve, reject) => loader.parse(buffer, '', resolve, reject));
  const vrm = gltf.userData.vrm;
  if (!vrm) throw new Error('the file is a glTF model without VRM data');
  if (vrm.springBoneManager.joints.size === 0) throw new Error('the model has no spring bones');
  const nodes = await gltf.parser.getDependencies('node'); // the three object of each glTF node
  const sampler = await loadVrm(bytes, { name: 'the dropped model' });
  const motionText = typeof motionJson === 'string' ? motionJson : JSON.stringify(motionJson);
  const motion = sampler.loadMotion(motionText);
  const tracked = JSON.parse(motionText).tracks.filter((t) => t.node !== '$root').map((t) => sampler.nodeNames.indexOf(t.node));
  const top = new THREE.Group();
  top.add(vrm.scene);
  vrm.scene.traverse((o) => { o.frustumCulled = false; });
  // the spring tips: each chain's last joint's child, or its last joint when three-vrm gives none
  const joints = [...vrm.springBoneManager.joints];
  const bones = new Set(joints.map((j) => j.bone));
  const tips = joints.filter((j) => !j.child || !bones.has(j.child)).map((j) => j.child ?? j.bone);
  return { vrm, nodes, sampler, motion, tracked, top, tips, transforms: motion.sample(0),
    facesMinusZ: vrm.meta?.metaVersion === '0' };
}

// A motion for a model whose nodes the shake does not name: the same head turns given to the whole model.
function rootShake(json) {
  const m = JSON.parse(json);
  return { duration: m.duration, tracks: [{ node: '$root', rotation: m.tracks[0].rotation }] };
}

export async function setupAvatar(root) {
  const view = root.querySelector('canvas.avatar-view');
  const plot = root.querySelector('canvas.avatar-plot');
  const rateSelect = root.querySelector('select[name="avatar-rate"]');
  const own = root.querySelector('input[name="avatar-three-vrm"]');
  const readout = root.querySelector('.avatar-readout');
  const status = root.querySelector('.avatar-status');

  const renderer = new THREE.WebGLRenderer({ canvas: view, antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  renderer.outputColorSpace = THREE.SRGBColorSpace;
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(colors.soft);
  scene.add(new THREE.AmbientLight(0xffffff, 1.2));
  const sun = new THREE.DirectionalLight(0xffffff, 1.6);
  sun.position.set(1, 2, -2);
  scene.add(sun);
  const camera = new THREE.PerspectiveCamera(30, 1, 0.01, 50);

  // state: what the tests read (the plotted paths, the figures), and the live view's clock
  const state = { rate: 60, engine: ENGINES.libspring, model: 'Godette', plotted: null, spread: null, frames: 0, time: 0 };
  let model = null;
  let springs = null; // the libspring adapter while libspring drives the springs
  let live = 0; // simulated seconds not yet stepped in the view

  function useEngine(engine) {
    if (engine === ENGINES.libspring && !springs) springs = useLibspring(model.vrm, { interpolate: false }); // each frame shows the last step
    if (engine !== ENGINES.libspring && springs) {
      springs.dispose();
      springs = null;
    }
    state.engine = engine;
  }

  // The motion's pose at `time` on the three objects it moves.
  function pose(time) {
    const t = model.motion.sample(time, model.transforms);
    const set = (o, k) => {
      o.position.set(t[7 * k], t[7 * k + 1], t[7 * k + 2]);
      o.quaternion.set(t[7 * k + 3], t[7 * k + 4], t[7 * k + 5], t[7 * k + 6]);
    };
    set(model.top, 0);
    for (const n of model.tracked) set(model.nodes[n], n + 1);
    model.top.updateMatrixWorld(true);
  }

  function restart() {
    pose(0);
    model.vrm.springBoneManager.reset();
    model.top.updateMatrixWorld(true);
    state.time = 0;
    live = 0;
  }

  // The scripted run: the motion from rest, one update of 1/rate s a frame; every tip's world
  // position at every frame (x, y, z, frame after frame).
  const runs = new Map();
  function run(engine, rate) {
    const key = `${engine} ${rate}`;
    if (runs.has(key)) return runs.get(key);
    useEngine(engine);
    restart();
    const frames = Math.round(model.motion.duration * rate);
    const paths = model.tips.map(() => new Float64Array(3 * (frames + 1)));
    const p = new THREE.Vector3();
    const record = (i) => model.tips.forEach((tip, k) => {
      tip.getWorldPosition(p);
      paths[k].set([p.x, p.y, p.z], 3 * i);
    });
    record(0);
    for (let i = 1; i <= frames; i++) {
      pose(i / rate);
      model.vrm.springBoneManager.update(1 / rate);
      model.top.updateMatrixWorld(true);
      record(i);
    }
    const result = { engine, rate, frames, paths: paths.map((a) => Array.from(a)) };
    runs.set(key, result);
    return result;
  }

  // The farthest any tip is from its path in `b`, at the moments both runs have a frame.
  function spread(a, b) {
    let worst = 0;
    const shared = Math.round(model.motion.duration * SHARED_PER_SECOND);
    for (let s = 0; s <= shared; s++) {
      const ia = (s * a.rate) / SHARED_PER_SECOND, ib = (s * b.rate) / SHARED_PER_SECOND;
      a.paths.forEach((pa, k) => {
        const pb = b.paths[k];
        worst = Math.max(worst, Math.hypot(pa[3 * ia] - pb[3 * ib], pa[3 * ia + 1] - pb[3 * ib + 1], pa[3 * ia + 2] - pb[3 * ib + 2]));
      });
    }
    return worst;
  }

  const cm = (m) => `${(m * 100).toFixed(m < 0.001 ? 4 : 2)} cm`;

  function measure() {
    const engine = own.checked ? ENGINES['three-vrm'] : ENGINES.libspring;
    const rate = Number(rateSelect.value);
    const chosen = run(engine, rate);
    const reference = run(engine, REFERENCE_RATE);
    state.rate = rate;
    state.plotted = { engine, rate, reference: REFERENCE_RATE, chosen, referenceRun: reference };
    state.spread = spread(chosen, reference);
    useEngine(engine);
    restart();
    readout.textContent = `${engine === ENGINES.libspring ? 'libspring' : 'three-vrm\'s own springs'} at ${rate} fps: the ` +
      `${model.tips.length} spring tips are at most ${cm(state.spread)} from their ${REFERENCE_RATE} fps paths ` +
      `(the same motion, compared every 1/${SHARED_PER_SECOND} s).`;
    drawPlot();
  }

  // The tips' paths seen from above (x across, z up the plot): the chosen rate solid, 60 fps dashed.
  function drawPlot() {
    const { ctx, width, height } = fitCanvas(plot, 0.5, 220);
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, width, height);
    const { chosen, referenceRun } = state.plotted;
    let [x0, x1, z0, z1] = [Infinity, -Infinity, Infinity, -Infinity];
    for (const r of [chosen, referenceRun]) {
      for (const pth of r.paths) {
        for (let i = 0; i < pth.length; i += 3) {
          x0 = Math.min(x0, pth[i]); x1 = Math.max(x1, pth[i]);
          z0 = Math.min(z0, pth[i + 2]); z1 = Math.max(z1, pth[i + 2]);
        }
      }
    }
    const pad = 24;
    const scale = Math.min((width - 2 * pad) / Math.max(x1 - x0, 1e-6), (height - 2 * pad - 32) / Math.max(z1 - z0, 1e-6));
    const cx = width / 2 - ((x0 + x1) / 2) * scale, cy = (height + 32) / 2 + ((z0 + z1) / 2) * scale;
    const line = (r, color, dash) => {
      ctx.strokeStyle = color;
      ctx.lineWidth = dash.length ? 1.5 : 1.25;
      ctx.setLineDash(dash);
      for (const pth of r.paths) {
        ctx.beginPath();
        for (let i = 0; i < pth.length; i += 3) {
          const px = cx + pth[i] * scale, py = cy - pth[i + 2] * scale;
          if (i === 0) ctx.moveTo(px, py); else ctx.lineTo(px, py);
        }
        ctx.stroke();
      }
      ctx.setLineDash([]);
    };
    line(referenceRun, colors.muted, [4, 3]);
    line(chosen, state.plotted.engine === ENGINES.libspring ? colors.spring : colors.tween, []);
    label(ctx, `spring tips from above, ${state.plotted.engine === ENGINES.libspring ? 'libspring' : 'three-vrm'}`, 8, 16, colors.ink);
    label(ctx, `${chosen.rate} fps solid, ${REFERENCE_RATE} fps dashed`, 8, 32, colors.muted);
    // a scale bar of 5 cm
    ctx.strokeStyle = colors.ink;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(width - pad - 0.05 * scale, height - 10);
    ctx.lineTo(width - pad, height - 10);
    ctx.stroke();
    label(ctx, '5 cm', width - pad - 0.05 * scale - 6, height - 6, colors.muted, 'right');
  }

  function frameCamera() {
    const box = new THREE.Box3().setFromObject(model.vrm.scene);
    const size = box.getSize(new THREE.Vector3());
    const centre = box.getCenter(new THREE.Vector3());
    const side = model.facesMinusZ ? -1 : 1;
    const distance = (size.y * 0.62) / Math.tan((camera.fov * Math.PI) / 360);
    camera.position.set(centre.x + side * distance * 0.35, centre.y + size.y * 0.08, centre.z + side * distance);
    camera.lookAt(centre.x, centre.y + size.y * 0.05, centre.z);
  }

  async function show(bytes, name, motionJson) {
    const next = await readModel(bytes, motionJson);
    if (model) {
      if (springs) springs.dispose();
      springs = null;
      scene.remove(model.top);
      model.motion.dispose();
      model.sampler.dispose();
    }
    model = next;
    runs.clear();
    scene.add(model.top);
    state.model = name;
    frameCamera();
    measure();
  }

  function resize() {
    const width = view.clientWidth || view.parentElement.clientWidth;
    const height = Math.max(260, Math.round(width * 0.75));
    if (view.height !== Math.round(height * (window.devicePixelRatio || 1)) || !view.style.height) {
      view.style.height = `${height}px`;
      renderer.setSize(width, height, false);
      camera.aspect = width / height;
      camera.updateProjectionMatrix();
    }
  }

  // Live: the same fixed steps of 1/rate s, as many as the screen's time allows (at most 8 a frame).
  animate(root, (dt) => {
    if (!model) return;
    resize();
    const step = 1 / state.rate;
    live = Math.min(live + dt, 8 * step);
    while (live >= step) {
      live -= step;
      state.time += step;
      if (state.time > model.motion.duration + 0.5) restart(); // half a second still, then again
      pose(Math.min(state.time, model.motion.duration));
      model.vrm.springBoneManager.update(step);
    }
    renderer.render(scene, camera);
    state.frames++;
  });

  rateSelect.addEventListener('change', measure);
  own.addEventListener('change', measure);
  // a dropped .vrm is read here (arrayBuffer), never sent anywhere
  view.addEventListener('dragover', (e) => { e.preventDefault(); root.classList.add('dropping'); });
  view.addEventListener('dragleave', () => root.classList.remove('dropping'));
  view.addEventListener('drop', async (e) => {
    e.preventDefault();
    root.classList.remove('dropping');
    const file = e.dataTransfer?.files?.[0];
    if (!file) return;
    status.textContent = `Reading ${file.name}...`;
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      await show(bytes, file.name, JSON.stringify(rootShake(godetteShake)));
      status.textContent = `${file.name}: ${model.tips.length} spring tips, turned from side to side as a whole.`;
    } catch (error) {
      status.textContent = `${file.name} could not be shown: ${error.message}`;
    }
  });

  await show(fromBase64(godetteBase64), 'Godette', godetteShake);
  return state;
}
