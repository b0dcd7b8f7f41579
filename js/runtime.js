// SPDX-License-Identifier: MIT
// What the package's two WebAssembly modules share on the JavaScript side: instantiation, views of
// wasm memory, the library's errors as exceptions, and freeing wasm memory. Internal: the public
// API is index.js (and rig.js).

function decodeBase64(text) {
	if (typeof atob === 'function') {
		const bin = atob(text);
		const bytes = new Uint8Array(bin.length);
		for (let i = 0; i < bin.length; i++) {
			bytes[i] = bin.charCodeAt(i);
		}
		return bytes;
	}
	return Uint8Array.from(globalThis.Buffer.from(text, 'base64'));
}

/** The names of the library's spring_result codes, by value. */
const RESULT_NAMES = ['OK', 'INVALID_ARGUMENT', 'NOT_FINITE', 'OUT_OF_RANGE', 'UNSTABLE', 'NO_SOLUTION', 'OUT_OF_MEMORY',
	'BAD_DEFINITION', 'BUFFER_TOO_SMALL'];

/** An error of the library: `code` is its result code ('NOT_FINITE', 'BAD_DEFINITION'...). */
export class SpringError extends Error {
	constructor(message, code) {
		super(message);
		this.name = 'SpringError';
		this.code = code;
	}
}

export function resultName(result) {
	return RESULT_NAMES[result] ?? `RESULT_${result}`;
}

// Every argument's type is checked here: a wrong one throws a TypeError naming it (a value of the
// right type out of range is the library's to refuse, with a SpringError).

/** What a value is, for messages: "null", "an array", "a string"... */
export function describe(value) {
	if (value === null) {
		return 'null';
	}
	if (Array.isArray(value)) {
		return 'an array';
	}
	if (ArrayBuffer.isView(value)) {
		return `a ${value.constructor.name}`;
	}
	const type = typeof value;
	return type === 'object' ? 'an object' : `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type} (${String(value)})`;
}

export function finite(value, name) {
	if (typeof value !== 'number') {
		throw new TypeError(`${name} must be a number (got ${describe(value)})`);
	}
	return value;
}

const EMPTY = Object.freeze({});

/**
 * A plain object argument ({x, y, angle}, descriptions, options); undefined gives {} when optional.
 * `keys`: the keys it may have; any other is refused, naming the closest allowed one.
 */
export function record(value, name, optional = false, keys = undefined) {
	if (value === undefined && optional) {
		return EMPTY;
	}
	if (value === null || typeof value !== 'object' || Array.isArray(value) || ArrayBuffer.isView(value)) {
		throw new TypeError(`${name} must be an object (got ${describe(value)})`);
	}
	if (keys !== undefined) {
		for (const key in value) {
			if (!keys.includes(key) && Object.hasOwn(value, key)) {
				throw unknownKey(key, keys, name);
			}
		}
	}
	return value;
}

const ROOT2_KEYS = ['x', 'y', 'angle'];

// A root of a per-frame call ({x, y, angle}, a field left out: 0), checked without allocating:
// [x, y, angle] into F. (Each number goes straight into F: one read from an object and passed to
// a function would be boxed, 16 bytes.)
export function root2Into(root, F, base, name = 'root') {
	if (root === null || typeof root !== 'object' || Array.isArray(root) || ArrayBuffer.isView(root)) {
		record(root, `${name} ({x, y, angle})`); // throws
	}
	record(root, name, false, ROOT2_KEYS);
	let x = root.x;
	let y = root.y;
	let angle = root.angle;
	x = x === undefined ? 0 : x;
	y = y === undefined ? 0 : y;
	angle = angle === undefined ? 0 : angle;
	if (typeof x !== 'number' || typeof y !== 'number' || typeof angle !== 'number') {
		[x, y, angle].forEach((v, i) => finite(v, `${name}.${ROOT2_KEYS[i]}`)); // throws
	}
	F[base] = x;
	F[base + 1] = y;
	F[base + 2] = angle;
}

// The library's "did you mean" (spring_closest_name) of the first module instantiated.
let closestName = null;

/** The candidate closest to `given` as the library's messages suggest names (null: none is close). */
export function closest(given, candidates) {
	const i = closestName ? closestName(given, candidates) : -1;
	return i >= 0 ? candidates[i] : null;
}

/**
 * The error for a key `name` does not take: "name: unknown key "restangle" (did you mean
 * "restAngle"?)", or the keys it takes when none is close (as the rig-file reader says it).
 */
export function unknownKey(key, keys, name) {
	const near = closest(key, keys);
	const quoted = JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}...` : key);
	const tail = near !== null ? `did you mean "${near}"?` : `expected one of: ${keys.join(', ')}`;
	return new SpringError(`${name}: unknown key ${quoted} (${tail})`, 'BAD_DEFINITION');
}

/**
 * A float32 result as people read it: the shortest decimal that rounds to the same float (0.7,
 * not 0.699999988). Written back to the library it is the same float again.
 */
export function shortest32(x) {
	for (let digits = 1; digits <= 9; digits++) {
		const s = Number(x.toPrecision(digits));
		if (Math.fround(s) === x) {
			return s;
		}
	}
	return x;
}

/** An array (or typed array) argument; undefined gives [] when optional. */
export function list(value, name, optional = false) {
	if (value === undefined && optional) {
		return [];
	}
	if (!Array.isArray(value) && !(ArrayBuffer.isView(value) && !(value instanceof DataView))) {
		throw new TypeError(`${name} must be an array (got ${describe(value)})`);
	}
	return Array.from(value);
}

/** A boolean argument; undefined is false. */
export function bool(value, name) {
	if (value !== undefined && typeof value !== 'boolean') {
		throw new TypeError(`${name} must be a boolean (got ${describe(value)})`);
	}
	return value === true;
}

/** A string argument. */
export function text(value, name) {
	if (typeof value !== 'string') {
		throw new TypeError(`${name} must be a string (got ${describe(value)})`);
	}
	return value;
}

/** An integer argument (counts, indices, enum values), refused when it is not one. */
export function integer(value, name) {
	finite(value, name);
	if (!Number.isInteger(value) || Math.abs(value) > 0x7fffffff) {
		throw new SpringError(`${name} must be an integer (got ${String(value)})`, 'INVALID_ARGUMENT');
	}
	return value;
}

/**
 * The longest step (seconds) a moving object (motion, chain, rig) takes without a warning:
 * requestAnimationFrame's timestamps are milliseconds, and a frame of 16 read as seconds ends a
 * move at once. Longer steps are right at times (a page back from a background tab): said once
 * per object, not refused.
 */
export const LONG_STEP_SECONDS = 2;

const warnedLongStep = new WeakSet();

/** The warning for a step of `dt` s over LONG_STEP_SECONDS while `object` moves (`what`: the call), once per object. */
export function warnLongStep(object, dt, what) {
	if (!warnedLongStep.has(object)) {
		warnedLongStep.add(object);
		console.warn(`libspring: ${what}: a step of ${dt} s while moving (more than ${LONG_STEP_SECONDS} s). Times are seconds: `
			+ 'requestAnimationFrame gives milliseconds, pass now / 1000. (Said once per object; after a page was hidden a long '
			+ 'step is right.)');
	}
}

const WASI_ERRNO_BADF = 8;
const WASI_ERRNO_SPIPE = 70;
const SCRATCH_BYTES = 4096;
const ARGS_FLOATS = 8;
const decoder = new TextDecoder();

/**
 * Instantiates a module given in base64 and returns its exports with helpers. The only WASI calls
 * the C library's stdio can make are stubbed: writes to stdout and stderr go to the console (the
 * release build writes nothing), files do not exist.
 */
export async function instantiate(base64) {
	const imports = wasiImports();
	const { instance } = await WebAssembly.instantiate(decodeBase64(base64), imports.object);
	return started(instance, imports);
}

/**
 * The same, synchronously: for the CommonJS build (require() cannot wait), in Node, where a module
 * of any size may be compiled synchronously (browsers limit that on their main thread).
 */
export function instantiateSync(base64) {
	const imports = wasiImports();
	const instance = new WebAssembly.Instance(new WebAssembly.Module(decodeBase64(base64)), imports.object);
	return started(instance, imports);
}

// The WASI functions the module imports (console output only); `memory` is set once it exists.
function wasiImports() {
	const imports = { memory: null };
	const wasi = {
		fd_write(fd, iovs, iovsLength, writtenPtr) {
			const memory = imports.memory;
			const view = new DataView(memory.buffer);
			let written = 0;
			let text = '';
			for (let i = 0; i < iovsLength; i++) {
				const base = view.getUint32(iovs + 8 * i, true);
				const length = view.getUint32(iovs + 8 * i + 4, true);
				text += decoder.decode(new Uint8Array(memory.buffer, base, length));
				written += length;
			}
			if (fd !== 1 && fd !== 2) {
				return WASI_ERRNO_BADF;
			}
			console.error(text);
			view.setUint32(writtenPtr, written, true);
			return 0;
		},
		fd_close: () => WASI_ERRNO_BADF,
		fd_seek: () => WASI_ERRNO_SPIPE,
	};
	imports.object = { wasi_snapshot_preview1: wasi };
	return imports;
}

function started(instance, imports) {
	const w = instance.exports;
	const memory = w.memory;
	imports.memory = memory;
	w._initialize();
	// Views of the whole memory for the per-frame calls, made again only after memory grew
	// (memory.grow detaches the old ones).
	let buffer = null;
	let heapF32 = null;
	const rt = {
		w,
		heapF32() {
			if (memory.buffer !== buffer) {
				buffer = memory.buffer;
				heapF32 = new Float32Array(buffer);
			}
			return heapF32;
		},
		// Other views are made per call.
		f32: (ptr, count) => new Float32Array(memory.buffer, ptr, count),
		f64: (ptr, count) => new Float64Array(memory.buffer, ptr, count),
		i32: (ptr, count) => new Int32Array(memory.buffer, ptr, count),
		u32: (ptr, count) => new Uint32Array(memory.buffer, ptr, count),
		bytes: (ptr, count) => new Uint8Array(memory.buffer, ptr, count),
		cString(ptr, max = 1 << 20) {
			const all = new Uint8Array(memory.buffer, ptr, Math.min(max, memory.buffer.byteLength - ptr));
			const end = all.indexOf(0);
			return decoder.decode(all.subarray(0, end < 0 ? all.length : end));
		},
		alloc(size) {
			const ptr = w.malloc(size);
			if (!ptr) {
				throw new SpringError('out of memory', 'OUT_OF_MEMORY');
			}
			return ptr;
		},
		/** A NUL-terminated copy of `text` in wasm memory (free it) and its length in bytes. */
		string(text) {
			const encoded = new TextEncoder().encode(text);
			const ptr = rt.alloc(encoded.length + 1);
			const target = new Uint8Array(memory.buffer, ptr, encoded.length + 1);
			target.set(encoded);
			target[encoded.length] = 0;
			return [ptr, encoded.length];
		},
		/** Throws for a failed library call, with the library's sentence for the code. */
		check(result, what) {
			if (result !== 0) {
				throw new SpringError(`${what}: ${rt.cString(w.spring_result_string(result))}`, resultName(result));
			}
		},
	};
	// Memory for the arguments and results of one call at a time (calls are synchronous).
	rt.scratch = rt.alloc(SCRATCH_BYTES);
	// The numbers of a per-frame call (a dt, a root, a target) go into memory, here, and the call
	// gets a pointer: a fractional number passed to wasm as an argument is boxed by some engines
	// (Node 18's V8: 16 bytes a call), a store into the heap allocates nothing. Apart from scratch,
	// which a call may fill with its results.
	rt.args = rt.alloc(4 * ARGS_FLOATS);
	if (!closestName) {
		closestName = (given, candidates) => {
			const strings = [given, ...candidates].map((t) => rt.string(t)[0]);
			const table = rt.alloc(4 * candidates.length);
			try {
				rt.u32(table, candidates.length).set(strings.slice(1));
				return w.spring_closest_name(strings[0], table, candidates.length);
			} finally {
				[table, ...strings].forEach((ptr) => w.free(ptr));
			}
		};
	}
	return rt;
}

// Symbol.dispose where the engine has it (Node 18.18, 20.4); else the symbol TypeScript's `using`
// falls back to when it compiles for older engines.
export const disposeSymbol = typeof Symbol.dispose === 'symbol' ? Symbol.dispose : Symbol.for('Symbol.dispose');

// Objects not disposed: the safety net frees their wasm memory once the garbage collector finds
// them (never within the task that made them), and says so once.
let live = 0;
let warned = false;
const registry = typeof FinalizationRegistry === 'function' ? new FinalizationRegistry(({ free, kind }) => {
	live--;
	free();
	if (!warned) {
		warned = true;
		console.warn(`libspring: a ${kind} was garbage-collected without dispose(); its WebAssembly memory was freed then. `
			+ 'Call dispose() when an object is done with: until then its memory stays taken (this is said once).');
	}
}) : null;

/** How many objects hold wasm memory now: made and neither disposed nor collected. */
export const liveObjectCount = () => live;

/**
 * An object holding wasm memory: dispose() frees it (a FinalizationRegistry frees it too once the
 * object is garbage, as a safety net, and warns once).
 */
export class Owned {
	constructor(ptr, free) {
		this._ptr = ptr;
		this._free = free;
		this._token = {};
		live++;
		registry?.register(this, { free: () => free(ptr), kind: new.target.name }, this._token);
	}
	_live(what) {
		if (!this._ptr) {
			throw new SpringError(`${what}: the object was disposed`, 'INVALID_ARGUMENT');
		}
		return this._ptr;
	}
	/** Frees the object's wasm memory now; any later call throws. */
	dispose() {
		if (this._ptr) {
			registry?.unregister(this._token);
			live--;
			this._free(this._ptr);
			this._ptr = 0;
		}
	}
	/** `using m = new SpringMotion(...)` disposes at the end of the block (TypeScript 5.2, ES2026). */
	[disposeSymbol]() {
		this.dispose();
	}
}

/**
 * A new object's output buffer of `bytes` (the object is destroyed when that allocation fails):
 * [buffer, a free function for Owned that destroys the object and frees the buffer].
 */
export function withBuffer(rt, ptr, destroy, bytes) {
	let buffer;
	try {
		buffer = rt.alloc(bytes);
	} catch (e) {
		destroy(ptr);
		throw e;
	}
	return [buffer, (p) => {
		destroy(p);
		rt.w.free(buffer);
	}];
}
