// SPDX-License-Identifier: MIT
// The declarations against what people write (tsc strict, TypeScript pinned in package.json):
// every JavaScript and TypeScript example of the READMEs and docs compiles against the package as
// it installs (`import ... from 'libspring'`), and every call of test/types-invalid.ts fails with
// the error its line names. (test/types.ts, the calls that must compile, is in tsconfig.json.)
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import test from 'node:test';

import { resultName } from '../runtime.js';
import { root } from './helpers.js';

const js = resolve(root, 'js');
const tscBin = join(js, 'node_modules/typescript/bin/tsc');

/** Runs tsc on a project; returns its diagnostics as [{file, line, code, text}]. */
function tsc(project) {
	assert.ok(existsSync(tscBin), `${tscBin} is missing: npm ci in js/ (make test-web does)`);
	const r = spawnSync(process.execPath, [tscBin, '--noEmit', '--pretty', 'false', '-p', project], { encoding: 'utf8' });
	const diagnostics = [];
	for (const line of r.stdout.split('\n')) {
		const m = line.match(/^(.*)\((\d+),\d+\): error (TS\d+): (.*)$/);
		if (m) diagnostics.push({ file: m[1], line: Number(m[2]), code: m[3], text: m[4] });
	}
	assert.ok(r.status === 0 || diagnostics.length > 0, `tsc failed without diagnostics: ${r.stdout}${r.stderr}`);
	return diagnostics;
}

/** Every ```js and ```ts block of the project's Markdown files: [{file, line, lang, code}]. */
function examples() {
	const files = ['README.md', 'js/README.md', 'web/README.md',
		...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
	const blocks = [];
	for (const file of files) {
		const lines = readFileSync(join(root, file), 'utf8').split('\n');
		for (let i = 0; i < lines.length; i++) {
			const open = lines[i].match(/^```(js|javascript|ts|typescript)\s*$/);
			if (!open) continue;
			const start = i + 1;
			while (i + 1 < lines.length && lines[i + 1] !== '```') i++;
			blocks.push({ file, line: start + 1, lang: open[1].startsWith('t') ? 'ts' : 'js', code: lines.slice(start, i + 1).join('\n') });
			i++;
		}
	}
	return blocks;
}

test('every JavaScript and TypeScript example of the READMEs and docs compiles (tsc strict, checkJs)', () => {
	const blocks = examples();
	assert.ok(blocks.length >= 3, `only ${blocks.length} examples found`);
	const work = mkdtempSync(join(tmpdir(), 'libspring-types-'));
	try {
		// A project that installed the package: `libspring` resolves through package.json's exports.
		mkdirSync(join(work, 'node_modules'));
		symlinkSync(js, join(work, 'node_modules/libspring'), 'dir');
		writeFileSync(join(work, 'package.json'), JSON.stringify({ type: 'module', private: true }));
		const names = blocks.map((b, n) => `example-${n}.${b.lang === 'ts' ? 'mts' : 'mjs'}`);
		blocks.forEach((b, n) => writeFileSync(join(work, names[n]), `${b.code}\nexport {};\n`));
		writeFileSync(join(work, 'tsconfig.json'), JSON.stringify({
			compilerOptions: {
				target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM'],
				strict: true, allowJs: true, checkJs: true, noEmit: true, skipLibCheck: false, types: [],
			},
			files: names,
		}));
		const found = tsc(join(work, 'tsconfig.json')).map((d) => {
			const n = Number(d.file.match(/example-(\d+)\./)?.[1]);
			const b = blocks[n];
			return b ? `${b.file}:${b.line + d.line - 1}: ${d.code} ${d.text}` : `${d.file}:${d.line}: ${d.code} ${d.text}`;
		});
		assert.deepEqual(found, [], `examples that do not compile:\n${found.join('\n')}`);
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
});

test('each call of test/types-invalid.ts fails to compile with the error its line names, and no other line fails', () => {
	const file = join(js, 'test/types-invalid.ts');
	const expected = readFileSync(file, 'utf8').split('\n')
		.map((text, i) => ({ line: i + 1, code: text.match(/\/\/ error (TS\d+)$/)?.[1] }))
		.filter((e) => e.code);
	assert.ok(expected.length >= 8, `only ${expected.length} invalid calls`);
	const work = mkdtempSync(join(tmpdir(), 'libspring-types-'));
	try {
		writeFileSync(join(work, 'tsconfig.json'), JSON.stringify({ extends: join(js, 'tsconfig.json'), files: [file] }));
		const found = tsc(join(work, 'tsconfig.json'));
		const got = found.map((d) => `${d.line} ${d.code}`);
		const want = expected.map((e) => `${e.line} ${e.code}`);
		assert.deepEqual(got, want, `tsc said:\n${found.map((d) => `${d.line}: ${d.code} ${d.text}`).join('\n')}`);
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
});

test('the result codes are the C enum\'s, in its order, in the runtime and the declarations', () => {
	const header = readFileSync(resolve(root, 'include/spring/base.h'), 'utf8');
	const body = header.match(/typedef enum spring_result \{([^}]*)\}/)[1];
	const names = [...body.matchAll(/^\s*SPRING_(?:ERROR_)?([A-Z_]+)/gm)].map((m) => m[1]).filter((n) => n !== 'RESULT_COUNT');
	assert.ok(names.length >= 9 && names[0] === 'OK', names.join());
	names.forEach((name, value) => assert.equal(resultName(value), name, `result ${value}`));
	assert.equal(resultName(names.length), `RESULT_${names.length}`);
	const declared = readFileSync(resolve(js, 'index.d.ts'), 'utf8').match(/export type SpringErrorCode =([^;]*);/)[1];
	assert.deepEqual([...declared.matchAll(/'([A-Z_]+)'/g)].map((m) => m[1]), names.slice(1));
});
