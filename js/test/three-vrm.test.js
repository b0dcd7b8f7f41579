// SPDX-License-Identifier: MIT
// libspring/three-vrm against three-vrm itself (@pixiv/three-vrm-springbone, as tests/vrm/threevrm
// pins and loads it under Node): each model of tests/vrm/models loaded twice by three-vrm, one
// stepped by three-vrm's own update, the other handed to useLibspring, both played the same
// motion at 60 fps (where a frame is a step of the springs' 60 Hz): the joints' rotations and the
// tails agree to within what separates the library from three-vrm in float32.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import test from 'node:test';

import { liveObjectCount, loadVrm } from '../index.js';
import { useLibspring } from '../three-vrm.js';
import { root } from './helpers.js';

// three.js and three-vrm as tests/vrm/threevrm pins them (make test-web installs them there)
const { lib } = await import(resolve(root, 'tests/vrm/threevrm/gen.mjs'));
const { loadModel } = await import(resolve(root, 'tests/vrm/threevrm/model.mjs'));

const MODELS = [['sphere-collider.gltf', 'sway.json'], ['inside-collider.gltf', 'turn.json'], ['plane-collider.gltf', 'shake.json'],
	['Godette_vrm_v4.vrm', 'godette-walk.json']];

// One avatar as three-vrm loads it, under a root group the motion's "$root" moves.
async function avatar(file) {
	const model = await loadModel(lib, resolve(root, 'tests/vrm/models', file));
	const top = model.gltf.scene.clone(false);
	top.clear();
	top.name = '$root';
	top.add(model.gltf.scene);
	return { ...model, top, vrm: { scene: model.gltf.scene, springBoneManager: model.manager } };
}

// The motion's pose at `time` on the avatar's three.js objects (through the library's sampler).
function pose(a, motion, transforms, time, tracked) {
	motion.sample(time, transforms);
	const set = (o, k) => {
		o.position.set(transforms[7 * k], transforms[7 * k + 1], transforms[7 * k + 2]);
		o.quaternion.set(transforms[7 * k + 3], transforms[7 * k + 4], transforms[7 * k + 5], transforms[7 * k + 6]);
	};
	set(a.top, 0);
	tracked.forEach((n) => set(a.nodes[n], n + 1));
	a.top.updateMatrixWorld(true);
}

// How far apart two rotations' components are (q and -q being one rotation).
function apart(p, q) {
	const [a, b] = [p.toArray(), q.toArray()];
	const sign = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] < 0 ? -1 : 1;
	return Math.max(...a.map((v, c) => Math.abs(v - sign * b[c])));
}

async function compare(file, motionName, interpolate) {
	const three = await avatar(file);
	const ours = await avatar(file);
	const springs = useLibspring(ours.vrm, { interpolate });
	const sampler = await loadVrm(readFileSync(resolve(root, 'tests/vrm/models', file)));
	const json = JSON.parse(readFileSync(resolve(root, 'tests/vrm/motions', motionName), 'utf8'));
	const motion = sampler.loadMotion(json);
	const tracked = json.tracks.filter((t) => t.node !== '$root').map((t) => sampler.nodeNames.indexOf(t.node));
	const transforms = motion.sample(0);
	const joints = [...three.manager.joints];
	const bonesOurs = [...ours.manager.joints].map((j) => j.bone);
	pose(three, motion, transforms, 0, tracked);
	three.manager.reset();
	pose(ours, motion, transforms, 0, tracked);
	ours.vrm.springBoneManager.reset();
	let worst = 0; // against three-vrm's pose of the same step
	let other = 0; // against the frame the mode does not show (the measure sees a step)
	let history = joints.map((j) => j.bone.quaternion.clone());
	const frames = Math.round(motion.duration * 60);
	for (let i = 1; i <= frames; i++) {
		pose(three, motion, transforms, i / 60, tracked);
		pose(ours, motion, transforms, i / 60, tracked);
		const before = history;
		three.manager.update(1 / 60);
		ours.vrm.springBoneManager.update(1 / 60); // the avatar's own call, now libspring's
		history = joints.map((j) => j.bone.quaternion.clone());
		// stepped: this frame's step; interpolated: one step behind
		const [want, not] = interpolate ? [before, history] : [history, before];
		bonesOurs.forEach((bone, k) => {
			worst = Math.max(worst, apart(want[k], bone.quaternion));
			other = Math.max(other, apart(not[k], bone.quaternion));
		});
	}
	springs.dispose();
	motion.dispose();
	sampler.dispose();
	return [worst, other];
}

for (const interpolate of [false, true]) {
	test(`useLibspring on each model drives its joints as three-vrm does (${interpolate ? 'interpolated, a step behind' : 'stepped'})`,
		async (t) => {
			for (const [file, motion] of MODELS) {
				const [worst, other] = await compare(file, motion, interpolate);
				t.diagnostic(`${file} ${motion}: quaternion components ${worst} apart at most (${other} a frame off)`);
				// libspring's rotations are float32, three-vrm's double: within 2^-23 (a float's step at 1)
				assert.ok(worst < 2 ** -23, `${file} ${motion}: ${worst}`);
				assert.ok(other > 1e-3, `${file} ${motion}: a frame off is only ${other}`);
			}
		});
}

test('useLibspring: the avatar\'s own update steps libspring until dispose, which gives three-vrm its update back', async () => {
	const a = await avatar('sphere-collider.gltf');
	const ownUpdate = a.manager.update;
	const count = liveObjectCount();
	const springs = useLibspring(a.vrm);
	assert.notEqual(a.manager.update, ownUpdate);
	assert.equal(liveObjectCount(), count + 1);
	assert.equal(springs.vrm.boneCount, 4);
	assert.equal(springs.vrm.colliderCount, 1);
	a.top.position.x = 0.5;
	a.top.updateMatrixWorld(true);
	a.manager.update(1 / 60);
	a.manager.update(1 / 60); // the interpolated pose shows the first step now
	const bone = [...a.manager.joints][0].bone;
	assert.notDeepEqual(bone.quaternion.toArray(), [0, 0, 0, 1], 'the root moved: the first joint turned');
	assert.deepEqual(bone.quaternion.toArray(), [...springs.vrm.rotations.subarray(0, 4)]);
	assert.equal(springs.isResting, false);
	springs.reset();
	assert.equal(springs.isResting, true);
	springs.dispose();
	springs.dispose();
	assert.equal(a.manager.update, ownUpdate);
	assert.equal(liveObjectCount(), count);
	// the manager alone works too (the root: the joints' topmost ancestor)
	const b = await avatar('plane-collider.gltf');
	const alone = useLibspring(b.manager, { rate: 120, length: 'rest' });
	assert.equal(alone.vrm.boneCount, 4);
	alone.dispose();
});

test('useLibspring refuses what is not a three-vrm avatar, and unknown options', async () => {
	assert.throws(() => useLibspring({}), /useLibspring: give a three-vrm VRM or its springBoneManager \(got an object\)/);
	assert.throws(() => useLibspring(null), TypeError);
	const a = await avatar('sphere-collider.gltf');
	assert.throws(() => useLibspring(a.vrm, { interpolated: false }), /options: unknown key "interpolated" \(did you mean "interpolate"\?\)/);
	assert.throws(() => useLibspring(a.vrm, { root: 5 }), /options\.root must be a three\.js object/);
	assert.throws(() => useLibspring(a.vrm, { length: 'measure' }), /options\.length: "measure" is not a bone-length rule/);
	assert.equal(a.manager.update.name, 'update', 'a refused call leaves three-vrm\'s update in place');
});

// The frame-rate test: each model and motion played at 24, 30, 144 and 240 fps, the joints' tails
// (world positions, read off the three.js objects the adapter writes) compared with the same
// avatar's own 60 fps run at the times both runs end a frame on, as RMS and max of the distance
// over each spring's chain length (the sum of its bones' lengths at rest); beside it three-vrm's
// own spread on the same runs. The adapter shows the stepped pose (interpolate: false), so a
// compared frame shows the step that ends on it.
const RATES = [24, 30, 144, 240];
const RATE_RUNS = [
	...['sphere-collider.gltf', 'inside-collider.gltf', 'plane-collider.gltf'].flatMap((file) =>
		['sway', 'turn', 'walk', 'shake'].map((m) => [file, `${m}.json`])),
	['Godette_vrm_v4.vrm', 'godette-walk.json'], ['Godette_vrm_v4.vrm', 'godette-shake.json'],
];
// Below the target (0.25% RMS), measured: the fast 4 Hz shakes seen through 24 or 30 frames a
// second. The pose is known only at the frames, so a slower host hands the steps between them a
// pose the 60 fps one does not: the gap is in the input, not the step (at 240 fps it is 0). The
// bounds are the measured numbers, rounded up, kept from getting worse.
const BELOW_TARGET = [
	['plane-collider.gltf', 'shake.json', 24, 0.0080],
	['Godette_vrm_v4.vrm', 'godette-shake.json', 24, 0.0180],
	['Godette_vrm_v4.vrm', 'godette-shake.json', 30, 0.0080],
];

// Each joint's tail in world space, the bone's matrixWorld current (three-vrm's own tail rule: the
// child's rest place, or 7 cm along the bone for a leaf).
function tailsOf(joints, out, at) {
	joints.forEach((j, k) => {
		const p = j.bone.localToWorld(j.initialLocalChildPosition.clone());
		out.set([p.x, p.y, p.z], at + 3 * k);
	});
}

// One run at `fps` frames a second: the tails at every frame whose time is a whole 60th of a
// second, by that 60th (a Map of step to Float64Array of 3 x joints); with the chain lengths.
async function rateRun(file, motionName, fps, adapter) {
	const a = await avatar(file);
	const springs = adapter ? useLibspring(a.vrm, { interpolate: false }) : null;
	const sampler = await loadVrm(readFileSync(resolve(root, 'tests/vrm/models', file)));
	const json = JSON.parse(readFileSync(resolve(root, 'tests/vrm/motions', motionName), 'utf8'));
	const motion = sampler.loadMotion(json);
	const tracked = json.tracks.filter((t) => t.node !== '$root').map((t) => sampler.nodeNames.indexOf(t.node));
	const transforms = motion.sample(0);
	const joints = [...a.manager.joints];
	pose(a, motion, transforms, 0, tracked);
	a.manager.reset();
	a.top.updateMatrixWorld(true);
	// chain lengths: a joint whose bone's parent is a joint's bone continues that joint's spring
	const rest = new Float64Array(3 * joints.length);
	tailsOf(joints, rest, 0);
	const byBone = new Map(joints.map((j, k) => [j.bone, k]));
	const chainOf = joints.map(() => 0);
	const chainLength = [];
	joints.forEach((j, k) => {
		const up = byBone.get(j.bone.parent);
		chainOf[k] = up === undefined ? chainLength.push(0) - 1 : chainOf[up];
		const head = j.bone.getWorldPosition(j.bone.position.clone());
		chainLength[chainOf[k]] += Math.hypot(rest[3 * k] - head.x, rest[3 * k + 1] - head.y, rest[3 * k + 2] - head.z);
	});
	const tails = new Map();
	const frames = Math.round(motion.duration * fps);
	for (let i = 1; i <= frames; i++) {
		pose(a, motion, transforms, i / fps, tracked);
		a.manager.update(1 / fps);
		if ((i * 60) % fps === 0) {
			const t = new Float64Array(3 * joints.length);
			tailsOf(joints, t, 0);
			tails.set((i * 60) / fps, t);
		}
	}
	springs?.dispose();
	motion.dispose();
	sampler.dispose();
	return { tails, lengths: joints.map((_, k) => chainLength[chainOf[k]]) };
}

// RMS and max of the tails' distance over the chain length, at the steps both runs have.
function spread(run, base) {
	let sum = 0;
	let max = 0;
	let samples = 0;
	for (const [step, t] of run.tails) {
		const b = base.tails.get(step);
		for (let k = 0; b && k < base.lengths.length; k++) {
			const e = Math.hypot(t[3 * k] - b[3 * k], t[3 * k + 1] - b[3 * k + 1], t[3 * k + 2] - b[3 * k + 2]) / base.lengths[k];
			sum += e * e;
			max = Math.max(max, e);
			samples++;
		}
	}
	return { rms: samples ? Math.sqrt(sum / samples) : 0, max, samples };
}

test('useLibspring at 24, 30, 144 and 240 fps stays within 0.25% RMS of its own 60 fps run (three-vrm\'s own spread beside it)',
	async (t) => {
		let within = 0;
		let runs = 0;
		const pct = (v) => `${(100 * v).toFixed(3)}%`;
		for (const [file, motion] of RATE_RUNS) {
			const ours60 = await rateRun(file, motion, 60, true);
			const theirs60 = await rateRun(file, motion, 60, false);
			for (const fps of RATES) {
				const ours = spread(await rateRun(file, motion, fps, true), ours60);
				const theirs = spread(await rateRun(file, motion, fps, false), theirs60);
				const below = BELOW_TARGET.find(([f, m, r]) => f === file && m === motion && r === fps);
				const bound = below ? below[3] : 0.0025;
				t.diagnostic(`${file} ${motion} ${fps} fps: ${pct(ours.rms)} RMS / ${pct(ours.max)} max of the chain length${
					below ? `   BELOW TARGET (0.25% RMS; bound ${pct(bound)})` : ''}   three-vrm: ${pct(theirs.rms)} / ${pct(theirs.max)}`);
				assert.ok(ours.samples >= 12 * ours60.lengths.length, `${file} ${motion} ${fps} fps: ${ours.samples} samples`);
				assert.ok(ours.rms <= bound, `${file} ${motion} ${fps} fps: ${pct(ours.rms)} RMS over ${pct(bound)}`);
				within += ours.rms <= 0.0025;
				runs++;
			}
		}
		t.diagnostic(`${within} of ${runs} runs within 0.25% RMS of the chain length`);
		assert.equal(within, runs - BELOW_TARGET.length, 'a run below the target is listed in BELOW_TARGET');
	});
