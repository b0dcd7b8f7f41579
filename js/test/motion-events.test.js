// SPDX-License-Identifier: MIT
// What SpringMotion says and tells: a step of more than LONG_STEP_SECONDS while moving warns once
// (milliseconds given for seconds), as the chains' and rigs' updates do; onRest and `finished`
// when the motion comes to rest, on retarget and on dispose.
import assert from 'node:assert/strict';
import test from 'node:test';

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { Chain2D, LONG_STEP_SECONDS, SpringMotion, TipChain, loadRig } from '../index.js';
import { root } from './helpers.js';

// console.warn's messages while `fn` runs.
function warnings(fn) {
	const said = [];
	const warn = console.warn;
	console.warn = (...args) => said.push(args.join(' '));
	try {
		fn();
	} finally {
		console.warn = warn;
	}
	return said;
}

const moving = () => new SpringMotion({ value: 0, target: 100, params: { duration: 60, bounce: 0 } }); // still moving after 2 s

test('a step over LONG_STEP_SECONDS while moving warns once per motion; the limit itself, and any step at rest, do not', () => {
	assert.equal(LONG_STEP_SECONDS, 2);
	const at = moving();
	assert.deepEqual(warnings(() => at.update(LONG_STEP_SECONDS)), [], 'a step of exactly the limit');
	assert.equal(at.isResting, false);
	const over = moving();
	const said = warnings(() => over.update(2.000001));
	assert.equal(said.length, 1);
	assert.match(said[0], /SpringMotion\.update: a step of 2\.000001 s while moving \(more than 2 s\)\. Times are seconds: requestAnimationFrame gives milliseconds, pass now \/ 1000/);
	assert.deepEqual(warnings(() => over.update(16)), [], 'once per motion');
	// requestAnimationFrame's milliseconds given to sample(): 0 sets the clock, 16 is a 16 s step
	const raf = moving();
	const s = warnings(() => { raf.sample(0); raf.sample(16); raf.sample(32); });
	assert.equal(s.length, 1);
	assert.match(s[0], /SpringMotion\.sample: a step of 16 s while moving/);
	// at rest: no move to lose, no word
	const still = new SpringMotion({ value: 3 });
	assert.deepEqual(warnings(() => still.update(100)), []);
	[at, over, raf, still].forEach((m) => m.dispose());
});

test('onRest is called once when the motion comes to rest, and again after a new move rests', () => {
	const calls = [];
	const m = new SpringMotion({ value: 0, target: 1, params: { duration: 0.3 }, onRest: (motion) => calls.push(motion.value) });
	for (let i = 0; i < 6; i++) m.update(1 / 60);
	assert.equal(m.isResting, false);
	assert.deepEqual(calls, []);
	m.update(5);
	assert.deepEqual(calls, [1], 'called on the step that came to rest, with the motion at its target');
	m.update(1);
	assert.deepEqual(calls, [1], 'not again while it stays at rest');
	m.setTarget(2).update(5);
	assert.deepEqual(calls, [1, 2]);
	m.onRest = null;
	m.setTarget(3).update(5);
	assert.deepEqual(calls, [1, 2]);
	// a retarget onto where it is at rest is no move
	let more = 0;
	m.onRest = () => more++;
	m.setTarget(3);
	m.update(1);
	assert.equal(more, 0);
	m.dispose();
	assert.throws(() => new SpringMotion({ onRest: 3 }), /onRest must be a function/);
});

test('finished resolves true at rest, waits through a retarget for the new target, resolves false on dispose', async () => {
	const m = new SpringMotion({ value: 0, target: 1, params: { duration: 0.3 } });
	const first = m.finished;
	assert.equal(m.finished, first, 'one promise per move');
	let settled = null;
	first.then((v) => { settled = v; });
	m.update(0.1);
	m.setTarget(5); // a retarget mid-flight: the same move goes on to 5
	m.update(0.1);
	await Promise.resolve();
	assert.equal(settled, null);
	m.update(10);
	assert.equal(await first, true);
	assert.equal(m.value, 5);
	assert.equal(await m.finished, true, 'at rest: resolved at once');
	m.setTarget(6);
	const pending = m.finished;
	assert.notEqual(pending, first);
	m.dispose();
	assert.equal(await pending, false, 'disposed before rest');
	assert.equal(await m.finished, false);
	// a motion made at rest is finished
	const still = new SpringMotion({ value: 2 });
	assert.equal(await still.finished, true);
	still.dispose();
});

test('chains and rigs: an update over LONG_STEP_SECONDS while moving warns once per object; the limit, and at rest, do not', async () => {
	const swinging = () => new Chain2D({ segments: [{ length: 10 }, { length: 10 }], gravity: [0, -100] })
		.update({ x: 0, y: 0, angle: 0 }, 1 / 60).update({ x: 30, y: 0, angle: 0 }, 1 / 60);
	const at = swinging();
	assert.deepEqual(warnings(() => at.update({ x: 30, y: 0, angle: 0 }, LONG_STEP_SECONDS)), []);
	const over = swinging();
	const said = warnings(() => { over.update({ x: 30 }, 16); over.update({ x: 30 }, 16); });
	assert.equal(said.length, 1);
	assert.match(said[0], /Chain2D\.update: a step of 16 s while moving \(more than 2 s\)/);
	const resting = new Chain2D({ segments: [{ length: 10 }] });
	for (let i = 0; i < 10000 && !resting.isResting; i++) resting.update({ x: 0 }, 1 / 60);
	assert.equal(resting.isResting, true);
	assert.deepEqual(warnings(() => resting.update({ x: 0 }, 16)), [], 'a chain at rest');
	const tip = new TipChain({ bones: [{ tip: [10, 0, 0] }], gravity: [0, -100, 0] });
	tip.update({ position: [0, 0, 0] }, 1 / 60).update({ position: [30, 0, 0] }, 1 / 60);
	assert.match(warnings(() => tip.update({ position: [30, 0, 0] }, 16)).join('\n'), /TipChain\.update: a step of 16 s/);
	const rig = await loadRig(readFileSync(resolve(root, 'examples/rigs/character.json'), 'utf8'));
	rig.play(0).update(1 / 60).setRoot({ x: 40 }).update(1 / 60);
	assert.equal(rig.isResting, false);
	assert.match(warnings(() => rig.update(16)).join('\n'), /Rig\.update: a step of 16 s/);
	[at, over, resting, tip, rig].forEach((o) => o.dispose());
});
