// SPDX-License-Identifier: MIT
// `npm pack` makes a tarball that the example project (js/example/) installs offline and runs: as
// an ES module and through require(), bundled by esbuild, and compiled by tsc in ESM and CommonJS.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
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
		assert.deepEqual(files, ['LICENSE', 'README.md', 'cjs/index.cjs', 'cjs/index.d.cts', 'cjs/libspring-rig-wasm.cjs',
			'cjs/libspring-vrm-wasm.cjs', 'cjs/libspring-wasm.cjs', 'cjs/package.json', 'cjs/rig.cjs', 'cjs/rig.d.cts',
			'cjs/runtime.cjs', 'cjs/three-vrm.cjs', 'cjs/three-vrm.d.cts', 'cjs/version.cjs', 'cjs/vrm.cjs', 'cjs/vrm.d.cts',
			'index.d.ts', 'index.js', 'libspring-rig-wasm.js', 'libspring-vrm-wasm.js', 'libspring-wasm.js', 'package.json',
			'rig.d.ts', 'rig.js', 'runtime.js', 'three-vrm.d.ts', 'three-vrm.js', 'version.js', 'vrm.d.ts', 'vrm.js']);
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
		const project = join(work, 'example');
		// require('libspring') in CommonJS (Node 18 and later): the same program gives the same lines.
		const esm = readFileSync(join(project, 'index.js'), 'utf8');
		writeFileSync(join(project, 'index.cjs'), esm.replace(/^import \{ ([\w, ]+) \} from 'libspring';$/m, "const { $1 } = require('libspring');"));
		assert.equal(execFileSync('node', ['index.cjs'], { cwd: project, encoding: 'utf8' }), out);
		// Bundled by esbuild (pinned in js/package.json): the ES module for the browser, the
		// CommonJS one for Node; each bundle runs and prints the same.
		const esbuild = createRequire(import.meta.url)(join(js, 'node_modules/esbuild'));
		for (const [entry, platform, format, bundle] of [['index.js', 'browser', 'esm', 'bundle.mjs'], ['index.cjs', 'node', 'cjs', 'bundle.cjs']]) {
			const built = esbuild.buildSync({ entryPoints: [entry], bundle: true, platform, format, outfile: bundle,
				absWorkingDir: project, logLevel: 'silent' });
			assert.deepEqual(built.warnings, [], `esbuild ${entry} (${platform}, ${format})`);
			assert.equal(execFileSync('node', [bundle], { cwd: project, encoding: 'utf8' }), out, `${entry} bundled (${platform}, ${format})`);
		}
		// TypeScript projects of both kinds compile against the installed declarations (strict).
		writeFileSync(join(project, 'consumer.mts'), "import { springParams, SpringMotion } from 'libspring';\n" +
			"import type { Rig } from 'libspring/rig';\nimport type { Vrm } from 'libspring/vrm';\n" +
			"import type { LibspringSpringBones } from 'libspring/three-vrm';\nexport type L = LibspringSpringBones;\n" +
			"export const k: number = springParams({ duration: 0.5 }).stiffness;\n" +
			"export const m = new SpringMotion({ value: 0, target: 1 }).setTarget(2);\nexport type R = Rig;\nexport type V = Vrm;\n");
		writeFileSync(join(project, 'consumer.cts'), "import { springParams, SpringMotion } from 'libspring';\n" +
			"import type { Rig } from 'libspring/rig';\nimport type { Vrm } from 'libspring/vrm';\n" +
			"import type { LibspringSpringBones } from 'libspring/three-vrm';\nexport type L = LibspringSpringBones;\n" +
			"export const k: number = springParams({ duration: 0.5 }).stiffness;\n" +
			"export const m = new SpringMotion({ value: [0, 0] }).setTarget([1, 2]);\nexport type R = Rig;\nexport type V = Vrm;\n");
		writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext',
			moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: false, types: [] },
		files: ['consumer.mts', 'consumer.cts'] }));
		const tsc = spawnSync(process.execPath, [join(js, 'node_modules/typescript/bin/tsc'), '-p', '.'], { cwd: project, encoding: 'utf8' });
		assert.equal(tsc.status, 0, `tsc in a project that installed the package:\n${tsc.stdout}${tsc.stderr}`);
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
});

test('the CommonJS converter refuses a module form it does not take, naming the line', async () => {
	const { toCommonJS } = await import('../build-cjs.mjs');
	assert.match(toCommonJS("import { a } from './a.js';\nexport const b = a;\n", 'm.js'), /const \{ a \} = require\('\.\/a\.cjs'\);/);
	// the module awaits instantiate(); the CommonJS one calls the synchronous twin under its own name
	const sync = toCommonJS("import { a, instantiate } from './r.js';\nconst rt = await instantiate(b);\n", 'm.js');
	assert.match(sync, /const \{ a, instantiateSync \} = require\('\.\/r\.cjs'\);\nconst rt = instantiateSync\(b\);/);
	assert.throws(() => toCommonJS("export * from './a.js';\n", 'm.js'), /m\.js:1: a module form/);
	assert.throws(() => toCommonJS("const x = 1;\nconst y = await fetch('u');\n", 'm.js'), /m\.js:2: a top-level await/);
	assert.throws(() => toCommonJS("import a, { b } from './a.js';\n", 'm.js'), /m\.js:1/);
	// an import list wrapped over lines, with a renamed name; an export list with one
	const wrapped = toCommonJS("import { a, b as c,\n\td } from './a.js';\nexport { c as e, d };\n", 'm.js');
	assert.match(wrapped, /const \{ a, b: c, d \} = require\('\.\/a\.cjs'\);/);
	assert.match(wrapped, /Object\.assign\(exports, \{ e: c, d \}\);/);
});

test('npm publish --dry-run is clean: no warning but the registry login it cannot check, no repository field', () => {
	const js = resolve(root, 'js');
	const pkg = JSON.parse(readFileSync(join(js, 'package.json'), 'utf8'));
	// the project has no public repository address: none is given (npm would otherwise rewrite it)
	assert.equal(pkg.repository, undefined);
	for (const key of ['name', 'version', 'description', 'license', 'keywords', 'exports', 'types', 'files', 'engines']) {
		assert.ok(pkg[key] !== undefined, `package.json has ${key}`);
	}
	const r = spawnSync('npm', ['publish', '--dry-run', '--offline', '--json'], { cwd: js, encoding: 'utf8' });
	assert.equal(r.status, 0, r.stderr);
	const warnings = r.stderr.split('\n').filter((line) => /^npm (warn|WARN|error|ERR)/.test(line))
		.filter((line) => !/requires you to be logged in to .* \(dry-run\)$/.test(line));
	assert.deepEqual(warnings, []);
	// npm 10 and later key the report by package name; Debian 12's npm 9 prints the report itself
	const report = JSON.parse(r.stdout);
	assert.equal((report.libspring ?? report).id, `libspring@${pkg.version}`);
});
