// libspring for JavaScript: the C library compiled to WebAssembly (scripts/build-wasm-js.sh), with
// a thin layer that turns JavaScript values into the library's arguments and its results and
// errors back. Every number comes from the library; nothing here re-implements its maths.
import wasmBase64 from './libspring-wasm.js';
import { version } from './version.js';

export { version };

// ---------------------------------------------------------------------------------------------
// The module

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

// The WASI calls the C library's stdio may make (it writes only on a failed debug assertion, which
// the release build does not compile): stderr goes to the console, nothing else exists.
const WASI_ERRNO_BADF = 8;
const WASI_ERRNO_SPIPE = 70;
let wasm = null;
const decoder = new TextDecoder();
const wasi = {
	fd_write(fd, iovs, iovsLength, writtenPtr) {
		const view = new DataView(wasm.memory.buffer);
		let written = 0;
		let text = '';
		for (let i = 0; i < iovsLength; i++) {
			const base = view.getUint32(iovs + 8 * i, true);
			const length = view.getUint32(iovs + 8 * i + 4, true);
			text += decoder.decode(new Uint8Array(wasm.memory.buffer, base, length));
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

const { instance } = await WebAssembly.instantiate(decodeBase64(wasmBase64), { wasi_snapshot_preview1: wasi });
wasm = instance.exports;
wasm._initialize();

// Scratch memory for arguments and results of one call at a time (calls are synchronous).
const SCRATCH_BYTES = 4096;
const scratch = wasm.malloc(SCRATCH_BYTES);

function f32(ptr, count) {
	return new Float32Array(wasm.memory.buffer, ptr, count);
}
function f64(ptr, count) {
	return new Float64Array(wasm.memory.buffer, ptr, count);
}
function i32(ptr, count) {
	return new Int32Array(wasm.memory.buffer, ptr, count);
}
function cString(ptr, max = 1 << 20) {
	const bytes = new Uint8Array(wasm.memory.buffer, ptr, Math.min(max, wasm.memory.buffer.byteLength - ptr));
	const end = bytes.indexOf(0);
	return decoder.decode(bytes.subarray(0, end < 0 ? bytes.length : end));
}
function alloc(bytes) {
	const ptr = wasm.malloc(bytes);
	if (!ptr) {
		throw new SpringError('out of memory', 'OUT_OF_MEMORY');
	}
	return ptr;
}

// ---------------------------------------------------------------------------------------------
// Errors

/** The names of the library's spring_result codes, by value. */
const RESULT_NAMES = ['OK', 'INVALID_ARGUMENT', 'NOT_FINITE', 'OUT_OF_RANGE', 'UNSTABLE', 'NO_SOLUTION', 'OUT_OF_MEMORY',
	'BAD_DEFINITION'];

export class SpringError extends Error {
	constructor(message, code) {
		super(message);
		this.name = 'SpringError';
		/** The library's result code: 'NOT_FINITE', 'OUT_OF_RANGE', 'BAD_DEFINITION'... */
		this.code = code;
	}
}

function resultName(result) {
	return RESULT_NAMES[result] ?? `RESULT_${result}`;
}

// Throws for a failed library call, with the library's sentence for the code.
function check(result, what) {
	if (result !== 0) {
		throw new SpringError(`${what}: ${cString(wasm.spring_result_string(result))}`, resultName(result));
	}
}

function finite(value, name) {
	if (typeof value !== 'number') {
		throw new TypeError(`${name} must be a number (got ${typeof value})`);
	}
	return value;
}

// ---------------------------------------------------------------------------------------------
// Parameters

// JavaScript option names are the rig format's keys in camelCase.
const toSnake = (key) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const toCamel = (text) => text.replace(/\b([a-z]+)((?:_[a-z]+)+)\b/g, (m, head, rest) =>
	head + rest.replace(/_([a-z])/g, (x, c) => c.toUpperCase()));

const QUERY = { dampingRatio: 0, naturalFrequency: 1, frequency: 2, duration: 3, bounce: 4, visualDuration: 5, overshoot: 6,
	halfLife: 7 };

/**
 * A valid spring: stiffness k (N/m), damping c (N*s/m), mass m (kg), with the library's queries.
 * Made by springParams(); immutable.
 */
export class SpringParams {
	constructor(stiffness, damping, mass) {
		this.stiffness = stiffness;
		this.damping = damping;
		this.mass = mass;
		Object.freeze(this);
	}
	_write(ptr) {
		const p = f32(ptr, 3);
		p[0] = this.stiffness;
		p[1] = this.damping;
		p[2] = this.mass;
		return ptr;
	}
	_query(index) {
		return wasm.js_params_query(this._write(scratch), index);
	}
	/** zeta = c / (2 sqrt(k m)) */
	get dampingRatio() { return this._query(QUERY.dampingRatio); }
	/** omega_n = sqrt(k / m), rad/s */
	get naturalFrequency() { return this._query(QUERY.naturalFrequency); }
	/** omega_n / (2 pi), hertz */
	get frequency() { return this._query(QUERY.frequency); }
	/** 2 pi / omega_n, seconds (SwiftUI duration, response) */
	get duration() { return this._query(QUERY.duration); }
	/** SwiftUI bounce: 1 - zeta (zeta <= 1), 1 / zeta - 1 (zeta > 1) */
	get bounce() { return this._query(QUERY.bounce); }
	/** Motion's visualDuration, seconds */
	get visualDuration() { return this._query(QUERY.visualDuration); }
	/** Fraction of the move overshot from rest; 0 when zeta >= 1 */
	get overshoot() { return this._query(QUERY.overshoot); }
	/** Seconds for the gap to halve from rest */
	get halfLife() { return this._query(QUERY.halfLife); }
	/** Origami (Rebound) slider values of the mass-1 equivalent spring */
	get origami() {
		const out = scratch + 16;
		wasm.js_params_to_origami(this._write(scratch), out);
		const o = f32(out, 2);
		return { tension: o[0], friction: o[1] };
	}
	/**
	 * Exact settling time in seconds: the last time |x - target| equals `epsilon` (units) for a move
	 * of `distance` units starting at `velocity`; 0 when never outside, Infinity when undamped.
	 */
	settleTime({ distance = 1, velocity = 0, epsilon = 0.001 } = {}) {
		return wasm.js_settling_time(this._write(scratch), finite(distance, 'distance'), finite(velocity, 'velocity'),
			finite(epsilon, 'epsilon'));
	}
	/** SwiftUI's settlingDuration estimate (seconds), same arguments as settleTime. */
	settlingDuration({ distance = 1, velocity = 0, epsilon = 0.001 } = {}) {
		return wasm.js_settling_duration(this._write(scratch), finite(distance, 'distance'), finite(velocity, 'velocity'),
			finite(epsilon, 'epsilon'));
	}
	/**
	 * The closed form: value and velocity `time` seconds after starting at `from` with `velocity`,
	 * pulled toward `to`. Invalid input gives the start back (as spring_evaluate).
	 */
	evaluate(time, { from = 0, velocity = 0, to = 1 } = {}) {
		const out = scratch + 16;
		wasm.js_evaluate(this._write(scratch), finite(from, 'from'), finite(velocity, 'velocity'), finite(to, 'to'),
			finite(time, 'time'), out);
		const o = f32(out, 2);
		return { value: o[0], velocity: o[1] };
	}
	toJSON() {
		return { stiffness: this.stiffness, damping: this.damping, mass: this.mass };
	}
}

function paramsFromFloats(ptr) {
	const p = f32(ptr, 3);
	return new SpringParams(p[0], p[1], p[2]);
}

const MESSAGE_BYTES = 512;

/**
 * A spring from any parameterisation the library has, named as in rig files (camelCase):
 * {duration, bounce}, {stiffness, damping, mass}, {frequency, dampingRatio}, {response,
 * dampingFraction}, {settling, dampingRatio, epsilon}, {visualDuration, bounce}, {halfLife},
 * {tension, friction}, {origamiTension, origamiFriction}, {perFrameStiffness, perFrameDamping, fps}.
 * Throws a SpringError with the library's reason when the spec is not a valid spring.
 */
export function springParams(spec) {
	if (spec instanceof SpringParams) {
		return spec;
	}
	if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) {
		throw new TypeError('springParams: expected an object such as {duration: 0.5, bounce: 0.3}');
	}
	const snake = {};
	for (const [key, value] of Object.entries(spec)) {
		if (value === undefined) {
			continue;
		}
		if (typeof value !== 'number' || !Number.isFinite(value)) {
			throw new SpringError(`springParams: ${key} must be a finite number (got ${String(value)})`,
				typeof value === 'number' ? 'NOT_FINITE' : 'INVALID_ARGUMENT');
		}
		snake[toSnake(key)] = value;
	}
	const bytes = new TextEncoder().encode(JSON.stringify(snake));
	const text = alloc(bytes.length + 1);
	try {
		new Uint8Array(wasm.memory.buffer, text, bytes.length).set(bytes);
		const out = scratch;
		const message = scratch + 16;
		const r = wasm.js_spring_from_json(text, bytes.length, out, message, MESSAGE_BYTES);
		if (r !== 0) {
			// "spring: $.bounce: must be ..." -> "springParams: bounce: must be ..."
			const reason = toCamel(cString(message, MESSAGE_BYTES)).replace(/^spring: \$(\.|: )/, '');
			throw new SpringError(`springParams: ${reason}`,
				resultName(r));
		}
		return paramsFromFloats(out);
	} finally {
		wasm.free(text);
	}
}

/** The default spring of chains (2 Hz, damping ratio 0.3). */
export function defaultParams() {
	wasm.js_params_default(scratch);
	return paramsFromFloats(scratch);
}

// params given to an object: a SpringParams, a spec for springParams, or nothing (zero: the
// object's default).
function writeParams(params, ptr) {
	const p = f32(ptr, 3);
	if (params === undefined || params === null) {
		p.fill(0);
	} else {
		springParams(params)._write(ptr);
	}
	return ptr;
}

/**
 * The normalised 0 -> 1 progress curve of a move from rest (or with `initialVelocity` in progress
 * units per second) sampled every `interval` seconds until rest or `maxDuration`:
 * {values: Float32Array, truncated, duration (seconds)}.
 */
export function springProgress(params, { interval = 1 / 60, maxDuration = 10, initialVelocity = 0, restDelta = 0 } = {}) {
	const capacity = Math.floor(finite(maxDuration, 'maxDuration') / finite(interval, 'interval')) + 2;
	if (!(capacity > 0 && capacity < 1e7)) {
		throw new SpringError('springProgress: interval and maxDuration give no curve', 'OUT_OF_RANGE');
	}
	const values = alloc(4 * capacity);
	try {
		writeParams(params, scratch);
		const counts = scratch + 16;
		check(wasm.js_motion_sample_progress(scratch, finite(initialVelocity, 'initialVelocity'), interval, maxDuration,
			finite(restDelta, 'restDelta'), values, capacity, counts), 'springProgress');
		const [count, truncated] = i32(counts, 2);
		return { values: f32(values, count).slice(), truncated: truncated !== 0, duration: (count - 1) * interval };
	} finally {
		wasm.free(values);
	}
}

// ---------------------------------------------------------------------------------------------
// Freeing wasm memory: dispose(), with a FinalizationRegistry as a safety net.

const registry = typeof FinalizationRegistry === 'function' ? new FinalizationRegistry((free) => free()) : null;

class Owned {
	constructor(ptr, free) {
		this._ptr = ptr;
		this._free = free;
		this._token = {};
		registry?.register(this, () => free(ptr), this._token);
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
			this._free(this._ptr);
			this._ptr = 0;
		}
	}
}

// ---------------------------------------------------------------------------------------------
// SpringMotion (spring_motion)

const MAX_CHANNELS = 4;

function channelsOf(value, name, channels) {
	const list = typeof value === 'number' ? [value] : Array.from(value ?? [], (v) => v);
	if (list.length < 1 || list.length > MAX_CHANNELS) {
		throw new SpringError(`${name}: 1 to ${MAX_CHANNELS} channels (got ${list.length})`, 'INVALID_ARGUMENT');
	}
	if (channels !== undefined && list.length !== channels) {
		throw new SpringError(`${name}: ${channels} channel(s) expected (got ${list.length})`, 'INVALID_ARGUMENT');
	}
	list.forEach((v, i) => finite(v, `${name}[${i}]`));
	return list;
}

/**
 * An interruptible value of 1 to 4 channels driven toward a target by one spring (spring_motion):
 * retargeting keeps position and velocity, and the value at any frame time is the closed form.
 */
export class SpringMotion extends Owned {
	constructor({ value = 0, target, velocity, params, restDelta, restSpeed, clampOvershoot = false } = {}) {
		const from = channelsOf(value, 'SpringMotion value');
		const n = from.length;
		const to = target === undefined ? from : channelsOf(target, 'SpringMotion target', n);
		const per = (v, name) => (v === undefined ? new Array(n).fill(0)
			: channelsOf(typeof v === 'number' && n > 1 ? new Array(n).fill(v) : v, name, n));
		const arrays = [from, to, per(velocity, 'SpringMotion velocity'), per(restDelta, 'SpringMotion restDelta'),
			per(restSpeed, 'SpringMotion restSpeed')];
		const ptr = alloc(wasm.js_motion_size());
		try {
			writeParams(params, scratch);
			const a = f32(scratch + 16, 20);
			a.fill(0);
			arrays.forEach((list, k) => list.forEach((v, c) => { a[4 * k + c] = v; }));
			check(wasm.js_motion_init(ptr, n, scratch, scratch + 16, clampOvershoot ? 1 : 0), 'SpringMotion');
		} catch (e) {
			wasm.free(ptr);
			throw e;
		}
		super(ptr, wasm.free);
		this.channels = n;
		this._scalar = typeof value === 'number';
		this._time = undefined;
	}
	_out(list) {
		return this._scalar ? list[0] : Array.from(list);
	}
	/** New target(s); position and velocity are kept (no speed cliff). */
	setTarget(target) {
		const list = channelsOf(target, 'setTarget', this.channels);
		f32(scratch, this.channels).set(list);
		check(wasm.spring_motion_set_target(this._live('setTarget'), scratch, this.channels), 'setTarget');
		return this;
	}
	/** Teleports to `value` with `velocity` (default 0), keeping the target. */
	jump(value, velocity) {
		const list = channelsOf(value, 'jump', this.channels);
		f32(scratch, this.channels).set(list);
		let v = 0;
		if (velocity !== undefined) {
			f32(scratch + 16, this.channels).set(channelsOf(velocity, 'jump velocity', this.channels));
			v = scratch + 16;
		}
		check(wasm.spring_motion_set_value(this._live('jump'), scratch, v, this.channels), 'jump');
		return this;
	}
	/** New spring (a SpringParams or a spec for springParams; nothing: the default); state kept. */
	setParams(params) {
		check(wasm.js_motion_set_params(this._live('setParams'), writeParams(params, scratch)), 'setParams');
		return this;
	}
	/** Advances by dt seconds (>= 0, any size) and returns the state. */
	advance(dt) {
		check(wasm.spring_motion_advance(this._live('advance'), finite(dt, 'dt')), 'advance');
		return this.state;
	}
	/**
	 * The state at time `time` (seconds, e.g. requestAnimationFrame's timestamp / 1000): the first
	 * call only sets the clock; each later one advances by the time since the previous call.
	 */
	sample(time) {
		finite(time, 'time');
		if (this._time === undefined) {
			this._time = time;
		}
		const dt = time - this._time;
		if (dt < 0) {
			throw new SpringError(`sample: time went backwards (${time} < ${this._time})`, 'OUT_OF_RANGE');
		}
		this.advance(dt);
		this._time = time;
		return this.state;
	}
	/** {value, velocity, atRest}: numbers for a one-channel motion made from a number, else arrays. */
	get state() {
		const ptr = this._live('state');
		check(wasm.spring_motion_get(ptr, scratch, scratch + 16, this.channels), 'state');
		return {
			value: this._out(f32(scratch, this.channels)),
			velocity: this._out(f32(scratch + 16, this.channels)),
			atRest: wasm.spring_motion_at_rest(ptr) !== 0,
		};
	}
	get value() { return this.state.value; }
	get velocity() { return this.state.velocity; }
	get atRest() { return wasm.spring_motion_at_rest(this._live('atRest')) !== 0; }
	/** The resolved spring. */
	get params() {
		wasm.js_motion_params(this._live('params'), scratch);
		return paramsFromFloats(scratch);
	}
	/** Seconds from now after which the motion rests for good (0 at rest, Infinity if undamped). */
	timeToSettle() {
		return wasm.spring_motion_time_to_settle(this._live('timeToSettle'));
	}
}

// ---------------------------------------------------------------------------------------------
// CSS linear() (the generator of the CLI's `spring css`)

const CSS_ERRORS = { '-1': 'out of memory', '-2': 'cannot sample this spring',
	'-3': 'maxDuration / resolution would need more than 100000 stops' };

/**
 * The CSS `linear()` easing of the spring's 0 -> 1 progress from rest and its duration, exactly as
 * `spring css` prints them. resolution: ms between stops (default: 10, refined automatically as the
 * CLI does); maxDuration: seconds (default 10).
 */
export function cssLinear(params, { maxDuration = 10, resolution = 0 } = {}) {
	writeParams(params, scratch);
	const result = scratch + 16;
	const c = wasm.js_css_linear(scratch, finite(maxDuration, 'maxDuration'), finite(resolution, 'resolution'), result);
	if (!c) {
		const r = i32(result, 1)[0];
		throw new SpringError(`cssLinear: ${CSS_ERRORS[r] ?? `error ${r}`}`, r === -1 ? 'OUT_OF_MEMORY' : 'OUT_OF_RANGE');
	}
	try {
		const info = scratch + 24;
		const easing = cString(wasm.js_css_linear_info(c, info));
		const [stops, truncated, resolutionMs, durationMs, deviation] = f64(info, 5);
		// "%.9g" of the duration, as the CLI prints it
		const duration = `${Number(durationMs.toPrecision(9))}ms`;
		return { easing, duration, durationMs, resolution: resolutionMs, stops, truncated: truncated !== 0, deviation,
			css: `transition-timing-function: ${easing};\ntransition-duration: ${duration};` };
	} finally {
		wasm.js_css_free(c);
	}
}
