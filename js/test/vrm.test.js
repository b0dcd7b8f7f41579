// SPDX-License-Identifier: MIT
// VRM avatars' spring bones through loadVrm: the same bits as the native C build (the CLI's
// `spring simulate MODEL --motion M --csv -`, whose %.9g round-trips every float), for a VRM 0.x
// .vrm and VRMC_springBone 1.0 .gltf files, the stepped and the interpolated pose, the rate and
// bone-length options; and bad input refused with a message naming the problem, the model
// unchanged.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import test from 'node:test';

import { SpringError, liveObjectCount, loadVrm } from '../index.js';
import { Vrm } from '../vrm.js';
import { cli, f, root } from './helpers.js';

const model = (name) => resolve(root, 'tests/vrm/models', name);
const motionFile = (name) => resolve(root, 'tests/vrm/motions', name);
const GODETTE = 'Godette_vrm_v4.vrm';

// Plays `motion` on `file` as `spring simulate` does (reset under the pose at 0, frame i at i / fps)
// and compares every row of its CSV, bit for bit (the sign of zero too).
async function sameAsCli(file, motion, fps, extra = [], options = {}) {
	const rows = cli('simulate', model(file), '--motion', motionFile(motion), '--fps', String(fps), ...extra, '--csv', '-')
		.trim().split('\n').slice(1).map((line) => line.split(','));
	const vrm = await loadVrm(readFileSync(model(file)), { name: file, ...options });
	const m = vrm.loadMotion(readFileSync(motionFile(motion), 'utf8'), motion);
	const frames = Math.floor(m.duration * fps + 0.5);
	assert.equal(rows.length, frames * vrm.boneCount);
	const rate = options.rate ?? 60;
	const stepped = Math.abs(rate / fps - Math.round(rate / fps)) < 1e-9 && Math.round(rate / fps) >= 1;
	const transforms = m.sample(0);
	vrm.reset(transforms);
	const pose = vrm.steppedPose();
	let compared = 0;
	for (let i = 1; i <= frames; i++) {
		vrm.update(m.sample(i / fps, transforms), 1 / fps);
		const { rotations, tails } = stepped ? vrm.steppedPose(pose) : vrm;
		for (let b = 0; b < vrm.boneCount; b++) {
			const row = rows[(i - 1) * vrm.boneCount + b];
			assert.equal(Number(row[1]), i);
			assert.equal(row[3], vrm.nodeNames[vrm.boneNodes[b]], `frame ${i} bone ${b}: the head node`);
			const want = row.slice(4).map(f);
			const got = [...rotations.subarray(4 * b, 4 * b + 4), ...tails.subarray(3 * b, 3 * b + 3)];
			for (let k = 0; k < 7; k++) {
				assert.ok(Object.is(got[k], want[k]), `${file} ${motion} at ${fps} fps, frame ${i}, bone ${b} `
					+ `("${row[3]}"), ${['qx', 'qy', 'qz', 'qw', 'tx', 'ty', 'tz'][k]}: ${got[k]}, the C build ${want[k]}`);
				compared++;
			}
		}
	}
	m.dispose();
	vrm.dispose();
	return compared;
}

test('Godette (VRM 0.x, .vrm) walking at 60 fps: the stepped pose is the C build\'s, bit for bit', async () => {
	assert.equal(await sameAsCli(GODETTE, 'godette-walk.json', 60), 240 * 16 * 7);
});

test('Godette shaking its head at 144 fps: the interpolated pose is the C build\'s, bit for bit', async () => {
	assert.equal(await sameAsCli(GODETTE, 'godette-shake.json', 144), 288 * 16 * 7);
});

test('VRMC_springBone 1.0 (.gltf; sphere, inside and plane colliders): the C build\'s numbers, options too', async () => {
	await sameAsCli('sphere-collider.gltf', 'sway.json', 144);
	await sameAsCli('inside-collider.gltf', 'turn.json', 60, ['--rate', '120', '--length', 'measured'],
		{ rate: 120, length: 'measured' });
	await sameAsCli('plane-collider.gltf', 'shake.json', 30, ['--rate', '90'], { rate: 90 });
});

test('what a model says of itself: nodes, bones in output order, rest lengths, rest pose', async () => {
	const bytes = readFileSync(model('sphere-collider.gltf'));
	const gltf = JSON.parse(bytes.toString('utf8'));
	for (const source of [bytes, bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length), bytes.toString('utf8'), gltf]) {
		const vrm = await loadVrm(source);
		assert.equal(vrm.format, '1.0');
		assert.equal(vrm.nodeCount, gltf.nodes.length);
		assert.deepEqual(vrm.nodeNames, gltf.nodes.map((node, k) => node.name ?? `#${k}`));
		assert.deepEqual([...vrm.boneNodes].map((n) => vrm.nodeNames[n]), ['Spring A', 'Spring B', 'Spring C', 'Spring D']);
		assert.equal(vrm.boneCount, 4);
		assert.equal(vrm.transformLength, (1 + gltf.nodes.length) * 7);
		assert.deepEqual([...vrm.restTransforms.subarray(0, 7)], [0, 0, 0, 0, 0, 0, 1]);
		const n = gltf.nodes.findIndex((node) => node.name === 'Spring B');
		assert.deepEqual([...vrm.restTransforms.subarray(7 * (1 + n), 7 * (1 + n) + 3)], gltf.nodes[n].translation.map(Math.fround));
		// each bone is its tail's 2 m translation under Spring A's scale of 0.25
		assert.deepEqual([...vrm.restLengths], [0.5, 0.5, 0.5, 0.5]);
		// and the tails at rest hang straight down from Spring A at y = 2, 0.5 apart
		assert.deepEqual([...vrm.tails], [0, 1.5, 0, 0, 1, 0, 0, 0.5, 0, 0, 0, 0]);
		assert.equal(vrm.rotations.length, 16);
		assert.equal(vrm.tails.length, 12);
		vrm.dispose();
	}
	const godette = Vrm.load(readFileSync(model(GODETTE)));
	assert.equal(godette.format, '0.x');
	assert.equal(godette.boneCount, 16);
	assert.equal(godette.springCount, 8);
	assert.equal(godette.colliderCount, 4);
	godette.dispose();
});

const errorWith = (fn, code, pattern) => assert.throws(fn, (e) => {
	assert.ok(e instanceof SpringError, `a SpringError, got ${e}`);
	assert.equal(e.code, code, e.message);
	assert.match(e.message, pattern);
	return true;
});

test('a bad model is refused with the reader\'s message (file, JSON path, reason)', async () => {
	const bytes = readFileSync(model(GODETTE));
	await assert.rejects(loadVrm(bytes.subarray(0, 5000), { name: 'cut.vrm' }),
		/^SpringError: cut\.vrm: the GLB header gives a length of 591288 bytes, the data has 5000$/);
	await assert.rejects(loadVrm({ asset: { version: '2.0' }, nodes: [{ name: 'hips' }] }, { name: 'plain.gltf' }),
		(e) => e.code === 'BAD_DEFINITION' && e.message === 'plain.gltf: $.extensions: no spring bones: the file has neither '
			+ 'VRMC_springBone (VRM 1.0) nor VRM.secondaryAnimation (VRM 0.x)');
	const gltf = JSON.parse(readFileSync(model('sphere-collider.gltf'), 'utf8'));
	gltf.extensions.VRMC_springBone.springs[0].joints[1].node = 999;
	await assert.rejects(loadVrm(gltf, { name: 'a.gltf' }),
		/^SpringError: a\.gltf: \$\.extensions\.VRMC_springBone\.springs\[0\]\.joints\[1\]\.node: /);
	await assert.rejects(loadVrm('{"asset": ', { name: 'b.gltf' }), /^SpringError: b\.gltf: .*line 1/);
	await assert.rejects(loadVrm(bytes, { lenght: 'rest' }), /options: unknown key "lenght" \(did you mean "length"\?\)/);
	await assert.rejects(loadVrm(bytes, { length: 'measure' }), /options\.length: "measure" is not a bone-length rule/);
	await assert.rejects(loadVrm(bytes, { rate: -60 }), (e) => e instanceof SpringError && /rate/.test(e.message));
	await assert.rejects(loadVrm(5), TypeError);
});

test('bad input to a model: an error naming it, and the model unchanged (pose and snapshot)', async () => {
	const vrm = await loadVrm(readFileSync(model(GODETTE)));
	const motion = vrm.loadMotion(readFileSync(motionFile('godette-walk.json'), 'utf8'));
	vrm.reset(motion.sample(0));
	for (let i = 1; i <= 30; i++) {
		vrm.update(motion.sample(i / 60), 1 / 60);
	}
	const next = motion.sample(31 / 60);
	const before = { rotations: vrm.rotations.slice(), tails: vrm.tails.slice(), snapshot: vrm.snapshot() };
	const unchanged = (what) => {
		assert.deepEqual(vrm.rotations, before.rotations, `${what}: rotations`);
		assert.deepEqual(vrm.tails, before.tails, `${what}: tails`);
		assert.deepEqual(vrm.snapshot(), before.snapshot, `${what}: snapshot`);
	};
	const nan = next.slice();
	nan[7 * 2 + 4] = NaN; // node 1's rotation y
	errorWith(() => vrm.update(nan, 1 / 60), 'NOT_FINITE', /^update: transforms\[18\] \(node 1 "pelvis_Armature", rotation y\) is NaN/);
	unchanged('NaN');
	const rootInf = next.slice();
	rootInf[1] = -Infinity;
	errorWith(() => vrm.teleport(rootInf), 'NOT_FINITE', /^teleport: transforms\[1\] \(the model root, translation y\) is -Infinity/);
	unchanged('-Infinity');
	const zero = next.slice();
	zero.fill(0, 7 * 3 + 3, 7 * 3 + 7);
	errorWith(() => vrm.reset(zero), 'OUT_OF_RANGE', /^reset: transforms\[24\.\.27\] \(node 2 "[^"]*"'s rotation\) is zero/);
	unchanged('zero rotation');
	const far = next.slice();
	far[7 * 5] = 2e6;
	errorWith(() => vrm.update(far, 1 / 60), 'OUT_OF_RANGE', /^update: .*translation beyond 1e6/);
	unchanged('far');
	errorWith(() => vrm.update(next, -1 / 60), 'OUT_OF_RANGE', /^update: frameDt must be a finite number of seconds >= 0 \(got -0\.01666/);
	errorWith(() => vrm.update(next, NaN), 'NOT_FINITE', /^update: frameDt must be .* \(got NaN\)/);
	unchanged('frameDt');
	errorWith(() => vrm.update(next.subarray(1), 1 / 60), 'INVALID_ARGUMENT',
		/^update: transforms has 503 numbers; this model needs 504 \(\(1 \+ 71 nodes\) x 7/);
	errorWith(() => vrm.update(new Float32Array(505), 1 / 60), 'INVALID_ARGUMENT', /transforms has 505 numbers; this model needs 504/);
	assert.throws(() => vrm.update({ length: 504 }, 1 / 60), TypeError);
	assert.throws(() => vrm.update(next, '0.016'), /frameDt must be a number/);
	const list = Array.from(next);
	list[10] = 'x';
	errorWith(() => vrm.update(list, 1 / 60), 'NOT_FINITE', /transforms\[10\] \(node 0 "[^"]*", rotation x\) is a string \(x\)/);
	errorWith(() => vrm.steppedPose({ rotations: new Float32Array(63), tails: new Float32Array(48) }), 'INVALID_ARGUMENT',
		/steppedPose: out must be a pose returned before: \{rotations, tails\}, Float32Arrays of 64 and 48/);
	const blob = before.snapshot.slice();
	blob[blob.length - 1] ^= 0x7f; // a tail's float damaged
	assert.throws(() => vrm.restore(blob), (e) => e instanceof SpringError && /^restore: /.test(e.message));
	errorWith(() => vrm.restore(blob.subarray(4)), 'INVALID_ARGUMENT', /^restore: .*the blob is \d+ bytes, this object's are \d+/);
	unchanged('the failed calls');
	// The refused calls left nothing behind: the next frame is the one an untouched run takes.
	const twin = await loadVrm(readFileSync(model(GODETTE)));
	twin.restore(before.snapshot);
	vrm.update(next, 1 / 60);
	twin.update(next, 1 / 60);
	assert.deepEqual(vrm.rotations, twin.rotations);
	assert.deepEqual(vrm.snapshot(), twin.snapshot());
	errorWith(() => motion.sample(0.5, new Float32Array(3)), 'INVALID_ARGUMENT', /sample: out must be a Float32Array of 504/);
	errorWith(() => vrm.loadMotion({ duration: 1, tracks: [{ node: 'nope', rotation: [[0, 0, 0, 0, 1]] }] }, 'm.json'),
		'BAD_DEFINITION', /^m\.json: \$\.tracks\[0\]\.node: /);
	motion.dispose();
	vrm.dispose();
	twin.dispose();
});

test('reset, teleport, snapshots and dispose', async () => {
	const count = liveObjectCount();
	const vrm = await loadVrm(readFileSync(model('sphere-collider.gltf')));
	const rest = { rotations: vrm.rotations.slice(), tails: vrm.tails.slice() };
	const pose = vrm.restTransforms.slice();
	assert.equal(vrm.isResting, true);
	pose[0] = 0.3; // the model root moves: the springs lag
	vrm.update(pose, 1 / 60).update(pose, 1 / 60);
	assert.equal(vrm.isResting, false);
	assert.notDeepEqual(vrm.tails, rest.tails);
	const snap = vrm.snapshot();
	const after = vrm.update(pose, 1 / 60).tails.slice();
	vrm.restore(snap).update(pose, 1 / 60);
	assert.deepEqual(vrm.tails, after, 'restore then the same frame: the same tails');
	// teleport: the moving tails carried 5 m along x with the model root, their motion kept
	const moving = vrm.tails.slice();
	pose[0] = 5.3;
	vrm.teleport(pose);
	vrm.tails.forEach((t, i) => assert.ok(Math.abs(t - moving[i] - (i % 3 === 0 ? 5 : 0)) < 1e-5, `tail ${i}: ${t}, ${moving[i]}`));
	vrm.update(pose, 1 / 60);
	assert.equal(vrm.isResting, false);
	vrm.reset();
	assert.deepEqual(vrm.tails, rest.tails, 'reset() puts the bones at rest under the rest pose');
	assert.equal(vrm.update(vrm.restTransforms, 1 / 60).isResting, true);
	assert.equal(liveObjectCount(), count + 1);
	vrm.dispose();
	vrm.dispose(); // twice is harmless
	assert.equal(liveObjectCount(), count);
	errorWith(() => vrm.update(pose, 1 / 60), 'INVALID_ARGUMENT', /update: the object was disposed/);
	const scoped = await loadVrm(readFileSync(model('sphere-collider.gltf')));
	assert.equal(liveObjectCount(), count + 1);
	scoped[Symbol.dispose](); // what `using` calls
	assert.equal(liveObjectCount(), count);
});
