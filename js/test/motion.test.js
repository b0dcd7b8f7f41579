// SPDX-License-Identifier: MIT
// springParams, SpringMotion, cssLinear: the package's numbers against the native C library's (its
// CLI), and the motion golden of tests/test_motion.c reproduced through the package.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import test from 'node:test';

import { SpringError, SpringMotion, SpringParams, cssLinear, defaultParams, springParams, springProgress, version } from '../index.js';
import wasmBase64 from '../libspring-wasm.js';
import { HASH_INIT, cGolden, cli, cliJson, f, floatBytes, fnv1a, g, randomRange, root } from './helpers.js';

// Each parameterisation as the package takes it and as the CLI's flags give it.
const FORMS = [
	[{ duration: 0.5, bounce: 0.3 }, ['--duration', '0.5', '--bounce', '0.3']],
	[{ duration: 0.35, bounce: -0.4 }, ['--duration', '0.35', '--bounce', '-0.4']],
	[{ stiffness: 300, damping: 12, mass: 2 }, ['--stiffness', '300', '--damping', '12', '--mass', '2']],
	[{ frequency: 1.5, dampingRatio: 0.2 }, ['--frequency', '1.5', '--damping-ratio', '0.2']],
	[{ response: 0.4, dampingFraction: 0.8 }, ['--response', '0.4', '--damping-fraction', '0.8']],
	[{ settling: 0.9, dampingRatio: 0.6, epsilon: 0.01 }, ['--settling', '0.9', '--damping-ratio', '0.6', '--epsilon', '0.01']],
	[{ visualDuration: 0.3, bounce: 0.25 }, ['--visual-duration', '0.3', '--bounce', '0.25']],
	[{ halfLife: 0.15 }, ['--half-life', '0.15']],
	[{ tension: 170, friction: 26 }, ['--tension', '170', '--friction', '26']],
	[{ origamiTension: 40, origamiFriction: 7 }, ['--origami-tension', '40', '--origami-friction', '7']],
	[{ perFrameStiffness: 0.1, perFrameDamping: 0.8, fps: 60 }, ['--per-frame-stiffness', '0.1', '--per-frame-damping', '0.8',
		'--per-frame-fps', '60']],
];

test('the version is the project version', () => {
	const cmake = readFileSync(resolve(root, 'CMakeLists.txt'), 'utf8');
	assert.equal(version, /project\(spring VERSION ([0-9.]+)/.exec(cmake)[1]);
	assert.equal(JSON.parse(readFileSync(resolve(root, 'js/package.json'), 'utf8')).version, version);
});

test('the wasm module is at most 150 KB before compression', () => {
	const bytes = Buffer.from(wasmBase64, 'base64');
	assert.equal(bytes.subarray(0, 4).toString('latin1'), '\0asm');
	assert.ok(bytes.length <= 150 * 1024, `${bytes.length} bytes`);
});

test('springParams: every parameterisation gives the C library\'s spring and queries', () => {
	for (const [spec, flags] of FORMS) {
		const p = springParams(spec);
		const c = cliJson('params', ...flags);
		assert.ok(p instanceof SpringParams);
		assert.equal(p.stiffness, g(c.spring.stiffness), JSON.stringify(spec));
		assert.equal(p.damping, g(c.spring.damping), JSON.stringify(spec));
		assert.equal(p.mass, g(c.spring.mass), JSON.stringify(spec));
		assert.equal(p.dampingRatio, g(c.damping_ratio));
		assert.equal(p.frequency, g(c.frequency.hertz));
		assert.equal(p.naturalFrequency, g(c.frequency.omega_rad_per_s));
		assert.equal(p.duration, g(c.swiftui.duration));
		// (the CLI prints a bounce within 1e-5 of 0 as 0)
		assert.ok(Math.abs(p.bounce - g(c.swiftui.bounce)) < 1e-5 && (p.bounce === g(c.swiftui.bounce) || c.swiftui.bounce === 0));
		assert.equal(p.visualDuration, g(c.motion.visual_duration));
		assert.equal(p.overshoot, g(c.overshoot));
		assert.equal(p.halfLife, g(c.half_life));
		assert.deepEqual(p.origami, { tension: g(c.origami.tension), friction: g(c.origami.friction) });
		const move = { distance: c.settling.distance, velocity: c.settling.initial_velocity, epsilon: c.settling.epsilon };
		assert.equal(p.settleTime(move), g(c.settling.time_exact), JSON.stringify(spec));
		assert.equal(p.settlingDuration(move), g(c.settling.duration_estimate));
		// the result converts back to itself, as a params object and as plain numbers
		assert.equal(springParams(p), p);
		assert.deepEqual(springParams(JSON.parse(JSON.stringify(p))), p);
	}
	// The figures: duration 0.5, bounce 0.3 is stiffness 157.9, damping 17.6.
	const p = springParams({ duration: 0.5, bounce: 0.3 });
	assert.equal(p.stiffness.toFixed(1), '157.9');
	assert.equal(p.damping.toFixed(1), '17.6');
	assert.equal(p.settleTime().toFixed(4), '0.8187');
	assert.equal(defaultParams().dampingRatio, 0.3);
});

test('springParams: bad input throws the library\'s reason', () => {
	const throwsWith = (spec, code, pattern) => {
		assert.throws(() => springParams(spec), (e) => e instanceof SpringError && e.code === code && pattern.test(e.message),
			JSON.stringify(spec));
	};
	// the key and its range, as the CLI names them
	throwsWith({ duration: 0 }, 'BAD_DEFINITION', /^springParams: duration: 0 is out of range \(must be > 0\)$/);
	throwsWith({ duration: -1e-9 }, 'BAD_DEFINITION', /duration: -1e-09 is out of range \(must be > 0\)/);
	throwsWith({ duration: 0.5, bounce: -1 }, 'BAD_DEFINITION', /^springParams: bounce: -1 is out of range \(must be in \(-1, 1\]\)$/);
	throwsWith({ duration: 0.5, bounce: 1.5 }, 'BAD_DEFINITION', /bounce: 1.5 is out of range \(must be in \(-1, 1\]\)/);
	throwsWith({ motionDuration: 20 }, 'BAD_DEFINITION', /motionDuration: 20 is out of range \(must be in \[0.01, 10\]\)/);
	throwsWith({ stiffness: 10, damping: -1 }, 'BAD_DEFINITION', /damping: -1 is out of range \(must be >= 0\)/);
	// values inside every range the library still refuses keep its reason
	throwsWith({ origamiTension: -100, origamiFriction: 1 }, 'BAD_DEFINITION', /invalid spring \(origamiTension -100, origamiFriction 1\)/);
	throwsWith({ duration: 0.5, stiffness: 3 }, 'BAD_DEFINITION', /"duration" and "stiffness" do not go together/);
	throwsWith({ frequency: 2 }, 'BAD_DEFINITION', /missing key "dampingRatio"/);
	throwsWith({ perFrameStiffness: 5, perFrameDamping: 0.9, fps: 60 }, 'BAD_DEFINITION', /unstable/);
	throwsWith({ durationn: 0.5 }, 'BAD_DEFINITION', /durationn/);
	throwsWith({}, 'BAD_DEFINITION', /no spring parameters/);
	throwsWith({ duration: NaN }, 'NOT_FINITE', /duration must be a finite number/);
	throwsWith({ duration: Infinity }, 'NOT_FINITE', /duration must be a finite number/);
	assert.throws(() => springParams(0.5), TypeError);
	// both sides of a bound: the smallest positive duration and bounce 1 are springs
	assert.ok(springParams({ duration: 1e-3, bounce: 1 }).stiffness > 0);
	assert.ok(springParams({ duration: 0.5, bounce: -0.999 }).damping > 0);
});

// Frame times as the C tests draw them: jittery, 4 to 30 ms.
function frames(seed, count) {
	const state = { value: seed };
	return Array.from({ length: count }, () => randomRange(state, 0.004, 0.03));
}

test('SpringMotion: values equal the closed form of the native library at any frame times', () => {
	const spec = { duration: 0.5, bounce: 0.3 };
	const m = new SpringMotion({ value: 0, target: 100, velocity: 50, params: spec });
	let t = 0;
	const times = [];
	const seen = [];
	for (const dt of frames(7, 60)) {
		t += dt;
		const s = m.update(dt);
		times.push(t);
		seen.push(s);
	}
	// spring curve evaluates spring_evaluate at each time (printed as %.9g: the float itself)
	for (let i = 0; i < times.length && !seen[i].isResting; i += 5) {
		const rows = cli('curve', '--duration', '0.5', '--bounce', '0.3', '--to', '100', '--velocity', '50', '--dt',
			String(times[i]), '--until', String(times[i]), '--csv').trim().split('\n');
		const [, x, v] = rows[rows.length - 1].split(',');
		// the motion sums float frame times in double, the CLI gets the double sum: within 2 ulps of time
		assert.ok(Math.abs(seen[i].value - f(x)) <= 1e-4 * 100, `${seen[i].value} vs ${x} at ${times[i]}`);
		assert.ok(Math.abs(seen[i].velocity - f(v)) <= 1e-3 * 600, `${seen[i].velocity} vs ${v}`);
	}
	// and exactly the library's closed form for the same time (params.evaluate is spring_evaluate)
	const p = springParams(spec);
	const m2 = new SpringMotion({ value: 0, target: 100, velocity: 50, params: p });
	const e = p.evaluate(0.25, { from: 0, velocity: 50, to: 100 });
	assert.deepEqual(m2.update(0.25), { value: e.value, velocity: e.velocity, isResting: false });
	const row = cli('curve', '--duration', '0.5', '--bounce', '0.3', '--to', '100', '--velocity', '50', '--dt', '0.25', '--until',
		'0.25', '--csv').trim().split('\n').pop().split(',');
	assert.equal(e.value, f(row[1]));
	assert.equal(e.velocity, f(row[2]));
	m.dispose();
	m2.dispose();
});

test('SpringMotion: sample(time) from requestAnimationFrame-style timestamps is frame-rate independent', () => {
	const run = (fps) => {
		const m = new SpringMotion({ value: [0, 1], target: [300, 2], params: { duration: 0.4, bounce: 0.2 } });
		let s;
		for (let i = 0; i <= fps; i++) {
			s = m.sample(1000 + i / fps); // one second of frames
		}
		m.dispose();
		return s;
	};
	const a = run(30);
	const b = run(240);
	for (let c = 0; c < 2; c++) {
		assert.ok(Math.abs(a.value[c] - b.value[c]) < 1e-3 * Math.abs(a.value[c] || 1));
	}
	const m = new SpringMotion({ value: 0, target: 1 });
	// A time that is not finite is refused and changes nothing, the clock's first time included.
	for (const bad of [NaN, Infinity, -Infinity]) {
		assert.throws(() => m.sample(bad), (e) => e.code === 'NOT_FINITE');
	}
	m.sample(5);
	const twin = new SpringMotion({ value: 0, target: 1 });
	twin.sample(5);
	assert.deepEqual(m.sample(5.1), twin.sample(5.1), 'the refused times were never the clock');
	assert.throws(() => m.sample(NaN), (e) => e.code === 'NOT_FINITE');
	assert.deepEqual(m.sample(5.2), twin.sample(5.2));
	assert.throws(() => m.sample(4.9), (e) => e.code === 'OUT_OF_RANGE');
	m.dispose();
	twin.dispose();
});

test('SpringMotion: a retarget keeps position and velocity bit for bit', () => {
	const m = new SpringMotion({ value: [0, 0], target: [300, 200], params: { duration: 0.5, bounce: 0.3 } });
	const state = { value: 99 };
	let retargets = 0;
	for (let frame = 0; frame < 300; frame++) {
		m.update(1 / 60);
		if (frame % 13 === 4) {
			const before = m.state;
			m.setTarget([randomRange(state, -300, 300), randomRange(state, -300, 300)]);
			const after = m.state;
			assert.deepEqual(after.value, before.value);
			assert.deepEqual(after.velocity, before.velocity);
			retargets++;
		}
	}
	assert.ok(retargets > 10);
	// the check above sees a tween-style restart (the same position from rest): the trap it guards
	const before = m.state;
	m.jump(before.value);
	assert.notDeepEqual(m.state.velocity, before.velocity);
	m.dispose();
});

test('SpringMotion: one to four channels, scalars stay scalars, rest snaps onto the target', () => {
	for (let n = 1; n <= 4; n++) {
		const from = Array.from({ length: n }, (_, i) => i);
		const to = from.map((v) => v * 10 + 5);
		const m = new SpringMotion({ value: from, target: to, params: { duration: 0.3 } });
		assert.equal(m.channels, n);
		let s = m.update(0);
		assert.equal(s.isResting, false);
		const settle = m.timeToSettle();
		assert.ok(settle > 0 && settle < 2);
		for (let i = 0; i < 600 && !s.isResting; i++) {
			s = m.update(1 / 120);
		}
		assert.deepEqual(s.value, to.map(Math.fround));
		assert.deepEqual(s.velocity, new Array(n).fill(0));
		m.dispose();
	}
	const scalar = new SpringMotion({ value: 2 });
	assert.equal(typeof scalar.value, 'number');
	assert.equal(scalar.isResting, true);
	scalar.setTarget(4);
	assert.equal(scalar.isResting, false);
	scalar.jump(4, 0);
	assert.equal(scalar.value, 4);
	scalar.dispose();
	assert.throws(() => new SpringMotion({ value: [1, 2, 3, 4, 5] }), (e) => e.code === 'INVALID_ARGUMENT');
	assert.throws(() => new SpringMotion({ value: [] }), (e) => e.code === 'INVALID_ARGUMENT');
});

test('SpringMotion: bad input throws the library\'s message and changes nothing', () => {
	const m = new SpringMotion({ value: [0, 0], target: [10, 10] });
	m.update(0.05);
	const before = m.state;
	assert.throws(() => m.setTarget([NaN, 1]), (e) => e.code === 'NOT_FINITE' && /NaN or infinite/.test(e.message));
	assert.throws(() => m.setTarget([1, 2, 3]), (e) => e.code === 'INVALID_ARGUMENT');
	assert.throws(() => m.update(-0.01), (e) => e.code === 'OUT_OF_RANGE' && /outside its allowed range/.test(e.message));
	assert.throws(() => m.update(Infinity), (e) => e.code === 'NOT_FINITE');
	assert.throws(() => m.jump([Infinity, 0]), (e) => e.code === 'NOT_FINITE');
	assert.throws(() => m.setParams({ stiffness: -1, damping: 1 }), (e) => e instanceof SpringError);
	assert.throws(() => new SpringMotion({ value: 0, restDelta: -1 }), (e) => e.code === 'OUT_OF_RANGE');
	assert.deepEqual(m.state, before);
	// both sides of the dt bound: 0 is a frame
	assert.deepEqual(m.update(0), before);
	// params keep the state
	m.setParams({ duration: 1, bounce: 0.5 });
	assert.deepEqual(m.state, before);
	assert.equal(m.params.stiffness, springParams({ duration: 1, bounce: 0.5 }).stiffness);
	m.dispose();
	assert.throws(() => m.update(0.1), /disposed/);
	m.dispose(); // twice is harmless
});

// tests/test_motion.c, test_determinism_golden: the same scenario through the package.
const GOLDEN_MOTION = cGolden('test_motion.c', 'SPRING_TEST_GOLDEN_MOTION');

test('the motion golden of the C tests, through the package, equals the native hash', () => {
	const m = new SpringMotion({ value: [0, 0, 1, 0], target: [320, -80, 1.2, 1], velocity: [0, 400, 0, 0],
		params: { duration: 0.45, bounce: 0.35 } });
	const state = { value: 4242 };
	const rnd = (lo, hi) => randomRange(state, lo, hi);
	let hash = HASH_INIT;
	for (let frame = 0; frame < 400; frame++) {
		m.update(rnd(0.004, 0.03));
		if (frame % 37 === 5) {
			m.setTarget([rnd(-300, 300), rnd(-300, 300), rnd(0.5, 1.5), rnd(0, 1)]);
		}
		const s = m.state;
		hash = fnv1a(hash, floatBytes(s.value));
		hash = fnv1a(hash, floatBytes(s.velocity));
	}
	hash = fnv1a(hash, floatBytes([m.timeToSettle()]));
	const progress = springProgress({ duration: 0.5, bounce: 0.3 }, { initialVelocity: 1.5, interval: 0.01, maxDuration: 2 });
	hash = fnv1a(hash, floatBytes(progress.values));
	m.dispose();
	assert.equal(hash.toString(16), GOLDEN_MOTION.toString(16));
});

test('cssLinear equals the CLI\'s spring css', () => {
	const cases = [
		[{ duration: 0.5, bounce: 0.3 }, {}, ['--duration', '0.5', '--bounce', '0.3']],
		[undefined, {}, []],
		[{ frequency: 1, dampingRatio: 0.05 }, {}, ['--frequency', '1', '--damping-ratio', '0.05']],
		[{ frequency: 0.1, dampingRatio: 0.05 }, { maxDuration: 3 }, ['--frequency', '0.1', '--damping-ratio', '0.05',
			'--max-duration', '3']],
		[{ duration: 0.3, bounce: 0.8 }, { resolution: 3 }, ['--duration', '0.3', '--bounce', '0.8', '--resolution', '3']],
		[{ halfLife: 0.2 }, { resolution: 7.5 }, ['--half-life', '0.2', '--resolution', '7.5']],
	];
	for (const [spec, options, flags] of cases) {
		const css = cssLinear(spec, options);
		const text = cli('css', ...flags);
		const declarations = text.split('\n').filter((line) => line.startsWith('transition-')).join('\n');
		assert.equal(css.css, declarations, flags.join(' '));
		const json = cliJson('css', ...flags);
		assert.equal(css.easing, json.easing);
		assert.equal(css.duration, json.duration);
		assert.equal(css.durationMs, json.duration_ms);
		assert.equal(css.stops, json.stops);
		assert.equal(css.truncated, json.truncated);
		assert.equal(css.resolution, json.resolution_ms);
	}
	assert.throws(() => cssLinear({ duration: 0.5 }, { maxDuration: 100, resolution: 0.5 }), (e) => e instanceof SpringError);
	assert.throws(() => cssLinear({ duration: 0.5 }, { maxDuration: -1 }), (e) => e instanceof SpringError);
});

test('Symbol.dispose frees an object as dispose() does (`using` in TypeScript 5.2)', async () => {
	// Symbol.dispose where the engine has it, else the symbol TypeScript's `using` falls back to.
	const dispose = typeof Symbol.dispose === 'symbol' ? Symbol.dispose : Symbol.for('Symbol.dispose');
	const { Chain2D, TipChain } = await import('../index.js');
	const objects = [new SpringMotion({ value: 0, target: 1 }), new Chain2D({ segments: [{ length: 10 }] }),
		new TipChain({ bones: [{ tip: [10, 0, 0] }] })];
	for (const o of objects) {
		assert.equal(typeof o[dispose], 'function');
		o[dispose]();
		assert.throws(() => o.pose?.() ?? o.update(0.1), /was disposed/);
		o[dispose](); // twice is harmless, as dispose() is
	}
});

test('springParams({bounce}) alone keeps the default duration 0.5 s, as the CLI\'s --bounce does', () => {
	const alone = springParams({ bounce: 0.3 });
	const cli = cliJson('params', '--bounce', '0.3').spring;
	assert.deepEqual([alone.stiffness, alone.damping, alone.mass], [g(cli.stiffness), g(cli.damping), g(cli.mass)]);
	assert.deepEqual(alone.toJSON(), springParams({ duration: 0.5, bounce: 0.3 }).toJSON());
	// a bounce with anything else is not alone: the other key decides, or the spec is incomplete
	assert.throws(() => springParams({ bounce: 0.3, epsilon: 0.01 }), /do not go together|incomplete|missing/);
	assert.throws(() => springParams({ bounce: 1.5 }), /bounce: 1.5 is out of range/);
});

test('other libraries\' spring objects, pasted as they are, give their springs (figures of the peers\' own code)', () => {
	const ks = (spec) => {
		const p = springParams(spec);
		return [Number(p.stiffness.toFixed(3)), Number(p.damping.toFixed(4)), p.mass];
	};
	// react-spring 10: {mass, tension, friction} is k, c, m; {frequency, damping} is SwiftUI's response
	assert.deepEqual(ks({ mass: 1, tension: 170, friction: 26 }), [170, 26, 1]);
	assert.deepEqual(ks({ mass: 2, tension: 180, friction: 12 }), [180, 12, 2]);
	assert.deepEqual(ks({ frequency: 0.5, damping: 0.7 }), [157.914, 17.5929, 1]);
	// Motion 14 transitions: physics keys (Motion's defaults fill the rest), visualDuration, duration
	assert.deepEqual(ks({ type: 'spring', stiffness: 500, damping: 25, restSpeed: 10 }), [500, 25, 1]);
	assert.deepEqual(ks({ type: 'spring', stiffness: 500, velocity: 3 }), [500, 10, 1]);
	assert.deepEqual(ks({ type: 'spring' }), [100, 10, 1]);
	assert.deepEqual(ks({ type: 'spring', visualDuration: 0.5, bounce: 0.3 }), [109.662, 14.6608, 1]);
	assert.deepEqual(ks({ type: 'spring', duration: 0.8, bounce: 0.25 }), [137.414, 17.5835, 1]);
	assert.deepEqual(ks({ type: 'spring', duration: 0.8 }), [151.279, 17.2194, 1]);
	assert.deepEqual(ks({ type: 'spring', duration: 0.5, bounce: 0 }), [341.024, 36.9337, 1]);
	assert.deepEqual(ks({ type: 'spring', stiffness: 100, duration: 0.3 }), [100, 10, 1]); // physics wins, as in Motion
	// SwiftUI interpolatingSpring(mass:stiffness:damping:) and Compose spring(dampingRatio, stiffness)
	assert.deepEqual(ks({ mass: 1, stiffness: 170, damping: 15 }), [170, 15, 1]);
	assert.deepEqual(ks({ stiffness: 1500, dampingRatio: 0.5 }), [1500, Number((2 * 0.5 * Math.sqrt(1500)).toFixed(4)), 1]);
	// a transition of another type, or a misspelt key, is refused with a reason
	assert.throws(() => springParams({ type: 'tween', duration: 0.3 }), /type "tween" is not a spring/);
	assert.throws(() => springParams({ type: 'spring', stiffnes: 3 }), /did you mean "stiffness"/);
	assert.throws(() => springParams({ mass: 1, tension: 170 }), SpringError);
});

test('getters for people give the shortest decimal of the library\'s float (0.7, not 0.699999988), the same float written back', () => {
	const p = springParams({ duration: 0.5, bounce: 0.3 });
	assert.equal(p.dampingRatio, 0.7);
	assert.equal(p.bounce, 0.3);
	assert.equal(p.mass, 1);
	assert.equal(springParams({ frequency: 2, dampingRatio: 0.7 }).dampingRatio, 0.7);
	assert.equal(springParams({ stiffness: 800, dampingRatio: 0.6 }).dampingRatio, 0.6);
	assert.equal(springParams({ stiffness: 800, dampingRatio: 0.6 }).stiffness, 800);
	for (const [spec, flags] of FORMS) {
		const q = springParams(spec);
		const c = cliJson('params', ...flags);
		for (const [mine, theirs] of [[q.stiffness, c.spring.stiffness], [q.damping, c.spring.damping], [q.dampingRatio, c.damping_ratio],
			[q.halfLife, c.half_life], [q.overshoot, c.overshoot]]) {
			const float = f(theirs);
			assert.equal(Math.fround(mine), float, 'the same float');
			// the decimal of fewest significant digits that gives that float
			let digits = 1;
			while (Math.fround(Number(float.toPrecision(digits))) !== float) digits++;
			assert.equal(mine, Number(float.toPrecision(digits)));
		}
		// written back to the library it is the same spring, bit for bit
		const again = springParams(q.toJSON());
		assert.deepEqual(floatBytes([again.stiffness, again.damping, again.mass]), floatBytes([q.stiffness, q.damping, q.mass]));
	}
	// a motion's params and timeToSettle too
	const m = new SpringMotion({ value: 0, target: 1, params: { frequency: 2, dampingRatio: 0.7 } });
	assert.equal(m.params.dampingRatio, 0.7);
	assert.equal(Math.fround(m.timeToSettle()), m.timeToSettle() === 0 ? 0 : Math.fround(m.timeToSettle()));
	m.dispose();
});
