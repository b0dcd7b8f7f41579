// SPDX-License-Identifier: MIT
// Unknown keys are refused in every object the package takes (springs, motions, chains and their
// segments, bones, colliders, roots and vectors, rigs, options), naming the key and suggesting
// the closest allowed one as the library's readers do; an array where an object belongs is a
// TypeError; nothing is made or changed by a refused call.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import test from 'node:test';

import { Chain2D, SpringError, SpringMotion, TipChain, cssLinear, liveObjectCount, loadRig, springParams, springProgress }
	from '../index.js';
import { root } from './helpers.js';

// Throws a SpringError BAD_DEFINITION whose message names `key` and suggests `near` (or lists the keys).
function refused(fn, key, near) {
	assert.throws(fn, (e) => {
		assert.ok(e instanceof SpringError, `${e}`);
		assert.equal(e.code, 'BAD_DEFINITION');
		assert.ok(e.message.includes(`unknown key "${key}"`), e.message);
		assert.ok(near ? e.message.includes(`(did you mean "${near}"?)`) : /expected one of: /.test(e.message), e.message);
		return true;
	});
}

test('Chain2D and TipChain descriptions: an unknown key is refused with a suggestion, and no chain is made', () => {
	const before = liveObjectCount();
	refused(() => new Chain2D({ segments: [{ length: 10, restangle: 1 }] }), 'restangle', 'restAngle');
	refused(() => new Chain2D({ segments: [{ length: 10 }], gravty: [0, -9.8] }), 'gravty', 'gravity');
	refused(() => new Chain2D({ segments: [{ length: 10 }], root: { x: 0, y: 0, angel: 1 } }), 'angel', 'angle');
	refused(() => new Chain2D({ segments: [{ length: 10 }], gravity: { x: 0, y: -9, z: 1 } }), 'z', null);
	refused(() => new Chain2D({ segments: [{ length: 10, params: { duration: 0.5, bounse: 0.2 } }] }), 'bounse', 'bounce');
	refused(() => new TipChain({ bones: [{ tip: [1, 0, 0], coneLimt: 1 }] }), 'coneLimt', 'coneLimit');
	refused(() => new TipChain({ bones: [{ tip: [1, 0, 0] }], mode2D: true }), 'mode2D', 'mode2d');
	refused(() => new TipChain({ bones: [{ tip: [1, 0, 0] }], colliders: [{ type: 'sphere', radious: 1 }] }), 'radious', 'radius');
	refused(() => new TipChain({ bones: [{ tip: [1, 0, 0] }], root: { positon: [0, 0, 0] } }), 'positon', 'position');
	assert.equal(liveObjectCount(), before);
	// what is allowed still is: every key of the description, vectors as objects
	const ok = new Chain2D({ segments: [{ length: 10, restAngle: 1, limit: 1, inertia: 1, noInertia: false, params: { halfLife: 0.1 } }],
		gravity: { x: 0, y: -9.8 }, root: { x: 1, y: 2, angle: 0 }, maxSteps: 8 });
	ok.dispose();
});

test('per-frame roots and vectors: an unknown key is refused, the chain is left as it was', () => {
	const chain = new Chain2D({ segments: [{ length: 10 }, { length: 10 }] });
	chain.update({ x: 5, y: 0, angle: 0 }, 1 / 60);
	const pose = JSON.stringify(chain.pose());
	refused(() => chain.update({ x: 5, y: 0, angel: 0 }, 1 / 60), 'angel', 'angle');
	refused(() => chain.teleport({ x: 5, yy: 0 }), 'yy', null); // one letter: none close enough (spring_closest_name)
	refused(() => chain.setForces({ x: 0, y: -9, w: 0 }, [0, 0]), 'w', null);
	assert.equal(JSON.stringify(chain.pose()), pose);
	chain.dispose();
	const tip = new TipChain({ bones: [{ tip: [1, 0, 0] }] });
	refused(() => tip.update({ position: [0, 0, 0], rotaton: [0, 0, 0, 1] }, 1 / 60), 'rotaton', 'rotation');
	refused(() => tip.translate({ x: 1, y: 0, zz: 0 }), 'zz', null);
	tip.dispose();
});

test('springs, motions and options: an unknown key is refused with a suggestion', () => {
	refused(() => springParams({ duraton: 0.5 }), 'duraton', 'duration');
	refused(() => springParams({ type: 'spring', stifness: 300 }), 'stifness', 'stiffness');
	refused(() => new SpringMotion({ value: 0, taget: 1 }), 'taget', 'target');
	refused(() => new SpringMotion({ value: 0, onrest: () => {} }), 'onrest', 'onRest');
	const p = springParams({ duration: 0.5, bounce: 0.3 });
	refused(() => p.settleTime({ epsilom: 0.01 }), 'epsilom', 'epsilon');
	refused(() => p.settlingDuration({ distanse: 2 }), 'distanse', 'distance');
	refused(() => p.evaluate(0.1, { form: 0 }), 'form', 'from');
	refused(() => springProgress(p, { maxDurarion: 2 }), 'maxDurarion', 'maxDuration');
	refused(() => cssLinear(p, { resolutoin: 5 }), 'resolutoin', 'resolution');
	refused(() => cssLinear(p, { zzzzzzzz: 5 }), 'zzzzzzzz', null); // nothing close: the keys are listed
});

test('rigs: an unknown key in a root or a target is refused; the rig file\'s own keys by the rig-file reader', async () => {
	const text = readFileSync(resolve(root, 'examples/rigs/character.json'), 'utf8');
	const rig = await loadRig(text, 'character.json');
	refused(() => rig.setRoot({ x: 1, y: 0, angl: 0 }), 'angl', 'angle');
	refused(() => rig.teleport({ X: 1 }), 'X', null);
	if (rig.iks.length > 0) {
		refused(() => rig.setIkTarget(0, { x: 1, yy: 2 }), 'yy', null);
	}
	rig.dispose();
	const file = JSON.parse(text);
	file.bones[0].lenght = 3;
	await assert.rejects(loadRig(file), /unknown key "lenght".*did you mean "length"/);
});

test('an array (or a typed array) where an object belongs is a TypeError naming the argument', () => {
	assert.throws(() => springParams([0.5, 0.3]), /springParams: expected an object .*got an array/);
	assert.throws(() => springParams(new Float32Array(2)), TypeError);
	assert.throws(() => new SpringMotion([0, 1]), /SpringMotion options must be an object \(got an array\)/);
	assert.throws(() => new Chain2D([{ length: 10 }]), /Chain2D description must be an object \(got an array\)/);
	assert.throws(() => new Chain2D({ segments: [[10, 1]] }), /segments\[0\] must be an object \(got an array\)/);
	assert.throws(() => new TipChain({ bones: [[1, 0, 0]] }), /bones\[0\] must be an object \(got an array\)/);
	assert.throws(() => new TipChain({ bones: [{ tip: [1, 0, 0] }], colliders: [[0, 0, 0]] }), /colliders\[0\] must be an object/);
	const chain = new Chain2D({ segments: [{ length: 10 }] });
	assert.throws(() => chain.update([0, 0, 0], 1 / 60), /root \(\{x, y, angle\}\) must be an object \(got an array\)/);
	chain.dispose();
	const tip = new TipChain({ bones: [{ tip: [1, 0, 0] }] });
	assert.throws(() => tip.update([0, 0, 0], 1 / 60), /root \(\{position, rotation\}\) must be an object \(got an array\)/);
	tip.dispose();
	assert.throws(() => springParams({ duration: 0.5 }).settleTime([1]), /settleTime options must be an object/);
});
