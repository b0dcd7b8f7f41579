// SPDX-License-Identifier: MIT
// Presets and reduced motion: the package's springParams({preset}) and {reducedMotion: true} give
// the springs of the CLI's --preset and --reduced-motion (the C library's), preset for preset.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import test from 'node:test';

import { SpringError, presetNames, springParams } from '../index.js';
import { build, cliJson, g, root } from './helpers.js';

const numbers = (p) => [p.stiffness, p.damping, p.mass];
const cliNumbers = (s) => [g(s.stiffness), g(s.damping), g(s.mass)];

test('presetNames are the CLI\'s presets, and the declarations name the same', () => {
	const r = spawnSync(resolve(build, 'release/tools/spring'), ['params', '--preset', 'none'], { encoding: 'utf8' });
	const listed = /\(the presets: ([^)]*)\)/.exec(r.stderr)?.[1].split(', ');
	assert.deepEqual(presetNames, listed);
	assert.ok(presetNames.includes('bouncy') && presetNames.includes('expressive-default-spatial'));
	const dts = readFileSync(resolve(root, 'js/index.d.ts'), 'utf8');
	const union = /export type PresetName =([^;]*);/.exec(dts)[1].match(/'[^']*'/g).map((q) => q.slice(1, -1));
	assert.deepEqual(union, presetNames);
});

test('springParams({preset}) is the CLI\'s --preset, for every preset, and with reducedMotion its --reduced-motion', () => {
	for (const name of presetNames) {
		assert.deepEqual(numbers(springParams({ preset: name })), cliNumbers(cliJson('params', '--preset', name).spring), name);
		assert.deepEqual(numbers(springParams({ preset: name, reducedMotion: true })),
			cliNumbers(cliJson('params', '--preset', name, '--reduced-motion').spring), `${name}, reduced motion`);
	}
	// the example: bouncy is SwiftUI's duration 0.5, bounce 0.3
	assert.deepEqual(springParams({ preset: 'bouncy' }).toJSON(), springParams({ duration: 0.5, bounce: 0.3 }).toJSON());
});

test('reducedMotion beside any form, and params.reducedMotion(), are the CLI\'s --reduced-motion', () => {
	const forms = [[{ duration: 0.5, bounce: 0.3 }, ['--duration', '0.5', '--bounce', '0.3']],
		[{ stiffness: 100, damping: 0, mass: 1 }, ['--stiffness', '100', '--damping', '0', '--mass', '1']], // undamped
		[{ frequency: 3, dampingRatio: 2 }, ['--frequency', '3', '--damping-ratio', '2']]];
	for (const [spec, flags] of forms) {
		const want = cliNumbers(cliJson('params', ...flags, '--reduced-motion').spring);
		assert.deepEqual(numbers(springParams({ ...spec, reducedMotion: true })), want, JSON.stringify(spec));
		assert.deepEqual(numbers(springParams(spec).reducedMotion()), want);
		// false (or left out) is the spring itself
		assert.deepEqual(numbers(springParams({ ...spec, reducedMotion: false })), numbers(springParams(spec)));
		const reduced = springParams({ ...spec, reducedMotion: true });
		assert.ok(reduced.dampingRatio >= 1 && reduced.overshoot === 0, 'critically damped or more: never overshoots');
	}
	// Motion's and react-spring's objects take it too
	assert.deepEqual(numbers(springParams({ type: 'spring', stiffness: 100, damping: 10, reducedMotion: true })),
		numbers(springParams({ stiffness: 100, damping: 10, mass: 1 }).reducedMotion()));
});

test('a preset is a whole spring; an unknown name is refused with the presets (and the closest one)', () => {
	assert.throws(() => springParams({ preset: 'bouncey' }), (e) => e instanceof SpringError && e.code === 'BAD_DEFINITION'
		&& /^springParams: preset: no preset is called 'bouncey' \(did you mean 'bouncy'\?\) \(the presets: smooth, snappy, bouncy, /.test(e.message));
	assert.throws(() => springParams({ preset: 'zzz' }), /no preset is called 'zzz' \(the presets: smooth,/);
	assert.throws(() => springParams({ preset: 'bouncy', duration: 0.4 }), /preset is a whole spring: give it without other spring keys \(got duration\)/);
	assert.throws(() => springParams({ preset: 3 }), TypeError);
	assert.throws(() => springParams({ preset: 'bouncy', reducedMotion: 'yes' }), TypeError);
	assert.throws(() => springParams({ preset: 'BOUNCY' }), /no preset is called 'BOUNCY'/); // exact, lower case, as the library
});
