// SPDX-License-Identifier: MIT
// `npm pack` makes a tarball that the example project (js/example/) installs offline and runs.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import test from 'node:test';

import { root } from './helpers.js';

const npm = (cwd, ...args) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

test('npm pack: the tarball installs offline into the example project, which runs', () => {
	const js = resolve(root, 'js');
	const work = mkdtempSync(join(tmpdir(), 'libspring-pack-'));
	try {
		const { version } = JSON.parse(readFileSync(join(js, 'package.json'), 'utf8'));
		const packed = JSON.parse(npm(js, 'pack', '--json', '--pack-destination', work));
		const files = packed[0].files.map((f) => f.path).sort();
		assert.deepEqual(files, ['LICENSE', 'README.md', 'index.d.ts', 'index.js', 'libspring-rig-wasm.js', 'libspring-wasm.js',
			'package.json', 'rig.d.ts', 'rig.js', 'runtime.js', 'version.js']);
		const tarball = `libspring-${version}.tgz`;
		assert.equal(packed[0].filename, tarball);
		cpSync(join(js, 'example'), join(work, 'example'), { recursive: true });
		npm(join(work, 'example'), 'install', '--offline', '--no-audit', '--no-fund', `../${tarball}`);
		const out = execFileSync('node', ['index.js'], { cwd: join(work, 'example'), encoding: 'utf8' });
		assert.match(out, new RegExp(`^libspring ${version.replace(/\./g, '\\.')}: stiffness 157\\.9, damping 17\\.6, settles in 0\\.819 s$`,
			'm'));
		assert.match(out, /^ball after 1 s: x 100\.\d\d, at rest (true|false)$/m);
		assert.match(out, /^css: 820ms$/m);
		assert.match(out, /^tail tip: -?\d+\.\d, -?\d+\.\d$/m);
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
});
