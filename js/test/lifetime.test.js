// SPDX-License-Identifier: MIT
// Objects that are not disposed: creating them costs the same early and late (it got 40-60 times
// slower once the module's memory passed 64 MiB: every creation grew the wasm memory a few pages,
// and past V8's external-memory limit every growth asked for a full collection of the JavaScript
// heap; js/src/heap.c grows it geometrically, which this test counts: no clock, so a busy machine
// cannot fail it), and the FinalizationRegistry frees the ones the garbage collector finds,
// warning once.
import assert from 'node:assert/strict';
import test from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { Chain2D, liveObjectCount, wasmMemoryBytes } from '../index.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
const segments = Array.from({ length: 8 }, () => ({ length: 20, restAngle: 0.1 }));

// The cause, measured without a clock: every growth of the wasm memory is one V8 may answer with a
// full garbage collection once past its external-memory limit, so the growths must be few (half
// again the memory each time: logarithmic in the memory used), not one every few creations.
test('creating 96 MiB of objects not disposed within the task grows the wasm memory a logarithmic number of times', () => {
	const keep = [];
	const start = wasmMemoryBytes();
	let last = start;
	let growths = 0;
	let smallest = Infinity; // the smallest growth, as a fraction of the memory before it (printed)
	while (wasmMemoryBytes() < 96 * 2 ** 20) {
		keep.push(new Chain2D({ segments }));
		const now = wasmMemoryBytes();
		if (now !== last) {
			growths++;
			smallest = Math.min(smallest, (now - last) / last);
			last = now;
		}
	}
	// half again each time from `start`: log(96 MiB / start) / log(1.5) growths, and a few more
	const bound = Math.ceil(Math.log((96 * 2 ** 20) / start) / Math.log(1.5)) + 3;
	console.log(`  ${keep.length} chains, ${(start / 2 ** 20).toFixed(1)} -> ${(last / 2 ** 20).toFixed(0)} MiB in ${growths} growths `
		+ `(at most ${bound}; the smallest +${(100 * smallest).toFixed(0)} %)`);
	try {
		assert.ok(growths <= bound, `the memory grew ${growths} times for ${keep.length} creations`);
		assert.ok(growths >= 3, 'the test did not make the memory grow'); // the bound is reached, not vacuous
	} finally {
		keep.forEach((c) => c.dispose());
	}
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
