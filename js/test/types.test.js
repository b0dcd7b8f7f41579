// SPDX-License-Identifier: MIT
// Every argument's type is checked: a wrong one throws a TypeError naming it, and the object is
// left as it was. Before, `chain.update([x, y, 0], dt)`, `update(5, dt)` and `update(null, dt)`
// put the root at the origin, `gravity: 9.8` meant no gravity and `colliders: 'abc'` made three
// phantom colliders. Values of the right type out of range stay the library's to refuse.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import test from 'node:test';

import { Chain2D, SpringError, SpringMotion, TipChain, cssLinear, loadRig, springParams, springProgress } from '../index.js';
import { root } from './helpers.js';

const typeError = (fn, name) => assert.throws(fn, (e) => e instanceof TypeError && e.message.includes(name),
	`expected a TypeError naming ${name}`);
const segments = [{ length: 20, restAngle: 3 }, { length: 20 }];

test('Chain2D: roots, vectors, lists and flags of the wrong type are TypeErrors', () => {
	const chain = new Chain2D({ segments, gravity: [0, -100] });
	chain.update({ x: 5, y: 0, angle: 0 }, 0.1);
	const before = JSON.stringify(chain.pose());
	typeError(() => chain.update([5, 0, 0], 0.1), 'root');
	typeError(() => chain.update(5, 0.1), 'root');
	typeError(() => chain.update(null, 0.1), 'root');
	typeError(() => chain.update(undefined, 0.1), 'root');
	typeError(() => chain.update({ x: '5', y: 0 }, 0.1), 'root.x');
	typeError(() => chain.update({ x: 5 }, '0.1'), 'frameDt');
	typeError(() => chain.teleport([1, 2, 0]), 'root');
	typeError(() => chain.reset(null), 'root');
	typeError(() => chain.translate(3), 'delta');
	typeError(() => chain.setForces(9.8, [0, 0]), 'gravity');
	typeError(() => chain.setAnimation(5), 'offsets');
	typeError(() => chain.setAnimation(['a', 0]), 'offsets[0]');
	typeError(() => chain.setParams('0', { duration: 1 }), 'segment');
	assert.equal(JSON.stringify(chain.pose()), before); // nothing changed
	// In descriptions.
	typeError(() => new Chain2D({ segments, gravity: 9.8 }), 'gravity');
	typeError(() => new Chain2D({ segments, wind: 'east' }), 'wind');
	typeError(() => new Chain2D({ segments: 'ab' }), 'segments');
	typeError(() => new Chain2D({ segments: [5] }), 'segments[0]');
	typeError(() => new Chain2D({ segments: [{ length: '20' }] }), 'segments[0].length');
	typeError(() => new Chain2D({ segments, root: [0, 0, 0] }), 'root');
	typeError(() => new Chain2D({ segments, noInertia: 1 }), 'noInertia');
	typeError(() => new Chain2D({ segments, integrator: 0 }), 'integrator');
	typeError(() => new Chain2D(7), 'Chain2D description');
	// The right types still work, a vector as an array or an object.
	const ok = new Chain2D({ segments, gravity: { x: 0, y: -100 }, noInertia: false, root: { x: 1 } });
	ok.update({ x: 2, y: 0 }, 0.1).setForces([0, -10], { x: 1, y: 0 }).dispose();
	chain.dispose();
});

test('TipChain: colliders, bones and roots of the wrong type are TypeErrors', () => {
	const bones = [{ tip: [20, 0, 0] }, { position: [20, 0, 0], tip: [20, 0, 0] }];
	typeError(() => new TipChain({ bones, colliders: 'abc' }), 'colliders');
	typeError(() => new TipChain({ bones, colliders: [7] }), 'colliders[0]');
	typeError(() => new TipChain({ bones: 'ab' }), 'bones');
	typeError(() => new TipChain({ bones, gravity: 9.8 }), 'gravity');
	typeError(() => new TipChain({ bones, mode2d: 'yes' }), 'mode2d');
	const chain = new TipChain({ bones, mode2d: true });
	typeError(() => chain.update([0, 0, 0], 0.1), 'root');
	typeError(() => chain.update(null, 0.1), 'root');
	typeError(() => chain.update({ position: 5 }, 0.1), 'root.position');
	typeError(() => chain.setColliders('abc'), 'colliders');
	chain.setColliders(null).update({ position: [1, 0, 0] }, 0.1).dispose();
});

test('motions, springs and options of the wrong type are TypeErrors', () => {
	typeError(() => new SpringMotion({ value: null }), 'value');
	typeError(() => new SpringMotion({ value: 'ab' }), 'value');
	typeError(() => new SpringMotion({ value: 1, clampOvershoot: 'no' }), 'clampOvershoot');
	typeError(() => new SpringMotion(3), 'SpringMotion options');
	const m = new SpringMotion({ value: [0, 0] });
	typeError(() => m.setTarget(null), 'setTarget');
	typeError(() => m.setTarget([1, '2']), 'setTarget[1]');
	typeError(() => m.update(null), 'dt');
	m.dispose();
	typeError(() => springParams({ duration: '0.5' }), 'duration');
	typeError(() => springParams({ duration: 0.5 }).settleTime(1), 'settleTime options');
	typeError(() => springProgress({ duration: 0.5 }, 5), 'springProgress options');
	typeError(() => cssLinear({ duration: 0.5 }, 'fast'), 'cssLinear options');
	// A number of the right type but not an integer stays a SpringError.
	assert.throws(() => new Chain2D({ segments, maxSteps: 1.5 }), (e) => e instanceof SpringError && e.code === 'INVALID_ARGUMENT');
});

test('rigs: roots, names and flags of the wrong type are TypeErrors', async () => {
	const rig = await loadRig(readFileSync(resolve(root, 'examples/rigs/character.json'), 'utf8'), 'character.json');
	typeError(() => rig.setRoot([0, 0, 0]), 'root');
	typeError(() => rig.setRoot(null), 'root');
	typeError(() => rig.teleport(5), 'root');
	// A field that is there must be a number, as a chain's root's: null is not 0 (it was, for rigs).
	const before = rig.pose();
	typeError(() => rig.setRoot({ x: null }), 'root.x');
	typeError(() => rig.teleport({ x: 1, angle: '0.5' }), 'root.angle');
	typeError(() => rig.setIkTarget(0, [1, null]), 'target.y');
	typeError(() => rig.setIkTarget(0, { x: 'a', y: 1 }), 'target.x');
	assert.deepEqual(rig.pose(), before, 'the rig is unchanged');
	typeError(() => rig.play({ name: 'walk' }), 'clip');
	typeError(() => rig.setChainMix({}, 1), 'chain');
	typeError(() => rig.setPaused('yes'), 'paused');
	typeError(() => rig.update('0.1'), 'frameDt');
	await assert.rejects(loadRig(42), TypeError);
	rig.setRoot({ x: 1, y: 2 }).update(0.1).dispose();
});
