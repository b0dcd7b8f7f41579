// SPDX-License-Identifier: MIT
// libspring for JavaScript: the C library compiled to WebAssembly (js/CMakeLists.txt), with
// a thin layer that turns JavaScript values into the library's arguments and its results and
// errors back. Every number comes from the library; nothing here re-implements its maths.
import wasmBase64 from './libspring-wasm.js';
import { LONG_STEP_SECONDS, Owned, SpringError, bool, closest, describe, finite, instantiate, integer, list as listOf,
	liveObjectCount, record, resultName, root2Into, shortest32, text, unknownKey, warnLongStep, withBuffer } from './runtime.js';
import { version } from './version.js';

export { LONG_STEP_SECONDS, SpringError, liveObjectCount, version };

const rt = await instantiate(wasmBase64);
const wasm = rt.w;
const { f32, f64, i32, u32, cString, alloc, scratch, args, heapF32 } = rt;
const check = rt.check;

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
		return shortest32(wasm.js_params_query(this._write(scratch), index));
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
		return { tension: shortest32(o[0]), friction: shortest32(o[1]) };
	}
	/**
	 * Exact settling time in seconds: the last time |x - target| equals `epsilon` (units) for a move
	 * of `distance` units starting at `velocity`; 0 when never outside, Infinity when undamped.
	 */
	settleTime(options) {
		const { distance = 1, velocity = 0, epsilon = 0.001 } = record(options, 'settleTime options', true, SETTLE_KEYS);
		return shortest32(wasm.js_settling_time(this._write(scratch), finite(distance, 'distance'), finite(velocity, 'velocity'),
			finite(epsilon, 'epsilon')));
	}
	/** SwiftUI's settlingDuration estimate (seconds), same arguments as settleTime. */
	settlingDuration(options) {
		const { distance = 1, velocity = 0, epsilon = 0.001 } = record(options, 'settlingDuration options', true, SETTLE_KEYS);
		return shortest32(wasm.js_settling_duration(this._write(scratch), finite(distance, 'distance'), finite(velocity, 'velocity'),
			finite(epsilon, 'epsilon')));
	}
	/**
	 * The closed form: value and velocity `time` seconds after starting at `from` with `velocity`,
	 * pulled toward `to`. Invalid input gives the start back (as spring_evaluate).
	 */
	evaluate(time, options) {
		const { from = 0, velocity = 0, to = 1 } = record(options, 'evaluate options', true, ['from', 'velocity', 'to']);
		const out = scratch + 16;
		wasm.js_evaluate(this._write(scratch), finite(from, 'from'), finite(velocity, 'velocity'), finite(to, 'to'),
			finite(time, 'time'), out);
		const o = f32(out, 2);
		return { value: o[0], velocity: o[1] };
	}
	/**
	 * The reduced-motion form (for Reduce Motion, prefers-reduced-motion), as the CLI's
	 * --reduced-motion: critically damped, settling in at most half the time (the library's
	 * spring_params_reduced_motion).
	 */
	reducedMotion() {
		const out = scratch + 16;
		check(wasm.js_params_reduced_motion(this._write(scratch), out), 'reducedMotion');
		return paramsFromFloats(out);
	}
	toJSON() {
		return { stiffness: this.stiffness, damping: this.damping, mass: this.mass };
	}
}

const SETTLE_KEYS = ['distance', 'velocity', 'epsilon'];

// The library's floats as people read them (shortest32: the same floats when written back).
function paramsFromFloats(ptr) {
	const p = f32(ptr, 3);
	return new SpringParams(shortest32(p[0]), shortest32(p[1]), shortest32(p[2]));
}

/** The names of the library's presets (spring_preset_name), in its order. */
export const presetNames = Object.freeze(Array.from((function* names() {
	for (let i = 0, name; (name = wasm.spring_preset_name(i)) !== 0; i++) {
		yield cString(name);
	}
})()));

// {preset: NAME} (a whole spring: no other key), through spring_params_from_preset; an unknown
// name is refused as the CLI's --preset refuses it, with the closest name when one is close.
function fromPreset(spec) {
	const { preset, ...others } = spec;
	text(preset, 'springParams: preset');
	const other = Object.keys(others).find((key) => others[key] !== undefined);
	if (other !== undefined) {
		throw new SpringError(`springParams: preset is a whole spring: give it without other spring keys (got ${other})`,
			'BAD_DEFINITION');
	}
	const [name] = rt.string(preset);
	try {
		if (wasm.js_params_from_preset(name, scratch) !== 0) {
			const near = closest(preset, presetNames);
			const hint = near !== null ? ` (did you mean '${near}'?)` : '';
			throw new SpringError(`springParams: preset: no preset is called '${preset}'${hint} (the presets: ${presetNames.join(', ')})`,
				'BAD_DEFINITION');
		}
		return paramsFromFloats(scratch);
	} finally {
		wasm.free(name);
	}
}

const MESSAGE_BYTES = 512;

// Motion's defaults (motion.dev 14): the spring of a bare {type: 'spring'}, and the duration
// (seconds) and bounce of a time-defined spring that gives only one of them.
const MOTION_PHYSICS = { stiffness: 100, damping: 10, mass: 1 };
const MOTION_DURATION = 0.8;
const MOTION_BOUNCE = 0.3;
// Keys of a Motion transition that belong to the motion, not to its spring (SpringMotion takes
// velocity, restDelta and restSpeed as options); springParams passes over them.
const MOTION_STATE_KEYS = ['type', 'velocity', 'restDelta', 'restSpeed'];

/**
 * Other libraries' spring objects, pasted as they are, as the library's own forms:
 * - Motion (motion.dev, framer-motion) transitions {type: 'spring', ...}: physics keys
 *   {stiffness, damping, mass} (Motion's defaults 100, 10, 1 fill the rest) win over time keys,
 *   as in Motion; {visualDuration, bounce}; {duration, bounce}, Motion's duration in seconds (done
 *   within 0.1 % then: the motionDuration form); a bare {type: 'spring'} is Motion's default;
 * - react-spring configs: {mass, tension, friction} (tension = stiffness, friction = damping) and
 *   {frequency, damping} (frequency: the undamped period in seconds, SwiftUI's response);
 * - SwiftUI's interpolatingSpring(mass:stiffness:damping:) and Compose's spring(dampingRatio,
 *   stiffness) are the library's {stiffness, damping, mass} and {stiffness, dampingRatio} already.
 * Anything else is returned as it is.
 */
function fromOtherLibraries(spec) {
	const has = (key) => spec[key] !== undefined;
	if (has('type') && spec.type !== 'spring') {
		throw new SpringError(`springParams: type ${JSON.stringify(spec.type)} is not a spring (Motion's springs are {type: 'spring', ...})`,
			'BAD_DEFINITION');
	}
	if (spec.type === 'spring') {
		const rest = { ...spec };
		for (const key of [...MOTION_STATE_KEYS, 'stiffness', 'damping', 'mass', 'duration', 'visualDuration', 'bounce']) {
			delete rest[key];
		}
		if (has('stiffness') || has('damping') || has('mass')) {
			const { stiffness = MOTION_PHYSICS.stiffness, damping = MOTION_PHYSICS.damping, mass = MOTION_PHYSICS.mass } = spec;
			return { ...rest, stiffness, damping, mass };
		}
		if (has('visualDuration')) {
			return { ...rest, visualDuration: spec.visualDuration, bounce: spec.bounce ?? MOTION_BOUNCE };
		}
		if (has('duration') || has('bounce')) {
			return { ...rest, motionDuration: spec.duration ?? MOTION_DURATION, bounce: spec.bounce ?? MOTION_BOUNCE };
		}
		return { ...rest, ...MOTION_PHYSICS };
	}
	if (has('tension') && has('mass')) {
		const { tension, friction, mass, ...rest } = spec;
		return { ...rest, stiffness: tension, damping: friction, mass };
	}
	if (has('frequency') && has('damping') && !has('dampingRatio') && !has('stiffness')) {
		const { frequency, damping, ...rest } = spec;
		return { ...rest, response: frequency, dampingFraction: damping };
	}
	return spec;
}

/**
 * A spring from any parameterisation the library has, named as in rig files (camelCase):
 * {duration, bounce}, {stiffness, damping, mass}, {frequency, dampingRatio}, {response,
 * dampingFraction}, {settling, dampingRatio, epsilon}, {visualDuration, bounce}, {halfLife},
 * {tension, friction}, {origamiTension, origamiFriction}, {perFrameStiffness, perFrameDamping, fps},
 * {stiffness, dampingRatio, mass}, {motionDuration, bounce}, {bounce} (duration 0.5 s); a preset
 * {preset: 'bouncy'} (presetNames); and other libraries' objects as they are (fromOtherLibraries).
 * `reducedMotion: true` beside any of them gives the spring's reduced-motion form.
 * Throws a SpringError with the library's reason when the spec is not a valid spring.
 */
export function springParams(spec) {
	if (spec instanceof SpringParams) {
		return spec;
	}
	if (spec === null || typeof spec !== 'object' || Array.isArray(spec) || ArrayBuffer.isView(spec)) {
		throw new TypeError(`springParams: expected an object such as {duration: 0.5, bounce: 0.3} (got ${describe(spec)})`);
	}
	const { reducedMotion, ...form } = spec;
	bool(reducedMotion, 'springParams: reducedMotion');
	const p = form.preset !== undefined ? fromPreset(form) : fromForm(form);
	return reducedMotion ? p.reducedMotion() : p;
}

// One parameterisation (or another library's object), read by the rig-file reader's spring parser.
function fromForm(spec) {
	const snake = {};
	for (const [key, value] of Object.entries(fromOtherLibraries(spec))) {
		if (value === undefined) {
			continue;
		}
		finite(value, `springParams: ${key}`);
		if (!Number.isFinite(value)) {
			throw new SpringError(`springParams: ${key} must be a finite number (got ${String(value)})`, 'NOT_FINITE');
		}
		snake[toSnake(key)] = value;
	}
	const [text, length] = rt.string(JSON.stringify(snake));
	try {
		const out = scratch;
		const message = scratch + 16;
		const r = wasm.js_spring_from_json(text, length, out, message, MESSAGE_BYTES);
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
export function springProgress(params, options) {
	const { interval = 1 / 60, maxDuration = 10, initialVelocity = 0, restDelta = 0 } = record(options, 'springProgress options',
		true, ['interval', 'maxDuration', 'initialVelocity', 'restDelta']);
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
// SpringMotion (spring_motion)

const MAX_CHANNELS = 4;

function channelsOf(value, name, channels) {
	const list = typeof value === 'number' ? [value] : listOf(value, name);
	if (list.length < 1 || list.length > MAX_CHANNELS) {
		throw new SpringError(`${name}: 1 to ${MAX_CHANNELS} channels (got ${list.length})`, 'INVALID_ARGUMENT');
	}
	if (channels !== undefined && list.length !== channels) {
		throw new SpringError(`${name}: ${channels} channel(s) expected (got ${list.length})`, 'INVALID_ARGUMENT');
	}
	list.forEach((v, i) => finite(v, `${name}[${i}]`));
	return list;
}

// The same into F from `base` without allocating (a per-frame call's target): a number or an array
// of numbers is stored as it is read, anything else goes through channelsOf.
function channelsInto(value, name, channels, F, base) {
	if (typeof value === 'number' && channels === 1) {
		F[base] = value;
		return;
	}
	if (Array.isArray(value) && value.length === channels) {
		let c = 0;
		for (; c < channels; c++) {
			const v = value[c];
			if (typeof v !== 'number') {
				break;
			}
			F[base + c] = v;
		}
		if (c === channels) {
			return;
		}
	}
	channelsOf(value, name, channels).forEach((v, c) => { F[base + c] = v; });
}

const MOTION_KEYS = ['value', 'target', 'velocity', 'params', 'restDelta', 'restSpeed', 'clampOvershoot', 'onRest'];

// Fills `target` (an array of n numbers, reused when it is one) with n floats of F from `base`.
function fillChannels(target, F, base, n) {
	const list = Array.isArray(target) && target.length === n ? target : new Array(n).fill(0);
	for (let c = 0; c < n; c++) {
		list[c] = F[base + c];
	}
	return list;
}

/**
 * An interruptible value of 1 to 4 channels driven toward a target by one spring (spring_motion):
 * retargeting keeps position and velocity, and the value at any frame time is the closed form.
 */
export class SpringMotion extends Owned {
	constructor(options) {
		const { value = 0, target, velocity, params, restDelta, restSpeed, clampOvershoot = false, onRest } = record(options,
			'SpringMotion options', true, MOTION_KEYS);
		bool(clampOvershoot, 'clampOvershoot');
		if (onRest !== undefined && onRest !== null && typeof onRest !== 'function') {
			throw new TypeError(`onRest must be a function (got ${describe(onRest)})`);
		}
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
		/** Called with the motion each time it comes to rest after moving (in the call that got it there). */
		this.onRest = onRest ?? null;
		this._scalar = typeof value === 'number';
		this._time = 0; // sample()'s clock (a number from the start: its stores allocate nothing)
		this._clock = false;
		this._moving = !wasm.spring_motion_is_resting(ptr);
		this._finished = null; // {promise, resolve} while someone waits for the move to end
		this._own = { isResting: false, value: 0.5, velocity: 0.5 }; // what the value and velocity getters read into
	}
	// After any change: comes to rest -> resolve `finished`, call onRest.
	_settled() {
		const moving = !wasm.spring_motion_is_resting(this._ptr);
		const rested = this._moving && !moving;
		this._moving = moving;
		if (rested) {
			const waiting = this._finished;
			this._finished = null;
			waiting?.resolve(true);
			this.onRest?.(this);
		}
	}
	// The state into `out` (a state returned before, whose arrays are reused) or a new object.
	_read(out, what) {
		const ptr = this._live(what);
		check(wasm.spring_motion_get_value(ptr, scratch, scratch + 16, this.channels), what);
		const F = heapF32();
		const base = scratch >> 2;
		if (out !== undefined && (out === null || typeof out !== 'object')) {
			throw new TypeError(`${what}: out must be a state object (got ${describe(out)})`);
		}
		// (A one-channel state is made with its keys in another order: its own hidden class, whose
		// number fields V8 then updates in place, where one shared with the arrays' would box each
		// number it is given, 32 bytes a frame.)
		const s = out ?? (this._scalar ? { isResting: false, value: 0.5, velocity: 0.5 } : { value: [], velocity: [], isResting: false });
		if (this._scalar) {
			s.value = F[base];
			s.velocity = F[base + 4];
		} else {
			s.value = fillChannels(s.value, F, base, this.channels);
			s.velocity = fillChannels(s.velocity, F, base + 4, this.channels);
		}
		s.isResting = wasm.spring_motion_is_resting(ptr) !== 0;
		return s;
	}
	// Advances by the dt its caller stored in args (a number computed here never crosses a call).
	_step(out, what) {
		const ptr = this._live(what);
		if (heapF32()[args >> 2] > LONG_STEP_SECONDS && this._moving) {
			warnLongStep(this, shortest32(heapF32()[args >> 2]), `SpringMotion.${what}`);
		}
		check(wasm.js_motion_update(ptr, args), what);
		const state = this._read(out, what);
		this._settled();
		return state;
	}
	/** New target(s); position and velocity are kept (no speed cliff). */
	setTarget(target) {
		channelsInto(target, 'setTarget', this.channels, heapF32(), args >> 2);
		check(wasm.spring_motion_set_target(this._live('setTarget'), args, this.channels), 'setTarget');
		this._settled();
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
		this._settled();
		return this;
	}
	/** New spring (a SpringParams or a spec for springParams; nothing: the default); state kept. */
	setParams(params) {
		check(wasm.js_motion_set_params(this._live('setParams'), writeParams(params, scratch)), 'setParams');
		this._settled();
		return this;
	}
	/**
	 * Advances by dt seconds (>= 0, any size) and returns the state: into `out` when given (a
	 * state returned before: its arrays are refilled, nothing is allocated), else a new object.
	 */
	update(dt, out) {
		if (typeof dt !== 'number') {
			finite(dt, 'dt'); // throws
		}
		heapF32()[args >> 2] = dt;
		return this._step(out, 'update');
	}
	/**
	 * The state at time `time` (seconds, e.g. requestAnimationFrame's timestamp / 1000): the first
	 * call only sets the clock; each later one advances by the time since the previous call.
	 * `out` as for update.
	 */
	sample(time, out) {
		if (typeof time !== 'number') {
			finite(time, 'time'); // throws
		}
		// The first call steps by 0 (NaN for a time that is not finite, which the step refuses): the
		// clock keeps a time only once a step took it, so a refused time changes nothing.
		const dt = this._clock ? time - this._time : time - time;
		if (dt < 0) {
			throw new SpringError(`sample: time went backwards (${time} < ${this._time})`, 'OUT_OF_RANGE');
		}
		heapF32()[args >> 2] = dt;
		const state = this._step(out, 'sample');
		this._clock = true;
		this._time = time;
		return state;
	}
	/** {value, velocity, isResting}: numbers for a one-channel motion made from a number, else arrays (a new object). */
	get state() {
		return this._read(undefined, 'state');
	}
	get value() { return this._scalar ? this._read(this._own, 'value').value : this._read(undefined, 'value').value; }
	get velocity() { return this._scalar ? this._read(this._own, 'velocity').velocity : this._read(undefined, 'velocity').velocity; }
	get isResting() { return wasm.spring_motion_is_resting(this._live('isResting')) !== 0; }
	/**
	 * A promise that resolves when the motion comes to rest: with true then (at once when it rests
	 * now), with false when it is disposed first. A retarget before rest extends the same move: the
	 * promise resolves when the motion rests at its last target.
	 */
	get finished() {
		if (!this._ptr) {
			return Promise.resolve(false);
		}
		if (!this._moving) {
			return Promise.resolve(true);
		}
		if (!this._finished) {
			let resolve;
			const promise = new Promise((r) => { resolve = r; });
			this._finished = { promise, resolve };
		}
		return this._finished.promise;
	}
	/** The resolved spring. */
	get params() {
		wasm.js_motion_params(this._live('params'), scratch);
		return paramsFromFloats(scratch);
	}
	/** Seconds from now after which the motion rests for good (0 at rest, Infinity if undamped). */
	timeToSettle() {
		return shortest32(wasm.spring_motion_time_to_settle(this._live('timeToSettle')));
	}
	/** Frees the wasm memory; a pending `finished` resolves with false. */
	dispose() {
		const waiting = this._finished;
		this._finished = null;
		super.dispose();
		waiting?.resolve(false);
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
export function cssLinear(params, options) {
	const { maxDuration = 10, resolution = 0 } = record(options, 'cssLinear options', true, ['maxDuration', 'resolution']);
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

// ---------------------------------------------------------------------------------------------
// Chains: Chain2D (spring_chain2d, angle springs) and TipChain (spring_chain, tip springs)

const INTEGRATORS = { exact: 0, 'semi-implicit': 1 };
const PROJECTIONS = { 'remove-velocity': 0, 'keep-velocity': 1 };
const COLLIDERS = { sphere: 0, capsule: 1, plane: 2 };

function choice(table, value, fallback, name) {
	if (value === undefined) {
		return fallback;
	}
	text(value, name);
	if (!Object.hasOwn(table, value)) {
		throw new SpringError(`${name} must be one of ${Object.keys(table).map((k) => `'${k}'`).join(', ')} (got ${String(value)})`,
			'INVALID_ARGUMENT');
	}
	return table[value];
}

const VEC_KEYS = [null, null, ['x', 'y'], ['x', 'y', 'z'], ['x', 'y', 'z', 'w']];

// A vector given as [x, y(, z)] or {x, y(, z)} (a component left out of the object: 0), written
// into `F` from `base`; zeros when left out. Anything else (a number for a vector, null, a string,
// an unknown key) is refused. Allocates nothing (the per-frame calls use it).
function vecInto(value, n, name, F, base) {
	const keys = VEC_KEYS[n];
	if (value === undefined) {
		for (let i = 0; i < n; i++) {
			F[base + i] = 0;
		}
		return;
	}
	if (value === null || typeof value !== 'object') {
		throw new TypeError(`${name} must be [${keys.join(', ')}] or {${keys.join(', ')}} (got ${describe(value)})`);
	}
	const indexed = Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView));
	if (indexed && value.length !== n) {
		throw new SpringError(`${name} must have ${n} components (got ${value.length})`, 'INVALID_ARGUMENT');
	}
	if (!indexed) {
		record(value, name, false, keys);
	}
	for (let i = 0; i < n; i++) {
		const v = indexed ? value[i] : (value[keys[i]] ?? 0);
		if (typeof v !== 'number') {
			throw new TypeError(`${name}[${i}] must be a number (got ${describe(v)})`);
		}
		F[base + i] = v;
	}
}

// The same as a new array (for descriptions).
function vec(value, n, name) {
	const list = new Array(n).fill(0);
	vecInto(value, n, name, list, 0);
	return list;
}

const num = (value, name, fallback = 0) => (value === undefined ? fallback : finite(value, name));
const flag = (value, name) => (bool(value, name) ? 1 : 0);

const XFORM3_KEYS = ['position', 'rotation'];

// A 2D root: {x, y, angle} (radians; a field left out: 0). `optional`: the root may be left out.
function root2(root, name, optional = false) {
	const list = [0, 0, 0];
	if (root !== undefined || !optional) {
		root2Into(root, list, 0, name);
	}
	return list;
}

// A 3D transform: {position: [x, y, z], rotation: [x, y, z, w]} (rotation zero or left out:
// identity), written into F from `base` (7 floats). Allocates nothing.
function xform3Into(t, name, optional, F, base) {
	if (t === undefined && optional) {
		F.fill(0, base, base + 7);
		return;
	}
	if (t === null || typeof t !== 'object' || Array.isArray(t) || ArrayBuffer.isView(t)) {
		record(t, `${name} ({position, rotation})`); // throws
	}
	record(t, name, false, XFORM3_KEYS);
	vecInto(t.position, 3, name === 'root' ? 'root.position' : `${name}.position`, F, base);
	vecInto(t.rotation, 4, name === 'root' ? 'root.rotation' : `${name}.rotation`, F, base + 3);
}

function xform3(t, name, optional = false) {
	const list = new Array(7).fill(0);
	xform3Into(t, name, optional, list, 0);
	return list;
}

function paramsArray(params) {
	writeParams(params, scratch + 64);
	return Array.from(f32(scratch + 64, 3));
}

// Runs `fn` with temporary wasm copies of float and int arrays, freed afterwards.
function withArrays(arrays, fn) {
	const ptrs = [];
	try {
		for (const [type, values] of arrays) {
			const ptr = alloc(4 * Math.max(1, values.length));
			(type === 'f' ? f32 : i32)(ptr, values.length).set(values);
			ptrs.push(ptr);
		}
		return fn(...ptrs);
	} finally {
		ptrs.forEach((p) => wasm.free(p));
	}
}

// Creates a chain through `create(..., out, error)`; throws with the library's message.
function createChain(what, create) {
	const out = scratch + 128;
	const error = alloc(wasm.js_error_size());
	try {
		u32(out, 1)[0] = 0;
		const r = create(out, error);
		if (r !== 0) {
			const message = cString(wasm.js_error_message(error));
			throw new SpringError(`${what}: ${message || cString(wasm.spring_result_string(r))}`, resultName(r));
		}
		return u32(out, 1)[0];
	} finally {
		wasm.free(error);
	}
}

const CHAIN2D_KEYS = ['segments', 'params', 'tipParams', 'gravity', 'wind', 'step', 'maxSteps', 'integrator', 'root', 'inertia',
	'noInertia', 'maxRootSpeed', 'maxRootAngularSpeed', 'restDelta', 'restAngularSpeed'];
const SEGMENT_KEYS = ['length', 'restAngle', 'params', 'limit', 'inertia', 'noInertia'];
const TIPCHAIN_KEYS = ['bones', 'params', 'tipParams', 'gravity', 'wind', 'colliders', 'maxColliders', 'mode2d', 'projection', 'step',
	'maxSteps', 'integrator', 'root', 'maxRootSpeed', 'maxRootAngularSpeed', 'restDistance', 'restSpeed'];
const BONE_KEYS = ['position', 'rotation', 'tip', 'params', 'tipRadius', 'coneLimit'];
const COLLIDER_KEYS = ['type', 'a', 'b', 'radius'];


// True when `list` is an array of `count` objects (a pose's list returned before).
function objectsOf(list, count) {
	if (!Array.isArray(list) || list.length !== count) {
		return false;
	}
	for (let k = 0; k < count; k++) {
		if (list[k] === null || typeof list[k] !== 'object') {
			return false;
		}
	}
	return true;
}

// The joints of a 2D pose to fill: `list` when it has the shape, else new ones.
function joints2(list, count) {
	return objectsOf(list, count) ? list : Array.from({ length: count }, () => ({ x: 0, y: 0, angle: 0, scaleX: 1, scaleY: 1 }));
}
function poseOut(out, what) {
	if (out === undefined) {
		return {};
	}
	if (out === null || typeof out !== 'object' || Array.isArray(out)) {
		throw new TypeError(`${what}: out must be a pose returned before (got ${describe(out)})`);
	}
	return out;
}

/**
 * A 2D chain of angle springs (spring_chain2d): hair, tails, antennae dragged by a root. Lengths
 * preserved by construction; limits, inertia, gravity and wind; exact rest and sleep.
 */
export class Chain2D extends Owned {
	constructor(description) {
		const desc = record(description, 'Chain2D description', true, CHAIN2D_KEYS);
		const segments = listOf(desc.segments, 'segments', true);
		const sf = [];
		const si = [];
		segments.forEach((segment, i) => {
			const name = `segments[${i}]`;
			const s = record(segment, name, false, SEGMENT_KEYS);
			sf.push(num(s.length, `${name}.length`), num(s.restAngle, `${name}.restAngle`), ...paramsArray(s.params),
				num(s.limit, `${name}.limit`), num(s.inertia, `${name}.inertia`), 0);
			si.push(flag(s.noInertia, `${name}.noInertia`));
		});
		const f = [...paramsArray(desc.params), ...paramsArray(desc.tipParams), ...vec(desc.gravity, 2, 'gravity'),
			...vec(desc.wind, 2, 'wind'), num(desc.step, 'step'), ...root2(desc.root, 'root', true), num(desc.inertia, 'inertia'),
			num(desc.maxRootSpeed, 'maxRootSpeed'), num(desc.maxRootAngularSpeed, 'maxRootAngularSpeed'),
			num(desc.restDelta, 'restDelta'), num(desc.restAngularSpeed, 'restAngularSpeed')];
		const i = [integer(segments.length, 'segments.length'), integer(desc.maxSteps ?? 0, 'maxSteps'),
			choice(INTEGRATORS, desc.integrator, 0, 'integrator'), flag(desc.noInertia, 'noInertia')];
		const chain = withArrays([['f', f], ['i', i], ['f', sf], ['i', si]],
			(fp, ip, sfp, sip) => createChain('Chain2D', (out, error) => wasm.js_chain2d_create(fp, ip, sfp, sip, out, error)));
		const n = segments.length;
		// the pose buffer: n + 1 joints of 5 floats (x, y, angle, scale x, y), then n local angles
		const [pose, free] = withBuffer(rt, chain, wasm.spring_chain2d_destroy, 4 * (5 * (n + 1) + n));
		super(chain, free);
		this.segmentCount = n;
		this._pose = pose;
	}
	/** Advances by frameDt seconds with the root at {x, y, angle} this frame. */
	update(root, frameDt) {
		const F = heapF32();
		const a = args >> 2;
		root2Into(root, F, a);
		const c = this._live('update');
		if (typeof frameDt !== 'number') {
			finite(frameDt, 'frameDt'); // throws
		}
		if (frameDt > LONG_STEP_SECONDS && !wasm.spring_chain2d_is_resting(c)) {
			warnLongStep(this, frameDt, 'Chain2D.update');
		}
		F[a + 3] = frameDt;
		check(wasm.js_chain2d_update(c, args), 'update');
		return this;
	}
	/**
	 * {joints: [{x, y, angle, scaleX, scaleY}] (segmentCount + 1, the last is the tip), localAngles:
	 * number[]}: into `out` when given (a pose returned before, refilled: nothing allocated), else new.
	 */
	pose(out) {
		const n = this.segmentCount;
		const p = poseOut(out, 'pose');
		check(wasm.spring_chain2d_get_pose(this._live('pose'), this._pose, this._pose + 4 * 5 * (n + 1), n + 1), 'pose');
		const F = heapF32();
		const j = this._pose >> 2;
		p.joints = joints2(p.joints, n + 1);
		for (let k = 0; k <= n; k++) {
			const o = p.joints[k];
			o.x = F[j + 5 * k];
			o.y = F[j + 5 * k + 1];
			o.angle = F[j + 5 * k + 2];
			o.scaleX = F[j + 5 * k + 3];
			o.scaleY = F[j + 5 * k + 4];
		}
		p.localAngles = fillChannels(p.localAngles, F, j + 5 * (n + 1), n);
		return p;
	}
	/** Teleport keeping the motion: the chain moves rigidly with the root to `root`. */
	teleport(root) {
		const [x, y, a] = root2(root, 'root');
		check(wasm.js_chain2d_teleport(this._live('teleport'), x, y, a), 'teleport');
		return this;
	}
	/** Teleport by snapping: at rest under `root`. */
	reset(root) {
		const [x, y, a] = root2(root, 'root');
		check(wasm.js_chain2d_reset(this._live('reset'), x, y, a), 'reset');
		return this;
	}
	/** Rigid teleport by a translation [dx, dy]. */
	translate(delta) {
		const [dx, dy] = vec(delta, 2, 'delta');
		check(wasm.js_chain2d_translate(this._live('translate'), dx, dy), 'translate');
		return this;
	}
	/** Rigid teleport by a rotation of `angle` radians about `pivot` [x, y]. */
	rotate(angle, pivot) {
		const [px, py] = vec(pivot, 2, 'pivot');
		check(wasm.js_chain2d_rotate(this._live('rotate'), finite(angle, 'angle'), px, py), 'rotate');
		return this;
	}
	/** Animated local angle offsets (radians, one per segment) for the next update; null clears them. */
	setAnimation(offsets) {
		const c = this._live('setAnimation');
		if (offsets === null || offsets === undefined) {
			check(wasm.spring_chain2d_set_animation(c, 0, 0), 'setAnimation');
			return this;
		}
		const values = listOf(offsets, 'offsets').map((v, k) => finite(v, `offsets[${k}]`));
		check(withArrays([['f', values]], (p) => wasm.spring_chain2d_set_animation(c, p, values.length)), 'setAnimation');
		return this;
	}
	setParams(segment, params) {
		check(wasm.js_chain2d_set_params(this._live('setParams'), integer(segment, 'segment'), writeParams(params, scratch)),
			'setParams');
		return this;
	}
	setLimit(segment, limit) {
		check(wasm.spring_chain2d_set_limit(this._live('setLimit'), integer(segment, 'segment'), finite(limit, 'limit')),
			'setLimit');
		return this;
	}
	setForces(gravity, wind) {
		const [gx, gy] = vec(gravity, 2, 'gravity');
		const [wx, wy] = vec(wind, 2, 'wind');
		check(wasm.js_chain2d_set_forces(this._live('setForces'), gx, gy, wx, wy), 'setForces');
		return this;
	}
	/** The fraction of its pivot's acceleration `segment` (-1: every segment) feels, in [0, 100]. */
	setInertia(segment, inertia) {
		check(wasm.spring_chain2d_set_inertia(this._live('setInertia'), integer(segment, 'segment'), finite(inertia, 'inertia')),
			'setInertia');
		return this;
	}
	setRootLimits(maxRootSpeed, maxRootAngularSpeed) {
		check(wasm.spring_chain2d_set_root_limits(this._live('setRootLimits'), finite(maxRootSpeed, 'maxRootSpeed'),
			finite(maxRootAngularSpeed, 'maxRootAngularSpeed')), 'setRootLimits');
		return this;
	}
	/** True once the chain came to exact rest and sleeps. */
	get isResting() {
		return wasm.spring_chain2d_is_resting(this._live('isResting')) !== 0;
	}
}

/**
 * A chain of tip springs (spring_chain), 3D or 2D (mode2d): each bone's tip springs toward where
 * the bone would be if it followed its parent rigidly; colliders, cone limits, exact rest.
 */
export class TipChain extends Owned {
	constructor(description) {
		const desc = record(description, 'TipChain description', true, TIPCHAIN_KEYS);
		const bones = listOf(desc.bones, 'bones', true);
		const colliders = listOf(desc.colliders, 'colliders', true);
		const bf = [];
		bones.forEach((bone, k) => {
			const name = `bones[${k}]`;
			const b = record(bone, name, false, BONE_KEYS);
			bf.push(...vec(b.position, 3, `${name}.position`), ...vec(b.rotation, 4, `${name}.rotation`),
				...vec(b.tip, 3, `${name}.tip`), ...paramsArray(b.params), num(b.tipRadius, `${name}.tipRadius`),
				num(b.coneLimit, `${name}.coneLimit`));
		});
		const [cf, ci] = colliderArrays(colliders);
		const f = [...paramsArray(desc.params), ...paramsArray(desc.tipParams), ...vec(desc.gravity, 3, 'gravity'),
			...vec(desc.wind, 3, 'wind'), num(desc.step, 'step'), ...xform3(desc.root, 'root', true),
			num(desc.maxRootSpeed, 'maxRootSpeed'), num(desc.maxRootAngularSpeed, 'maxRootAngularSpeed'),
			num(desc.restDistance, 'restDistance'), num(desc.restSpeed, 'restSpeed')];
		const i = [integer(bones.length, 'bones.length'), integer(colliders.length, 'colliders.length'),
			integer(desc.maxColliders ?? 0, 'maxColliders'), flag(desc.mode2d, 'mode2d'),
			choice(PROJECTIONS, desc.projection, 0, 'projection'), integer(desc.maxSteps ?? 0, 'maxSteps'),
			choice(INTEGRATORS, desc.integrator, 0, 'integrator')];
		const chain = withArrays([['f', f], ['i', i], ['f', bf], ['f', cf], ['i', ci]], (fp, ip, bp, cfp, cip) =>
			createChain('TipChain', (out, error) => wasm.js_chain_create(fp, ip, bp, cfp, cip, out, error)));
		const n = bones.length;
		// the pose buffer: n transforms of 7 floats, then n tips of 3
		const [pose, free] = withBuffer(rt, chain, wasm.spring_chain_destroy, 4 * 10 * n);
		super(chain, free);
		this.boneCount = n;
		this._pose = pose;
	}
	_xform(t, name) {
		xform3Into(t, name, false, heapF32(), scratch >> 2);
		return scratch;
	}
	/** Advances by frameDt seconds with the root at {position, rotation} this frame. */
	update(root, frameDt) {
		const c = this._live('update');
		if (typeof frameDt !== 'number') {
			finite(frameDt, 'frameDt'); // throws
		}
		if (frameDt > LONG_STEP_SECONDS && !wasm.spring_chain_is_resting(c)) {
			warnLongStep(this, frameDt, 'TipChain.update');
		}
		const xform = this._xform(root, 'root');
		heapF32()[args >> 2] = frameDt;
		check(wasm.js_chain_update(c, xform, args), 'update');
		return this;
	}
	/**
	 * {bones: [{position, rotation}] (world), tips: [[x, y, z]]}, interpolated for rendering: into
	 * `out` when given (a pose returned before, refilled: nothing allocated), else new.
	 */
	pose(out) {
		const n = this.boneCount;
		const p = poseOut(out, 'pose');
		check(wasm.spring_chain_get_pose(this._live('pose'), this._pose, this._pose + 4 * 7 * n, n), 'pose');
		const F = heapF32();
		const b = this._pose >> 2;
		const t = b + 7 * n;
		if (!objectsOf(p.bones, n)) {
			p.bones = Array.from({ length: n }, () => ({}));
		}
		if (!Array.isArray(p.tips) || p.tips.length !== n) {
			p.tips = new Array(n).fill(null);
		}
		for (let k = 0; k < n; k++) {
			const bone = p.bones[k];
			bone.position = fillChannels(bone.position, F, b + 7 * k, 3);
			bone.rotation = fillChannels(bone.rotation, F, b + 7 * k + 3, 4);
			p.tips[k] = fillChannels(p.tips[k], F, t + 3 * k, 3);
		}
		return p;
	}
	/** Teleport keeping the motion: the chain moves rigidly with the root to `root`. */
	teleport(root) {
		const c = this._live('teleport');
		check(wasm.js_chain_teleport(c, this._xform(root, 'root')), 'teleport');
		return this;
	}
	/** Teleport by snapping: at rest under `root`. */
	reset(root) {
		const c = this._live('reset');
		check(wasm.js_chain_reset(c, this._xform(root, 'root')), 'reset');
		return this;
	}
	translate(delta) {
		const c = this._live('translate');
		f32(scratch, 3).set(vec(delta, 3, 'delta'));
		check(wasm.js_chain_translate(c, scratch), 'translate');
		return this;
	}
	/** Rigid teleport by `rotation` [x, y, z, w] about `pivot` [x, y, z]. */
	rotate(rotation, pivot) {
		const c = this._live('rotate');
		f32(scratch, 7).set([...vec(rotation, 4, 'rotation'), ...vec(pivot, 3, 'pivot')]);
		check(wasm.js_chain_rotate(c, scratch), 'rotate');
		return this;
	}
	/** Animated local transforms ({position, rotation} per bone) replacing the rest pose; null: back to rest. */
	setAnimation(locals) {
		const c = this._live('setAnimation');
		if (locals === null || locals === undefined) {
			check(wasm.spring_chain_set_animation(c, 0, 0), 'setAnimation');
			return this;
		}
		const values = listOf(locals, 'locals').flatMap((t, k) => xform3(t, `locals[${k}]`));
		check(withArrays([['f', values]], (p) => wasm.spring_chain_set_animation(c, p, values.length / 7)), 'setAnimation');
		return this;
	}
	setParams(bone, params) {
		check(wasm.js_chain_set_params(this._live('setParams'), integer(bone, 'bone'), writeParams(params, scratch)), 'setParams');
		return this;
	}
	setConeLimit(bone, coneLimit) {
		check(wasm.spring_chain_set_cone_limit(this._live('setConeLimit'), integer(bone, 'bone'), finite(coneLimit, 'coneLimit')),
			'setConeLimit');
		return this;
	}
	setForces(gravity, wind) {
		const c = this._live('setForces');
		f32(scratch, 6).set([...vec(gravity, 3, 'gravity'), ...vec(wind, 3, 'wind')]);
		check(wasm.js_chain_set_forces(c, scratch), 'setForces');
		return this;
	}
	setColliders(colliders) {
		const c = this._live('setColliders');
		const given = colliders === null ? [] : listOf(colliders, 'colliders', true); // null or nothing: none
		const [cf, ci] = colliderArrays(given);
		check(withArrays([['f', cf], ['i', ci]], (cfp, cip) => wasm.js_chain_set_colliders(c, cfp, cip, given.length)),
			'setColliders');
		return this;
	}
	setRootLimits(maxRootSpeed, maxRootAngularSpeed) {
		check(wasm.spring_chain_set_root_limits(this._live('setRootLimits'), finite(maxRootSpeed, 'maxRootSpeed'),
			finite(maxRootAngularSpeed, 'maxRootAngularSpeed')), 'setRootLimits');
		return this;
	}
	/** True when the last step ended at exact rest. */
	get isResting() {
		return wasm.spring_chain_is_resting(this._live('isResting')) !== 0;
	}
}

// Colliders as floats (a[3], b[3], radius) and types.
function colliderArrays(colliders) {
	const cf = [];
	const ci = [];
	colliders.forEach((collider, k) => {
		const name = `colliders[${k}]`;
		const c = record(collider, name, false, COLLIDER_KEYS);
		ci.push(choice(COLLIDERS, c.type, 0, `${name}.type`));
		cf.push(...vec(c.a, 3, `${name}.a`), ...vec(c.b, 3, `${name}.b`), num(c.radius, `${name}.radius`));
	});
	return [cf, ci];
}

// ---------------------------------------------------------------------------------------------
// Maths helpers for driving roots

/** The unit quaternion [x, y, z, w] of a rotation by `angle` radians about `axis` [x, y, z]. */
export function quatFromAxisAngle(axis, angle) {
	f32(scratch, 3).set(vec(axis, 3, 'axis'));
	wasm.js_quat_from_axis_angle(scratch, finite(angle, 'angle'), scratch + 16);
	return Array.from(f32(scratch + 16, 4));
}

/**
 * The library's own sine and cosine (double precision): bit-identical on every platform and
 * engine, unlike Math.sin, for root motion that must replay exactly (the C tests' scenes use them).
 */
export const detSin = (x) => wasm.spring_det_sin(finite(x, 'x'));
export const detCos = (x) => wasm.spring_det_cos(finite(x, 'x'));

/** Bytes of WebAssembly memory the core module holds (it grows, never shrinks): for leak checks. */
export const wasmMemoryBytes = () => wasm.memory.buffer.byteLength;

// ---------------------------------------------------------------------------------------------
// Rigs (their own module, loaded on first use: rig.js)

/** A rig from the text (or parsed object) of a rig file; resolves to a Rig (see rig.js). */
export async function loadRig(json, name) {
	const { Rig } = await import('./rig.js');
	return Rig.fromJSON(json, name);
}

// VRM avatars' spring bones (their own module, loaded on first use: vrm.js)

/**
 * A VRM avatar's spring bones from a .vrm, .glb or .gltf file (its bytes, JSON text or parsed
 * glTF); resolves to a Vrm (see vrm.js).
 */
export async function loadVrm(source, options) {
	const { Vrm } = await import('./vrm.js');
	return Vrm.load(source, options);
}
