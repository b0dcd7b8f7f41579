// SPDX-License-Identifier: MIT
// No allocation per sampled frame: a motion's update/sample, the chains' and rig's update and
// pose, and a VRM model's motion sample, update and stepped pose, given the state or pose they
// returned before, refill it. Measured as the JavaScript heap's
// growth over 200,000 frames (the least of three such windows) in a Node with a new space large
// enough that no collection runs meanwhile (--min-semi-space-size, --expose-gc): the smallest
// allocation V8 makes (a boxed number)
// is 16 bytes, so a frame that allocates grows the heap by 16 bytes or more, on average.
//
// The calls get fractional numbers (times, steps, roots, targets), each a new one every frame, as a
// game's loop gives them; they are made before the windows and held boxed in an array of objects'
// kind, so that reading one allocates nothing and every byte the heap grows is the library's. (A
// fractional number the library computes and passes on, to another function or to wasm, is boxed
// by some engines: Node 18's V8 did so with sample()'s step, 16 bytes a frame, where Node 20's
// did not.)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import test from 'node:test';

import { Chain2D, SpringMotion, TipChain, loadRig } from '../index.js';
import { root } from './helpers.js';

const FRAMES = 200000;
const js = (file) => JSON.stringify(pathToFileURL(resolve(root, 'js', file)).href);

// Bytes the heap grows per frame for each per-frame path, measured in a fresh Node.
function bytesPerFrame(newObjects) {
	const pass = newObjects ? '' : 'out'; // the red check: `true` measures the calls that make new objects
	const program = `
import { readFileSync } from 'node:fs';
import { Chain2D, SpringMotion, TipChain, loadRig, loadVrm } from ${js('index.js')};
const FRAMES = ${FRAMES};
const result = {};
// n fractional numbers from f(i), held boxed (an array of generic elements stores numbers as objects).
function boxed(n, f) {
	const list = new Array(n);
	list[0] = {};
	for (let i = 0; i < n; i++) list[i] = f(i);
	return list;
}
const TIMES = boxed(4 * FRAMES, (i) => i * 1.01e-4); // sample()'s clock: steps of 1.01e-4 s
const STEPS = boxed(64, (i) => 1 / 60 + i * 1e-6); // frame times near 1/60 s
const SMALL_STEPS = boxed(64, (i) => 1e-4 + i * 1e-7); // steps near 1e-4 s
const COORDS = boxed(64, (i) => i * 0.37 - 11.3); // roots and targets
if (!(%HasObjectElements(TIMES) && %HasObjectElements(STEPS) && %HasObjectElements(SMALL_STEPS) && %HasObjectElements(COORDS))) {
	throw new Error('the numbers are not held boxed');
}
function measure(name, frame) {
	for (let i = 0; i < FRAMES; i++) frame(i); // warmed up: most of the compiler's own allocations are done
	// The least of three windows: a call that allocates grows the heap in every window, while the
	// optimising compiler, finishing late on a loaded machine, puts its code and feedback objects into
	// one of them (seen once in CI as a single window over the bound).
	let least = Infinity;
	for (let w = 1; w <= 3; w++) {
		globalThis.gc();
		const before = process.memoryUsage().heapUsed;
		for (let i = w * FRAMES; i < (w + 1) * FRAMES; i++) frame(i);
		least = Math.min(least, (process.memoryUsage().heapUsed - before) / FRAMES);
	}
	result[name] = least;
}
const two = new SpringMotion({ value: [0, 0], target: [100, 50], params: { duration: 1e6 } });
const twoState = two.state;
const twoTarget = [0, 0];
measure('SpringMotion.setTarget, update (2 channels)', (i) => {
	twoTarget[0] = COORDS[i & 63];
	twoTarget[1] = COORDS[(i + 5) & 63];
	two.setTarget(twoTarget);
	two.update(SMALL_STEPS[i & 63], ${pass ? 'twoState' : 'undefined'});
});
const one = new SpringMotion({ value: 0, target: 100, params: { duration: 1e6 } });
const oneState = one.state;
measure('SpringMotion.setTarget, sample (1 channel)', (i) => {
	one.setTarget(COORDS[i & 63]);
	one.sample(TIMES[i], ${pass ? 'oneState' : 'undefined'});
});
const chain = new Chain2D({ segments: [{ length: 10 }, { length: 10 }, { length: 10 }], gravity: [0, -100] });
const root2 = { x: 0, y: 0, angle: 0 };
const pose2 = chain.pose();
measure('Chain2D.update, pose', (i) => {
	root2.x = COORDS[i & 63];
	root2.angle = COORDS[(i + 7) & 63] * 1e-2;
	chain.update(root2, STEPS[i & 63]).pose(${pass ? 'pose2' : ''});
});
const tip = new TipChain({ bones: [{ tip: [1, 0, 0] }, { position: [1, 0, 0], tip: [1, 0, 0] }] });
const root3 = { position: [0, 0, 0], rotation: [0, 0, 0, 1] };
const pose3 = tip.pose();
measure('TipChain.update, pose', (i) => {
	root3.position[0] = COORDS[i & 63];
	tip.update(root3, STEPS[i & 63]).pose(${pass ? 'pose3' : ''});
});
const rig = await loadRig(readFileSync(${JSON.stringify(resolve(root, 'examples/rigs/character.json'))}, 'utf8'));
rig.play('walk'); // its "teleport" event, applied by applyEvents
const world = rig.pose();
const local = rig.localPose();
const rigRoot = { x: 0, y: 0, angle: 0 };
const ikTarget = [0, 0];
measure('Rig.setRoot, setIkTarget, update, applyEvents, pose, localPose', (i) => {
	rigRoot.x = COORDS[i & 63];
	rig.setRoot(rigRoot);
	ikTarget[0] = COORDS[(i + 3) & 63];
	ikTarget[1] = COORDS[(i + 9) & 63];
	rig.setIkTarget(0, ikTarget);
	rig.update(STEPS[i & 63]).applyEvents();
	rig.pose(${pass ? 'world' : ''});
	rig.localPose(${pass ? 'local' : ''});
});
const vrm = await loadVrm(readFileSync(${JSON.stringify(resolve(root, 'tests/vrm/models/Godette_vrm_v4.vrm'))}));
const walk = vrm.loadMotion(readFileSync(${JSON.stringify(resolve(root, 'tests/vrm/motions/godette-walk.json'))}, 'utf8'));
const transforms = walk.sample(0);
const stepped = vrm.steppedPose();
measure('VrmMotion.sample, Vrm.update, steppedPose', (i) => {
	walk.sample(TIMES[i & 32767], ${pass ? 'transforms' : ''});
	transforms[0] = COORDS[i & 63]; // the model root's x
	vrm.update(${pass ? 'transforms' : 'walk.sample(TIMES[i & 32767])'}, STEPS[i & 63]).steppedPose(${pass ? 'stepped' : ''});
});
const crowd = vrm.crowd(5);
const crowdPose = crowd.restTransforms.slice();
const crowdStepped = crowd.steppedPose();
measure('VrmCrowd.update, steppedPose', (i) => {
	crowdPose[crowd.instanceLength * (i % 5)] = COORDS[i & 63]; // an instance's root x
	crowd.update(${pass ? 'crowdPose' : 'Array.from(crowdPose)'}, STEPS[i & 63]).steppedPose(${pass ? 'crowdStepped' : ''});
});
console.log(JSON.stringify(result));
`;
	const work = mkdtempSync(join(tmpdir(), 'libspring-alloc-'));
	try {
		writeFileSync(join(work, 'frames.mjs'), program);
		const out = execFileSync(process.execPath, ['--expose-gc', '--allow-natives-syntax', '--min-semi-space-size=128', '--max-semi-space-size=128',
			join(work, 'frames.mjs')], { encoding: 'utf8' });
		return JSON.parse(out.trim().split('\n').pop());
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}

test('the per-frame calls given their last result allocate nothing (heap growth per frame under 8 bytes)', (t) => {
	const measured = bytesPerFrame(false);
	t.diagnostic(JSON.stringify(measured));
	assert.equal(Object.keys(measured).length, 7);
	for (const [path, bytes] of Object.entries(measured)) {
		assert.ok(bytes < 8, `${path}: ${bytes} bytes a frame`);
	}
});

test('the same measure sees the calls that make new objects (it would see an allocation)', (t) => {
	const measured = bytesPerFrame(true);
	t.diagnostic(JSON.stringify(measured));
	for (const [path, bytes] of Object.entries(measured)) {
		assert.ok(bytes >= 16, `${path}: ${bytes} bytes a frame`);
	}
});

test('out: the state and pose objects are refilled, their arrays and joints the same objects', async () => {
	const m = new SpringMotion({ value: [0, 0], target: [10, 5] });
	const s = m.update(0.01);
	const { value, velocity } = s;
	assert.equal(m.update(0.01, s), s);
	assert.equal(s.value, value);
	assert.equal(s.velocity, velocity);
	assert.deepEqual(m.state, s, 'the refilled state is the state');
	assert.equal(m.sample(1, s), s);
	assert.throws(() => m.update(0.01, 3), /update: out must be a state object/);
	m.dispose();
	const chain = new Chain2D({ segments: [{ length: 10 }, { length: 10 }] });
	const p = chain.pose();
	const joint = p.joints[1];
	chain.update({ x: 3, y: 0, angle: 0.2 }, 1 / 60);
	assert.equal(chain.pose(p), p);
	assert.equal(p.joints[1], joint);
	assert.deepEqual(p, chain.pose());
	chain.dispose();
	const tip = new TipChain({ bones: [{ tip: [1, 0, 0] }] });
	const q = tip.pose();
	const tipArray = q.tips[0];
	tip.update({ position: [1, 0, 0] }, 1 / 60);
	assert.equal(tip.pose(q), q);
	assert.equal(q.tips[0], tipArray);
	assert.deepEqual(q, tip.pose());
	tip.dispose();
	const { readFileSync } = await import('node:fs');
	const rig = await loadRig(readFileSync(resolve(root, 'examples/rigs/character.json'), 'utf8'));
	const w = rig.pose();
	const bone = w[0];
	rig.update(0.1);
	assert.equal(rig.pose(w), w);
	assert.equal(w[0], bone);
	assert.deepEqual(w, rig.pose());
	rig.dispose();
});
