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
