// SPDX-License-Identifier: MIT
// Objects that are not disposed: creating them costs the same early and late (it got 40-60 times
// slower once the module's memory passed 64 MiB: every creation grew the wasm memory a few pages,
// and past V8's external-memory limit every growth asked for a full collection of the JavaScript
// heap; js/src/heap.c grows it geometrically), and the FinalizationRegistry frees the ones the
// garbage collector finds, warning once.
import assert from 'node:assert/strict';
import test from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { Chain2D, liveObjectCount, wasmMemoryBytes } from '../index.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
const segments = Array.from({ length: 8 }, () => ({ length: 20, restAngle: 0.1 }));
const BATCH = 1000;

// Milliseconds for one batch of creations, the chains kept in `keep`.
function batch(keep) {
	const t0 = performance.now();
	for (let i = 0; i < BATCH; i++) {
		keep.push(new Chain2D({ segments }));
	}
	return performance.now() - t0;
}
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

test('creation costs the same past 64 MiB of wasm memory, nothing disposed within the task', () => {
	const warm = [];
	batch(warm); // the first creations also compile the code
	warm.forEach((c) => c.dispose());
	const keep = [];
	const early = [batch(keep), batch(keep), batch(keep), batch(keep), batch(keep)];
	while (wasmMemoryBytes() < 96 * 2 ** 20) {
		batch(keep);
	}
	const late = [batch(keep), batch(keep), batch(keep), batch(keep), batch(keep)];
	const ratio = median(late) / median(early);
	console.log(`  ${keep.length} chains, ${(wasmMemoryBytes() / 2 ** 20).toFixed(0)} MiB: ${median(early).toFixed(1)} ms a `
		+ `thousand early, ${median(late).toFixed(1)} ms late (x${ratio.toFixed(2)})`);
	assert.ok(ratio < 3, `creation got ${ratio.toFixed(1)} times slower`);
	keep.forEach((c) => c.dispose());
});

test('leaked objects are freed by the garbage collector, with one warning', async () => {
	const warnings = [];
	const warn = console.warn;
	console.warn = (...args) => warnings.push(args.join(' '));
	try {
		const before = liveObjectCount();
		(() => {
			for (let i = 0; i < 200; i++) {
				new Chain2D({ segments }); // never disposed, never kept
			}
		})();
		assert.equal(liveObjectCount(), before + 200);
		for (let round = 0; round < 50 && liveObjectCount() > before; round++) {
			gc();
			await new Promise((done) => setTimeout(done, 20)); // finalizers run in later tasks
		}
		assert.equal(liveObjectCount(), before, 'every leaked chain freed');
		assert.equal(warnings.length, 1, warnings.join('\n'));
		assert.match(warnings[0], /a Chain2D was garbage-collected without dispose\(\)/);
		// A disposed object is not the safety net's: no second warning, nothing freed twice.
		new Chain2D({ segments }).dispose();
		gc();
		await new Promise((done) => setTimeout(done, 20));
		assert.equal(liveObjectCount(), before);
		assert.equal(warnings.length, 1);
	} finally {
		console.warn = warn;
	}
});
