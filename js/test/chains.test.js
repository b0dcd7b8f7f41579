// SPDX-License-Identifier: MIT
// Chain2D, TipChain and rigs through the package: the shared tail scene of tests/shared/scenes.c
// hashed as tests/test_chain.c hashes it (the native golden), teleports, resets, rest, errors.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import test from 'node:test';

import { Chain2D, SpringError, SpringMotion, TipChain, detSin, loadRig, quatFromAxisAngle, springParams, wasmMemoryBytes }
	from '../index.js';
import { Rig } from '../rig.js';
import { HASH_INIT, cGolden, cliJson, floatBytes, fnv1a, randomUnit, root } from './helpers.js';

// tests/shared/scenes.c: the 8-bone, 20-unit tail (scene_tail_desc) and its animated root
// (scene_tail_root), with the library's deterministic sine.
const TAIL_BONES = 8;
const tailBones = () => Array.from({ length: TAIL_BONES }, (_, i) => ({ position: [i === 0 ? 0 : 20, 0, 0],
	rotation: [0, 0, 0, 1], tip: [20, 0, 0] }));
function tailRoot(t) {
	const x = 30 * detSin(2 * Math.PI * 0.8 * t);
	const y = 10 * detSin(2 * Math.PI * 0.3 * t);
	const a = 0.4 * detSin(2 * Math.PI * 0.5 * t);
	return { position: [Math.fround(x), Math.fround(y), 0], rotation: quatFromAxisAngle([0, 0, 1], Math.fround(a)) };
}

// tests/test_chain.c, test_determinism_golden: gravity, wind, a sphere collider, a cone limit, 3D
// then 2D, 240 frames at 60 Hz, every pose hashed.
const GOLDEN_CHAIN = cGolden('test_chain.c', 'SPRING_TEST_GOLDEN_CHAIN');

test('the tip-chain golden of the shared tail scene, through the package, equals the native hash', () => {
	let hash = HASH_INIT;
	for (const mode2d of [false, true]) {
		const bones = tailBones();
		bones[5].coneLimit = 0.5;
		const chain = new TipChain({ bones, params: { frequency: 2, dampingRatio: 0.3 }, mode2d,
			gravity: [0, -300, mode2d ? 0 : 40], wind: [20, 0, 0],
			colliders: [{ type: 'sphere', a: [70, -30, 0], b: [0, 0, 0], radius: 18 }], root: tailRoot(0) });
		for (let f = 1; f <= 240; f++) {
			chain.update(tailRoot(f / 60), 1 / 60);
			const pose = chain.pose();
			hash = fnv1a(hash, floatBytes(pose.bones.flatMap((b) => [...b.position, ...b.rotation])));
			hash = fnv1a(hash, floatBytes(pose.tips.flat()));
		}
		chain.dispose();
	}
	assert.equal(hash.toString(16), GOLDEN_CHAIN.toString(16));
});

// tests/test_chain2d.c, golden_hash: a gradient, gravity and wind, a limit, per-segment params,
// animation, jittery frames and a teleport, with both integrators; without and with inertia.
const GOLDEN_CHAIN2D = cGolden('test_chain2d.c', 'SPRING_TEST_GOLDEN_CHAIN2D');
const GOLDEN_CHAIN2D_INERTIA = cGolden('test_chain2d.c', 'SPRING_TEST_GOLDEN_CHAIN2D_INERTIA');

function chain2dGolden(noInertia) {
	const TAU = 2 * Math.PI;
	const animRoot = (t, scale) => {
		const a = 0.6 * detSin(TAU * 0.5 * t) + 0.3 * detSin(TAU * 1.1 * t);
		const x = 0.8 * detSin(TAU * 0.4 * t) + 0.2 * detSin(TAU * 1.7 * t);
		const y = 0.5 * detSin(TAU * 0.9 * t);
		return { x: Math.fround(x * scale), y: Math.fround(y * scale), angle: Math.fround(a) };
	};
	const N = 6;
	const segments = Array.from({ length: N }, () => ({ length: 0.8, restAngle: 0.15 }));
	segments[3].limit = 0.4;
	segments[4].params = { frequency: 5, dampingRatio: 0.25 };
	let hash = HASH_INIT;
	for (const integrator of ['exact', 'semi-implicit']) {
		const chain = new Chain2D({ segments, params: { frequency: 1.5, dampingRatio: 0.2 }, tipParams: { frequency: 3.5,
			dampingRatio: 0.4 }, gravity: [0, -9.81], wind: [1, 0.5], root: animRoot(0, 2), noInertia, integrator });
		const seed = { value: 99 };
		let t = 0;
		for (let f = 0; f < 900; f++) {
			// 0.004f + 0.036f * (float)unit, in float, as the C test draws it
			const dt = Math.fround(Math.fround(0.004) + Math.fround(Math.fround(0.036) * Math.fround(randomUnit(seed))));
			t += dt;
			// 0.2f * (float)sin, in float
			chain.setAnimation(Array.from({ length: N }, (_, i) => Math.fround(Math.fround(0.2) * Math.fround(detSin(3 * t + i)))));
			chain.update(animRoot(t, 2), dt);
			if (f === 450) {
				chain.teleport({ x: 50, y: -20, angle: 2.5 });
			}
			const pose = chain.pose();
			hash = fnv1a(hash, floatBytes(pose.joints.flatMap((j) => [j.x, j.y, j.angle, j.scaleX, j.scaleY])));
			hash = fnv1a(hash, floatBytes(pose.localAngles));
		}
		chain.dispose();
	}
	return hash;
}

test('the angle-chain goldens of the C tests, through the package, equal the native hashes', () => {
	assert.equal(chain2dGolden(true).toString(16), GOLDEN_CHAIN2D.toString(16));
	assert.equal(chain2dGolden(false).toString(16), GOLDEN_CHAIN2D_INERTIA.toString(16));
});

const tailSegments = () => Array.from({ length: TAIL_BONES }, (_, i) => ({ length: 20, restAngle: i === 0 ? 3 : 0.1 }));

test('Chain2D: lengths kept, exact rest under a still root, teleport keeps the shape, reset snaps', () => {
	const chain = new Chain2D({ segments: tailSegments(), gravity: [0, -200] });
	assert.equal(chain.segmentCount, TAIL_BONES);
	let pose;
	for (let f = 1; f <= 120; f++) {
		chain.update({ x: 40 * Math.sin(f / 10), y: 0, angle: 0 }, 1 / 60);
		pose = chain.pose();
		for (let k = 0; k < TAIL_BONES; k++) {
			const d = Math.hypot(pose.joints[k + 1].x - pose.joints[k].x, pose.joints[k + 1].y - pose.joints[k].y);
			assert.ok(Math.abs(d - 20) < 1e-3, `segment ${k} is ${d} long`);
		}
	}
	assert.equal(chain.isResting, false);
	// a still root: the chain comes to exact rest and stays
	let frames = 0;
	while (!chain.isResting && frames < 60 * 60) {
		chain.update({ x: 0, y: 0, angle: 0 }, 1 / 60);
		frames++;
	}
	assert.ok(chain.isResting, 'rests within a minute');
	// a teleport moves the shape rigidly: relative to the root nothing changes
	const before = chain.pose();
	chain.teleport({ x: 1000, y: -500, angle: 0 });
	chain.update({ x: 1000, y: -500, angle: 0 }, 1 / 60);
	const after = chain.pose();
	for (let k = 0; k <= TAIL_BONES; k++) {
		assert.ok(Math.abs(after.joints[k].x - 1000 - before.joints[k].x) < 1e-2);
		assert.ok(Math.abs(after.joints[k].y + 500 - before.joints[k].y) < 1e-2);
	}
	// the trap: moving the root that far without a teleport drags the tail out of shape
	const dragged = new Chain2D({ segments: tailSegments(), gravity: [0, -200] });
	const rest = dragged.pose().joints;
	dragged.update({ x: 1000, y: -500, angle: 0 }, 1 / 60);
	const moved = dragged.pose().joints;
	const change = Math.max(...moved.map((j, k) => Math.hypot(j.x - 1000 - rest[k].x, j.y + 500 - rest[k].y)));
	assert.ok(change > 1, `the shape moved by ${change}`);
	dragged.dispose();
	// reset: at rest under the new root at once
	chain.reset({ x: 5, y: 5, angle: 1 });
	chain.update({ x: 5, y: 5, angle: 1 }, 1 / 60);
	assert.equal(chain.pose().joints[0].x, 5);
	chain.dispose();
});

test('Chain2D: bad descriptions and calls throw the library\'s message and change nothing', () => {
	const throwsCode = (fn, code, pattern) => assert.throws(fn, (e) => e instanceof SpringError && e.code === code &&
		pattern.test(e.message));
	throwsCode(() => new Chain2D({ segments: [{ length: -1 }] }), 'OUT_OF_RANGE', /segment 0: length must be in/);
	throwsCode(() => new Chain2D({ segments: [{ length: 1e-7 }] }), 'OUT_OF_RANGE', /length/);
	assert.ok(new Chain2D({ segments: [{ length: 1e-6 }] }) instanceof Chain2D); // the bound itself
	throwsCode(() => new Chain2D({ segments: [] }), 'INVALID_ARGUMENT', /segment_count must be in 1\.\.256/);
	throwsCode(() => new Chain2D({ segments: [{ length: 1, limit: 4 }] }), 'OUT_OF_RANGE', /limit/);
	throwsCode(() => new Chain2D({ segments: [{ length: 1 }], integrator: 'euler' }), 'INVALID_ARGUMENT', /integrator/);
	throwsCode(() => new Chain2D({ segments: [{ length: 1 }], maxSteps: 1.5 }), 'INVALID_ARGUMENT', /maxSteps/);
	const chain = new Chain2D({ segments: tailSegments() });
	chain.update({ x: 3, y: 0, angle: 0 }, 1 / 60);
	const before = chain.pose();
	throwsCode(() => chain.update({ x: NaN, y: 0, angle: 0 }, 1 / 60), 'NOT_FINITE', /NaN or infinite/);
	throwsCode(() => chain.update({ x: 0, y: 0, angle: 0 }, -1), 'OUT_OF_RANGE', /outside/);
	throwsCode(() => chain.setAnimation([1, 2]), 'INVALID_ARGUMENT', /./);
	throwsCode(() => chain.setParams(99, { duration: 1 }), 'INVALID_ARGUMENT', /./);
	assert.deepEqual(chain.pose(), before);
	chain.dispose();
	assert.throws(() => chain.pose(), /disposed/);
});

test('TipChain: errors name the bone and field; colliders, animation and forces change at run time', () => {
	assert.throws(() => new TipChain({ bones: [{ tip: [0, 0, 0] }] }),
		(e) => e.code === 'OUT_OF_RANGE' && /bone 0: tip/.test(e.message));
	assert.throws(() => new TipChain({ bones: [{ tip: [1, 0, 0] }], colliders: [{ type: 'box' }] }),
		(e) => e.code === 'INVALID_ARGUMENT' && /colliders\[0\]\.type/.test(e.message));
	const chain = new TipChain({ bones: tailBones(), params: springParams({ frequency: 3, dampingRatio: 0.5 }), maxColliders: 2 });
	chain.setColliders([{ type: 'plane', a: [0, -5, 0], b: [0, 1, 0] }]);
	assert.throws(() => chain.setColliders([{ radius: -1 }]), (e) => e.code === 'OUT_OF_RANGE');
	chain.setForces([0, -500, 0], [0, 0, 0]);
	for (let f = 0; f < 240; f++) {
		chain.update({ position: [0, 0, 0] }, 1 / 60);
	}
	// gravity pulls the tail down onto the plane at y = -5, which holds every tip above it
	const tips = chain.pose().tips;
	assert.ok(tips[TAIL_BONES - 1][1] < -4 && tips.every((t) => t[1] >= -5 - 1e-3), JSON.stringify(tips.at(-1)));
	chain.setAnimation(null);
	chain.translate([10, 0, 0]);
	chain.rotate(quatFromAxisAngle([0, 0, 1], 0.5), [10, 0, 0]);
	chain.reset({ position: [0, 0, 0] });
	assert.throws(() => chain.update({ position: [2e6, 0, 0] }, 1 / 60), (e) => e.code === 'OUT_OF_RANGE');
	chain.dispose();
});

test('rigs load from the rig format with the reader\'s messages, and run', async () => {
	const text = readFileSync(resolve(root, 'examples/rigs/character.json'), 'utf8');
	const rig = await loadRig(text, 'character.json');
	assert.ok(rig instanceof Rig);
	assert.ok(rig.bones.length > 10 && rig.clips.length > 0 && rig.chains.length > 0);
	rig.play(rig.clips[0].name);
	for (let f = 0; f < 120; f++) {
		rig.setRoot({ x: f, y: 0, angle: 0 });
		rig.update(1 / 60);
	}
	const pose = rig.pose();
	assert.equal(pose.length, rig.bones.length);
	assert.ok(pose.every((b) => Number.isFinite(b.x) && Number.isFinite(b.y) && Number.isFinite(b.angle)));
	assert.throws(() => rig.play('nope'), /no clip named "nope"/);
	assert.throws(() => rig.update(NaN), (e) => e.code === 'NOT_FINITE');
	rig.dispose();
	// the same object as parsed JSON
	const again = Rig.fromJSON(JSON.parse(text));
	assert.equal(again.bones.length, pose.length);
	again.dispose();
	// errors: the JSON path and the reason, as the CLI's reader prints them
	const bad = JSON.parse(text);
	bad.bones[3].parent = 'hipz';
	await assert.rejects(loadRig(JSON.stringify(bad), 'character.json'),
		(e) => e.code === 'BAD_DEFINITION' && /^character\.json: \$\.bones\[3\]\.parent: /.test(e.message));
	await assert.rejects(loadRig('{ "version": 1, ', 'broken.json'), /broken\.json: malformed JSON near line 1/);
});

// The clip events the library defines are the library's to apply (spring_rig_apply_events): the
// walk's "teleport" (by 400, 0 at 0.9 s) puts the character where `spring simulate` does at 2 s,
// bit for bit; a rig that is not told stays at x 0. Once per update; a teleport past the chains'
// coordinate range throws, naming the clip, the event and the limit, and changes nothing.
test('Rig.applyEvents: the clip\'s teleports as the library and `spring simulate` apply them', async () => {
	const file = resolve(root, 'examples/rigs/character.json');
	const text = readFileSync(file, 'utf8');
	const told = await loadRig(text, 'character.json');
	const untold = Rig.fromJSON(text, 'character.json');
	told.play('walk');
	untold.play('walk');
	for (let i = 1; i <= 120; i++) { // the command's frames
		const dt = i / 60 - (i - 1) / 60;
		told.update(dt).applyEvents();
		untold.update(dt);
	}
	const sim = cliJson('simulate', file, '--clip', 'walk');
	const hip = told.bones.findIndex((b) => b.name === 'hip');
	const pose = told.pose();
	assert.deepEqual(pose.map((b) => [b.x, b.y]), sim.poses[120].x.map((x, b) => [Math.fround(x), Math.fround(sim.poses[120].y[b])]));
	assert.ok(Math.abs(pose[hip].x - 800) < 0.01 && Math.abs(untold.pose()[hip].x) < 0.01, `${pose[hip].x}`);
	told.applyEvents(); // a second call: nothing
	assert.deepEqual(told.pose(), pose);
	told.dispose();
	untold.dispose();
	// Past the limit: refused, the rig unchanged, refused again.
	const far = JSON.parse(text);
	far.clips.find((c) => c.name === 'walk').events[0].x = 1e6;
	const rig = Rig.fromJSON(far, 'far.json');
	rig.play('walk', 0.89).update(1 / 60);
	const before = [rig.pose(), rig.localPose(), rig.time];
	const refused = (e) => e instanceof SpringError && e.code === 'OUT_OF_RANGE' &&
		/^applyEvents: clip \d+: event 0: teleport by \(1000000, 0\) of clip "walk" at 0\.9\d* s: root \(1000000, 0\) carries chain "\w+" up to [\d.]+ units from the origin; a chain's bones may reach at most 999000$/
			.test(e.message);
	assert.throws(() => rig.applyEvents(), refused);
	assert.deepEqual([rig.pose(), rig.localPose(), rig.time], before);
	assert.throws(() => rig.applyEvents(), refused);
	rig.update(1 / 60).applyEvents(); // the next update crossed no event
	rig.dispose();
	assert.throws(() => rig.applyEvents(), /applyEvents: the object was disposed/);
});

test('dispose() frees the wasm memory: creating and disposing objects does not grow it', () => {
	const round = () => {
		for (let i = 0; i < 200; i++) {
			new Chain2D({ segments: Array.from({ length: 64 }, () => ({ length: 5 })) }).dispose();
			new TipChain({ bones: tailBones() }).dispose();
			new SpringMotion({ value: [1, 2, 3, 4] }).dispose();
		}
	};
	round();
	const settled = wasmMemoryBytes();
	for (let r = 0; r < 10; r++) {
		round();
	}
	assert.equal(wasmMemoryBytes(), settled);
	// the check sees a leak: the same objects kept alive grow the memory
	const kept = Array.from({ length: 2000 }, () => new Chain2D({ segments: Array.from({ length: 64 }, () => ({ length: 5 })) }));
	assert.ok(wasmMemoryBytes() > settled);
	kept.forEach((c) => c.dispose());
});
