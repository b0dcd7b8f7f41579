// SPDX-License-Identifier: MIT
// What the package's tests share: the native CLI (the C library's own numbers to compare with)
// and the tests' seeded random sequence.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { shortest32 } from '../runtime.js';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const build = resolve(root, process.env.BUILD ?? 'build');

/** Runs the native `spring` CLI of the release build (make test-web builds it first). */
export function cli(...args) {
	const exe = resolve(build, 'release/tools/spring');
	if (!existsSync(exe)) {
		throw new Error(`${exe} is missing: build it with make release (make test-web does)`);
	}
	return execFileSync(exe, args, { encoding: 'utf8' });
}

export function cliJson(...args) {
	return JSON.parse(cli(...args, '--json'));
}

/** A float as the CLI prints it (%.9g round-trips a float): the float itself. */
export const f = (text) => Math.fround(Number(text));
/** The same float as the package's getters for people give it (0.7 for 0.699999988). */
export const g = (text) => shortest32(f(text));

/** spring_random_unit and random_range of the C tests (tests/shared/random.c), for the same draws. */
export function randomUnit(state) {
	let x = state.value || 0x9e3779b9;
	x = (x ^ (x << 13)) >>> 0;
	x = (x ^ (x >>> 17)) >>> 0;
	x = (x ^ (x << 5)) >>> 0;
	state.value = x;
	return (x >>> 8) / 16777216;
}
export function randomRange(state, lo, hi) {
	const unit = Math.fround(randomUnit(state));
	const [l, h] = [Math.fround(lo), Math.fround(hi)]; // float arguments, float arithmetic
	return Math.fround(l + Math.fround(Math.fround(h - l) * unit));
}

/** 64-bit FNV-1a over bytes (spring_hash), continuing from `hash`. */
export function fnv1a(hash, bytes) {
	let h = hash;
	for (const b of bytes) {
		h ^= BigInt(b);
		h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
	}
	return h;
}
export const HASH_INIT = 14695981039346656037n;

/** The bytes of floats as the C structs hold them (little-endian, like wasm and x86). */
export const floatBytes = (values) => new Uint8Array(Float32Array.from(values).buffer);

/** A determinism golden as the C tests define it (`#define NAME 0x...ull` in tests/FILE): one place. */
export function cGolden(file, name) {
	const text = readFileSync(resolve(root, 'tests', file), 'utf8');
	const match = new RegExp(`#define ${name} (0x[0-9a-f]+)ull`).exec(text);
	if (!match) {
		throw new Error(`tests/${file} defines no ${name}`);
	}
	return BigInt(match[1]);
}
