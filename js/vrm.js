// SPDX-License-Identifier: MIT
// VRM avatars' spring bones (VRMC_springBone 1.0, VRM 0.x secondaryAnimation), read by the
// library's VRM reader and stepped by its spring skeleton (spring_skeleton), compiled to
// WebAssembly. A module of its own (libspring-vrm-wasm.js), loaded by index.js's loadVrm() on first
// use or imported directly as 'libspring/vrm'.
import vrmBase64 from './libspring-vrm-wasm.js';
import { LONG_STEP_SECONDS, Owned, SpringError, describe, finite, instantiate, integer, record, resultName, shortest32,
	text, warnLongStep } from './runtime.js';

const rt = await instantiate(vrmBase64);
const wasm = rt.w;
const { i32, f32, bytes, cString, alloc, scratch, args, heapF32 } = rt;

/** Floats per transform: translation x, y, z, then rotation x, y, z, w. */
export const TRANSFORM_FLOATS = 7;
const FORMATS = ['none', '1.0', '0.x'];
const LENGTHS = ['rest', 'measured'];
const OPTION_KEYS = ['name', 'rate', 'length'];
const FIELDS = ['translation x', 'translation y', 'translation z', 'rotation x', 'rotation y', 'rotation z', 'rotation w'];
const ARRAY_TRANSFORMS = 0;
const ARRAY_NODES = 1;
const ARRAY_ROTATIONS = 2;
const ARRAY_TAILS = 3;
const ARRAY_LENGTHS = 4;
const encoder = new TextEncoder();

// The bytes of a model: a .vrm / .glb / .gltf file's bytes, its JSON text, or the parsed glTF.
function sourceBytes(source) {
	if (source instanceof ArrayBuffer) {
		return new Uint8Array(source);
	}
	if (ArrayBuffer.isView(source)) {
		return new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
	}
	if (typeof source === 'string') {
		return encoder.encode(source);
	}
	return encoder.encode(JSON.stringify(record(source, 'VRM model (its bytes, JSON text or parsed glTF)')));
}

// A copy of `data` in wasm memory (free it).
function copyIn(data) {
	const ptr = alloc(Math.max(1, data.length));
	bytes(ptr, data.length).set(data);
	return ptr;
}

// Views of wasm memory made again only after memory grew; the time of a motion sample (a double).
let f64Buffer = null;
let f64View = null;
function heapF64() {
	const buffer = wasm.memory.buffer;
	if (buffer !== f64Buffer) {
		f64Buffer = buffer;
		f64View = new Float64Array(buffer);
	}
	return f64View;
}

// Where entry `i` of a transforms array is: the model root or a node, with the instance of a
// crowd's array (`perInstance` numbers each; 0 for one model's).
function placeOf(i, nodeNames, perInstance) {
	const j = perInstance ? i % perInstance : i;
	const k = Math.floor(j / TRANSFORM_FLOATS);
	const where = k === 0 ? 'the model root' : `node ${k - 1} "${nodeNames[k - 1]}"`;
	return perInstance ? `instance ${Math.floor(i / perInstance)}, ${where}` : where;
}

// Why the library refused a pose it was given: the first entry that is not a finite number or the
// first zero rotation, named (with its instance in a crowd's array); else the library's sentence.
function explainPose(transforms, nodeNames, what, result, perInstance) {
	for (let i = 0; i < transforms.length; i++) {
		const v = transforms[i];
		if (typeof v !== 'number' || !Number.isFinite(v)) {
			return new SpringError(`${what}: transforms[${i}] (${placeOf(i, nodeNames, perInstance)}, ${
				FIELDS[i % TRANSFORM_FLOATS]}) is ${typeof v === 'number' ? String(v) : describe(v)}: every number must be finite`,
			resultName(result));
		}
	}
	for (let k = 0; k * TRANSFORM_FLOATS < transforms.length; k++) {
		const b = k * TRANSFORM_FLOATS + 3;
		if (transforms[b] === 0 && transforms[b + 1] === 0 && transforms[b + 2] === 0 && transforms[b + 3] === 0) {
			return new SpringError(`${what}: transforms[${b}..${b + 3}] (${placeOf(b, nodeNames, perInstance)}'s rotation) is zero: `
				+ 'a rotation must be a nonzero quaternion', resultName(result));
		}
	}
	return new SpringError(`${what}: ${cString(wasm.spring_result_string(result))} (a translation beyond 1e6?)`,
		resultName(result));
}

// `transforms` refused unless it is an array of `length` numbers (`layout(length)` says what they
// are: made only for the message, so that the per-frame path allocates nothing).
function checkTransforms(transforms, length, what, layout, owner) {
	if (!Array.isArray(transforms) && !(ArrayBuffer.isView(transforms) && !(transforms instanceof DataView))) {
		throw new TypeError(`${what}: transforms must be a Float32Array (or an array) of numbers (got ${describe(transforms)})`);
	}
	if (transforms.length !== length) {
		throw new SpringError(`${what}: transforms has ${transforms.length} numbers; this ${layout(owner)}`, 'INVALID_ARGUMENT');
	}
}

const modelLayout = (m) => `model needs ${m.transformLength} ((1 + ${m.nodeCount} nodes) x ${TRANSFORM_FLOATS}: the model `
	+ 'root, then each node\'s local translation x, y, z and rotation x, y, z, w)';
const crowdLayout = (c) => `crowd needs ${c.transformLength} (${c.count} instances x (1 + ${c.nodeCount} nodes) x ${
	TRANSFORM_FLOATS}: each instance's model root, then its nodes' local translation x, y, z and rotation x, y, z, w)`;
const instanceLayout = (c) => `crowd's instance needs ${c.instanceLength} ((1 + ${c.nodeCount} nodes) x ${TRANSFORM_FLOATS
}, laid out as a model's)`;

// `count` numbers of `from` from `at` into wasm memory at float index `base` (a loop: no view made).
function copyFloats(F, base, from, at, count) {
	for (let i = 0; i < count; i++) {
		F[base + i] = from[at + i];
	}
}

// What a model and a crowd share: the bones' arrays read back after each call, update, reset and
// the stepped pose. A subclass gives _put (the pose into wasm memory), _explain and the calls
// (`this._calls`: update, reset, pose, whether any spring moves and the update's name for warnings).
class Springs extends Owned {
	// The bone arrays of wasm memory into `rotations` and `tails` (a loop: no view allocated).
	_read(rotations, tails) {
		const F = heapF32();
		const r = this._rotations >> 2;
		const t = this._tails >> 2;
		for (let i = 0; i < rotations.length; i++) {
			rotations[i] = F[r + i];
		}
		for (let i = 0; i < tails.length; i++) {
			tails[i] = F[t + i];
		}
	}

	// After the call: the pose read back, or the refusal explained. Nothing changed when the library
	// refused the call (it checks all its input first).
	_done(r, transforms, what) {
		if (r !== 0) {
			throw this._explain(transforms, what, r);
		}
		this._read(this.rotations, this.tails);
		return this;
	}

	/**
	 * One frame: `frameDt` seconds (finite, >= 0) later the animated pose is `transforms` (the model
	 * root, then every node's local transform; see restTransforms). Steps the springs at their rate
	 * and refills `rotations` and `tails` with the pose interpolated between the last two steps.
	 */
	update(transforms, frameDt) {
		const v = this._live('update');
		if (typeof frameDt !== 'number') {
			finite(frameDt, 'frameDt'); // throws
		}
		this._put(transforms, 'update');
		if (frameDt > LONG_STEP_SECONDS && this._calls.moving(v)) {
			warnLongStep(this, frameDt, this._calls.what);
		}
		heapF32()[args >> 2] = frameDt;
		const r = this._calls.update(v, args);
		if (r !== 0 && !(frameDt >= 0 && frameDt < Infinity)) {
			throw new SpringError(`update: frameDt must be a finite number of seconds >= 0 (got ${String(frameDt)})`, resultName(r));
		}
		return this._done(r, transforms, 'update');
	}

	/** Every bone at rest under `transforms` (the rest pose when left out), the clock cleared. */
	reset(transforms = this.restTransforms) {
		const v = this._live('reset');
		this._put(transforms, 'reset');
		return this._done(this._calls.reset(v), transforms, 'reset');
	}

	/**
	 * The pose at the last step itself (for a host whose frames are the steps): {rotations, tails}
	 * as the properties of those names; into `out` (an object returned before, refilled: nothing
	 * allocated) when given, else new.
	 */
	steppedPose(out = { rotations: new Float32Array(this.rotations.length), tails: new Float32Array(this.tails.length) }) {
		const v = this._live('steppedPose');
		const { rotations, tails } = record(out, 'steppedPose: out');
		if (!(rotations instanceof Float32Array) || rotations.length !== this.rotations.length
			|| !(tails instanceof Float32Array) || tails.length !== this.tails.length) {
			throw new SpringError(`steppedPose: out must be a pose returned before: {rotations, tails}, Float32Arrays of ${
				this.rotations.length} and ${this.tails.length} (4 and 3 x ${this.rotations.length / 4} bones)`, 'INVALID_ARGUMENT');
		}
		rt.check(this._calls.pose(v, 1), 'steppedPose');
		this._read(rotations, tails);
		rt.check(this._calls.pose(v, 0), 'steppedPose');
		return out;
	}
}

const VRM_CALLS = { what: 'Vrm.update', update: wasm.js_vrm_update, reset: wasm.js_vrm_reset, pose: wasm.js_vrm_pose,
	moving: (v) => !wasm.js_vrm_is_resting(v) };
const CROWD_CALLS = { what: 'VrmCrowd.update', update: wasm.js_vrm_crowd_update, reset: wasm.js_vrm_crowd_reset, pose: wasm.js_vrm_crowd_pose,
	moving: (c) => wasm.js_vrm_crowd_is_resting(c, -1) === 0 };

/**
 * A VRM avatar's spring bones: the springs of the model, stepped at their authoring rate by the
 * library's spring skeleton, driven by the animated local transform of every node.
 */
export class Vrm extends Springs {
	/**
	 * Reads a model: the bytes of a .vrm, .glb or .gltf file (ArrayBuffer or typed array), a glTF
	 * JSON text, or the parsed glTF object. Throws a SpringError whose message names the JSON path and
	 * the reason, as the library's reader words it ("avatar.vrm: $.extensions...: ...").
	 * options: name (what errors call the model), rate (Hz, the springs' stepping rate: the authoring
	 * rate, 60, when left out), length ('rest', the specification's constant bone length, or
	 * 'measured', re-measured each step as three-vrm does).
	 */
	static load(source, options = undefined) {
		const o = record(options, 'options', true, OPTION_KEYS);
		const name = o.name === undefined ? '<memory>' : text(o.name, 'options.name');
		const rate = o.rate === undefined ? 0 : finite(o.rate, 'options.rate');
		const length = o.length === undefined ? 0 : LENGTHS.indexOf(o.length);
		if (length < 0) {
			throw new SpringError(`options.length: ${JSON.stringify(o.length)} is not a bone-length rule (rest or measured)`,
				'INVALID_ARGUMENT');
		}
		const data = sourceBytes(source);
		const dataPtr = copyIn(data);
		const [namePtr] = rt.string(name);
		const error = alloc(wasm.js_vrm_error_size());
		try {
			heapF32()[args >> 2] = rate;
			i32(scratch, 1)[0] = 0;
			const r = wasm.js_vrm_load(dataPtr, data.length, namePtr, args, length, scratch, error);
			if (r !== 0) {
				throw new SpringError(cString(wasm.js_vrm_error_message(error)), resultName(r));
			}
			return new Vrm(i32(scratch, 1)[0]);
		} finally {
			[dataPtr, namePtr, error].forEach((p) => wasm.free(p));
		}
	}

	constructor(v) {
		super(v, wasm.js_vrm_destroy);
		this._calls = VRM_CALLS;
		wasm.js_vrm_info(v, scratch);
		const [nodeCount, boneCount, format, springCount, colliderCount] = i32(scratch, 5);
		/** Nodes of the glTF (its node indices). */
		this.nodeCount = nodeCount;
		/** Bones: every joint with a tail, springs in the file's order, each spring's joints root first. */
		this.boneCount = boneCount;
		/** The spring-bone extension read: '1.0' (VRMC_springBone) or '0.x' (VRM 0.x secondaryAnimation). */
		this.format = FORMATS[format];
		this.springCount = springCount;
		this.colliderCount = colliderCount;
		/** Each node's name: the glTF name when unique, else "#INDEX". */
		this.nodeNames = Array.from({ length: nodeCount }, (_, k) => cString(wasm.js_vrm_node_name(v, k)));
		/** The head node of each bone, in output order: rotations[4 b ..] is that node's local rotation. */
		this.boneNodes = Int32Array.from(i32(wasm.js_vrm_array(v, ARRAY_NODES), boneCount));
		/** Each bone's rest length (world units, the model root at identity). */
		this.restLengths = Float32Array.from(f32(wasm.js_vrm_array(v, ARRAY_LENGTHS), boneCount));
		/** The length of a transforms array: (1 + nodeCount) x 7. */
		this.transformLength = (1 + nodeCount) * TRANSFORM_FLOATS;
		wasm.js_vrm_rest(v);
		/**
		 * The rest pose in the layout update() takes: the model root (identity), then each node's rest
		 * local translation x, y, z and rotation x, y, z, w.
		 */
		this.restTransforms = Float32Array.from(f32(wasm.js_vrm_array(v, ARRAY_TRANSFORMS), this.transformLength));
		/** Each bone's head-node local rotation (x, y, z, w), refilled by update, reset, teleport and restore. */
		this.rotations = new Float32Array(4 * boneCount);
		/** Each bone's tail in world space (x, y, z), refilled with the rotations. */
		this.tails = new Float32Array(3 * boneCount);
		this._transforms = wasm.js_vrm_array(v, ARRAY_TRANSFORMS);
		this._rotations = wasm.js_vrm_array(v, ARRAY_ROTATIONS);
		this._tails = wasm.js_vrm_array(v, ARRAY_TAILS);
		this._read(this.rotations, this.tails);
	}

	// `transforms` checked and copied into wasm memory, for the call that follows (no closure: the
	// per-frame path allocates nothing).
	_put(transforms, what) {
		checkTransforms(transforms, this.transformLength, what, modelLayout, this);
		copyFloats(heapF32(), this._transforms >> 2, transforms, 0, transforms.length);
	}

	_explain(transforms, what, r) {
		return explainPose(transforms, this.nodeNames, what, r, 0);
	}

	/** The avatar jumped to `transforms`: the tails move rigidly with the model root, keeping their motion. */
	teleport(transforms) {
		const v = this._live('teleport');
		this._put(transforms, 'teleport');
		return this._done(wasm.js_vrm_teleport(v), transforms, 'teleport');
	}

	/** True when the last step moved no tail by more than 1e-6 of its bone's length. */
	get isResting() {
		return wasm.js_vrm_is_resting(this._live('isResting')) !== 0;
	}

	/** The whole state (clock, poses, tails, velocities) as bytes; restore() gives the run back bit for bit. */
	snapshot() {
		const v = this._live('snapshot');
		const size = wasm.js_vrm_snapshot_size(v);
		const blob = alloc(size);
		try {
			rt.check(wasm.js_vrm_snapshot(v, blob, size), 'snapshot');
			return bytes(blob, size).slice();
		} finally {
			wasm.free(blob);
		}
	}

	/** Puts back a snapshot of this model; a blob of another model or a damaged one is refused, nothing changed. */
	restore(snapshot) {
		const v = this._live('restore');
		if (!(snapshot instanceof Uint8Array)) {
			throw new TypeError(`restore: snapshot must be a Uint8Array (got ${describe(snapshot)})`);
		}
		const blob = copyIn(snapshot);
		try {
			const r = wasm.js_vrm_restore(v, blob, snapshot.length);
			if (r !== 0) {
				throw new SpringError(`restore: ${cString(wasm.js_vrm_restore_error())}`, resultName(r));
			}
		} finally {
			wasm.free(blob);
		}
		this._read(this.rotations, this.tails);
		return this;
	}

	/**
	 * `count` instances of this model (1 to 65,536) stepped side by side, each bit for bit what a
	 * model of its own would be (the same rate and length rule): a VrmCrowd, every instance at rest
	 * in the rest pose. The crowd is an object of its own (dispose it; this model may be disposed
	 * first).
	 */
	crowd(count) {
		const v = this._live('crowd');
		integer(count, 'crowd: count');
		i32(scratch, 1)[0] = 0;
		const r = wasm.js_vrm_crowd_create(v, count, scratch);
		if (r !== 0) {
			throw new SpringError(`crowd: ${cString(wasm.js_vrm_crowd_error())}`, resultName(r));
		}
		return new VrmCrowd(i32(scratch, 1)[0], this, count);
	}

	/**
	 * A drive motion for this model (the JSON of the library's VRM motions: {"duration", "tracks":
	 * [{"node", "translation", "rotation"}]}, its text or parsed object; docs/vrm.md).
	 */
	loadMotion(json, name = '<memory>') {
		const v = this._live('loadMotion');
		const source = typeof json === 'string' ? json : JSON.stringify(record(json, 'motion (its text or parsed object)'));
		const [textPtr, length] = rt.string(source);
		const [namePtr] = rt.string(text(name, 'motion name'));
		const error = alloc(wasm.js_vrm_error_size());
		try {
			i32(scratch, 1)[0] = 0;
			const r = wasm.js_vrm_motion_load(textPtr, length, namePtr, v, scratch, error);
			if (r !== 0) {
				throw new SpringError(cString(wasm.js_vrm_error_message(error)), resultName(r));
			}
			return new VrmMotion(i32(scratch, 1)[0], this.nodeCount);
		} finally {
			[textPtr, namePtr, error].forEach((p) => wasm.free(p));
		}
	}
}

/**
 * Many instances of one VRM model (Vrm.crowd(count)), stepped side by side in the lanes of vector
 * instructions, each instance bit for bit what a Vrm of the same model given the same calls would
 * be; one clock (one frame time) for all. Every array holds the instances one after the other:
 * transforms count x (1 + nodeCount) x 7 in (instance k's model root, then its nodes' local
 * transforms, from k x instanceLength), rotations count x boneCount x 4 and tails count x boneCount
 * x 3 out.
 */
export class VrmCrowd extends Springs {
	constructor(c, model, count) {
		super(c, wasm.js_vrm_crowd_destroy);
		this._calls = CROWD_CALLS;
		/** Instances. */
		this.count = count;
		this.nodeCount = model.nodeCount;
		this.boneCount = model.boneCount;
		this.nodeNames = model.nodeNames.slice();
		this.boneNodes = model.boneNodes.slice();
		this.restLengths = model.restLengths.slice();
		/** Numbers of one instance in a transforms array: (1 + nodeCount) x 7. */
		this.instanceLength = model.transformLength;
		/** The length of a transforms array: count x (1 + nodeCount) x 7. */
		this.transformLength = count * model.transformLength;
		/** Every instance in the rest pose (the model's restTransforms, count times). */
		this.restTransforms = new Float32Array(this.transformLength);
		for (let k = 0; k < count; k++) {
			this.restTransforms.set(model.restTransforms, k * this.instanceLength);
		}
		/** Each instance's bones' head-node local rotations (x, y, z, w), instance after instance. */
		this.rotations = new Float32Array(4 * count * this.boneCount);
		/** Each instance's bones' tails in world space (x, y, z), instance after instance. */
		this.tails = new Float32Array(3 * count * this.boneCount);
		this._roots = wasm.js_vrm_crowd_array(c, 0);
		this._locals = wasm.js_vrm_crowd_array(c, 1);
		this._rotations = wasm.js_vrm_crowd_array(c, 2);
		this._tails = wasm.js_vrm_crowd_array(c, 3);
		rt.check(wasm.js_vrm_crowd_pose(c, 0), 'crowd');
		this._read(this.rotations, this.tails);
	}

	// Instance k's transforms (from `at` in `transforms`) into the crowd's roots and locals.
	_putInstance(F, k, transforms, at) {
		const locals = this.instanceLength - TRANSFORM_FLOATS;
		copyFloats(F, (this._roots >> 2) + k * TRANSFORM_FLOATS, transforms, at, TRANSFORM_FLOATS);
		copyFloats(F, (this._locals >> 2) + k * locals, transforms, at + TRANSFORM_FLOATS, locals);
	}

	_put(transforms, what) {
		checkTransforms(transforms, this.transformLength, what, crowdLayout, this);
		const F = heapF32();
		for (let k = 0; k < this.count; k++) {
			this._putInstance(F, k, transforms, k * this.instanceLength);
		}
	}

	_explain(transforms, what, r) {
		return explainPose(transforms, this.nodeNames, what, r, transforms.length === this.instanceLength ? 0 : this.instanceLength);
	}

	// An instance index checked.
	_instance(instance, what) {
		integer(instance, `${what}: instance`);
		if (instance < 0 || instance >= this.count) {
			throw new SpringError(`${what}: instance ${instance} is not one of the crowd's ${this.count} (0 to ${this.count - 1})`,
				'OUT_OF_RANGE');
		}
		return instance;
	}

	/**
	 * Instance `instance` jumped to `transforms` (one instance's: instanceLength numbers, laid out as
	 * a Vrm's): its tails move rigidly with its model root, keeping their motion; the others go on.
	 */
	teleport(instance, transforms) {
		const c = this._live('teleport');
		this._instance(instance, 'teleport');
		checkTransforms(transforms, this.instanceLength, 'teleport', instanceLayout, this);
		this._putInstance(heapF32(), instance, transforms, 0);
		return this._done(wasm.js_vrm_crowd_teleport(c, instance), transforms, 'teleport');
	}

	/** True when the last step moved none of instance `instance`'s tails by more than 1e-6 of its bone's length. */
	isResting(instance) {
		const c = this._live('isResting');
		return wasm.js_vrm_crowd_is_resting(c, this._instance(instance, 'isResting')) !== 0;
	}
}

/** A drive motion of a model: keyed node transforms over time (sample() gives update()'s input). */
export class VrmMotion extends Owned {
	constructor(motion, nodeCount) {
		const length = (1 + nodeCount) * TRANSFORM_FLOATS;
		let buffer;
		try {
			buffer = alloc(4 * length);
		} catch (e) {
			wasm.spring_vrm_motion_destroy(motion);
			throw e;
		}
		super(motion, (m) => {
			wasm.spring_vrm_motion_destroy(m);
			wasm.free(buffer);
		});
		this._buffer = buffer;
		this._nodeCount = nodeCount;
		/** Seconds. */
		this.duration = shortest32(wasm.spring_vrm_motion_duration(motion));
		/** The length of a transforms array, as the model's. */
		this.transformLength = length;
	}

	/** The pose at `time` seconds (clamped to the motion) into `out` (a Float32Array of transformLength) or a new one. */
	sample(time, out = new Float32Array(this.transformLength)) {
		const m = this._live('sample');
		if (typeof time !== 'number') {
			finite(time, 'time'); // throws
		}
		if (!(out instanceof Float32Array) || out.length !== this.transformLength) {
			throw new SpringError(`sample: out must be a Float32Array of ${this.transformLength} (got ${describe(out)})`,
				'INVALID_ARGUMENT');
		}
		heapF64()[args >> 3] = time;
		rt.check(wasm.js_vrm_motion_sample(m, this._buffer, this._nodeCount, args), 'sample');
		const F = heapF32();
		const base = this._buffer >> 2;
		for (let i = 0; i < out.length; i++) {
			out[i] = F[base + i];
		}
		return out;
	}
}
