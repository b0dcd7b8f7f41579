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

// A crowd's transforms: instance k plays `motion` `k / 10` s later than instance 0 (each its own pose).
function crowdPose(motion, time, count, transforms, one) {
	for (let k = 0; k < count; k++) {
		transforms.set(motion.sample(time + k / 10, one), k * one.length);
	}
	return transforms;
}

test('a crowd (Vrm.crowd): every instance the same bits as a model of its own given its pose', async () => {
	for (const [file, motionName, options] of [[GODETTE, 'godette-shake.json', {}], ['plane-collider.gltf', 'shake.json',
		{ length: 'measured', rate: 90 }]]) {
		const count = 6; // a vector's lanes and then some: two blocks, the last half full
		const vrm = await loadVrm(readFileSync(model(file)), options);
		const motion = vrm.loadMotion(readFileSync(motionFile(motionName), 'utf8'));
		const crowd = vrm.crowd(count);
		const singles = await Promise.all(Array.from({ length: count }, () => loadVrm(readFileSync(model(file)), options)));
		assert.equal(crowd.count, count);
		assert.equal(crowd.transformLength, count * (1 + vrm.nodeCount) * 7);
		assert.equal(crowd.rotations.length, count * 4 * vrm.boneCount);
		assert.deepEqual(crowd.restTransforms.subarray(crowd.instanceLength, 2 * crowd.instanceLength), vrm.restTransforms);
		const one = new Float32Array(vrm.transformLength);
		const transforms = new Float32Array(crowd.transformLength);
		const same = (what) => {
			for (let k = 0; k < count; k++) {
				const b = vrm.boneCount;
				assert.deepEqual(crowd.rotations.subarray(4 * b * k, 4 * b * (k + 1)), singles[k].rotations, `${what}: instance ${k}`);
				assert.deepEqual(crowd.tails.subarray(3 * b * k, 3 * b * (k + 1)), singles[k].tails, `${what}: instance ${k}`);
			}
		};
		crowd.reset(crowdPose(motion, 0, count, transforms, one));
		singles.forEach((s, k) => s.reset(motion.sample(k / 10, one)));
		same('reset');
		const pose = crowd.steppedPose();
		for (let i = 1; i <= 90; i++) {
			const dt = i % 3 === 0 ? 1 / 144 : 1 / 30; // frames between the steps and over several
			crowd.update(crowdPose(motion, i / 60, count, transforms, one), dt);
			singles.forEach((s, k) => s.update(motion.sample(i / 60 + k / 10, one), dt));
			same(`frame ${i}`);
		}
		crowd.steppedPose(pose);
		singles.forEach((s, k) => {
			const p = s.steppedPose();
			assert.deepEqual(pose.rotations.subarray(4 * vrm.boneCount * k, 4 * vrm.boneCount * (k + 1)), p.rotations);
		});
		motion.sample(0.3, one);
		one[1] += 2; // instance 3 jumps up
		crowd.teleport(3, one);
		singles[3].teleport(one);
		same('teleport');
		assert.equal(crowd.isResting(2), singles[2].isResting);
		crowd.dispose();
		singles.forEach((s) => s.dispose());
		motion.dispose();
		vrm.dispose();
	}
});

test('bad input to a crowd: an error naming the instance, and the crowd unchanged', async () => {
	const vrm = await loadVrm(readFileSync(model(GODETTE)));
	const motion = vrm.loadMotion(readFileSync(motionFile('godette-shake.json'), 'utf8'));
	const count = liveObjectCount();
	const crowd = vrm.crowd(5);
	vrm.dispose(); // the crowd is an object of its own
	assert.equal(liveObjectCount(), count + 1 - 1);
	const one = new Float32Array(crowd.instanceLength);
	const transforms = new Float32Array(crowd.transformLength);
	crowd.reset(crowdPose(motion, 0, 5, transforms, one));
	for (let i = 1; i <= 20; i++) {
		crowd.update(crowdPose(motion, i / 60, 5, transforms, one), 1 / 60);
	}
	const next = crowdPose(motion, 21 / 60, 5, new Float32Array(crowd.transformLength), one);
	const before = { rotations: crowd.rotations.slice(), tails: crowd.tails.slice() };
	const unchanged = (what) => {
		assert.deepEqual(crowd.rotations, before.rotations, `${what}: rotations`);
		assert.deepEqual(crowd.tails, before.tails, `${what}: tails`);
	};
	const nan = next.slice();
	nan[3 * crowd.instanceLength + 7 * 2 + 4] = NaN; // instance 3, node 1's rotation y
	errorWith(() => crowd.update(nan, 1 / 60), 'NOT_FINITE',
		/^update: transforms\[1530\] \(instance 3, node 1 "pelvis_Armature", rotation y\) is NaN: every number must be finite/);
	unchanged('NaN');
	const rootInf = next.slice();
	rootInf[4 * crowd.instanceLength] = Infinity; // instance 4's root
	errorWith(() => crowd.reset(rootInf), 'NOT_FINITE', /^reset: transforms\[2016\] \(instance 4, the model root, translation x\)/);
	unchanged('Infinity');
	const zero = next.slice();
	zero.fill(0, crowd.instanceLength + 3, crowd.instanceLength + 7);
	errorWith(() => crowd.update(zero, 1 / 60), 'OUT_OF_RANGE', /^update: transforms\[507\.\.510\] \(instance 1, the model root's rotation\) is zero/);
	unchanged('zero rotation');
	errorWith(() => crowd.update(next.subarray(1), 1 / 60), 'INVALID_ARGUMENT',
		/^update: transforms has 2519 numbers; this crowd needs 2520 \(5 instances x \(1 \+ 71 nodes\) x 7/);
	errorWith(() => crowd.update(one, 1 / 60), 'INVALID_ARGUMENT', /transforms has 504 numbers; this crowd needs 2520/);
	errorWith(() => crowd.teleport(5, one), 'OUT_OF_RANGE', /^teleport: instance 5 is not one of the crowd's 5 \(0 to 4\)/);
	errorWith(() => crowd.teleport(1, next), 'INVALID_ARGUMENT', /^teleport: transforms has 2520 numbers; this crowd's instance needs 504/);
	const nanOne = one.slice();
	nanOne[9] = NaN;
	errorWith(() => crowd.teleport(2, nanOne), 'NOT_FINITE', /^teleport: transforms\[9\] \(node 0 "[^"]*", translation z\) is NaN/);
	errorWith(() => crowd.isResting(-1), 'OUT_OF_RANGE', /isResting: instance -1 is not one of/);
	errorWith(() => crowd.update(next, -1), 'OUT_OF_RANGE', /^update: frameDt must be a finite number of seconds >= 0/);
	errorWith(() => crowd.steppedPose({ rotations: new Float32Array(64), tails: new Float32Array(48) }), 'INVALID_ARGUMENT',
		/steppedPose: out must be a pose returned before: \{rotations, tails\}, Float32Arrays of 320 and 240/);
	unchanged('the failed calls');
	// nothing of the refused calls stayed: the next frame is an untouched crowd's
	const vrm2 = await loadVrm(readFileSync(model(GODETTE)));
	const twin = vrm2.crowd(5);
	twin.reset(crowdPose(motion, 0, 5, transforms, one));
	for (let i = 1; i <= 20; i++) {
		twin.update(crowdPose(motion, i / 60, 5, transforms, one), 1 / 60);
	}
	crowd.update(next, 1 / 60);
	twin.update(next, 1 / 60);
	assert.deepEqual(crowd.rotations, twin.rotations);
	for (const bad of [0, 65537, 1.5, NaN]) {
		assert.throws(() => vrm2.crowd(bad), (e) => e instanceof SpringError && /^crowd: /.test(e.message), String(bad));
	}
	crowd.dispose();
	twin.dispose();
	vrm2.dispose();
	motion.dispose();
	assert.throws(() => crowd.update(next, 1 / 60), /update: the object was disposed/);
});
