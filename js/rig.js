// SPDX-License-Identifier: MIT
// Rigs from rig files (the JSON format of the library's docs/rig-format.md), read by the library's
// own rig-file reader compiled to WebAssembly. A module of its own (libspring-rig-wasm.js), loaded
// by index.js's loadRig() on first use or imported directly as 'libspring/rig'.
import rigBase64 from './libspring-rig-wasm.js';
import { LONG_STEP_SECONDS, Owned, SpringError, bool, describe, finite, instantiate, integer, record, resultName,
	root2Into, shortest32, warnLongStep, withBuffer } from './runtime.js';

const rt = await instantiate(rigBase64);
const wasm = rt.w;
const { f32, i32, u32, cString, alloc, scratch, args, heapF32 } = rt;
const IK_TARGET_KEYS = ['x', 'y'];
const check = rt.check;

const CHAIN_TYPES = ['angle', 'tip'];
const IK_TYPES = ['two-bone', 'ccd'];

// A clip, IK constraint or chain given by name or index: the index (-1 when the name is unknown).
function indexOf(rig, value, find, what) {
	if (typeof value === 'number') {
		return integer(value, what);
	}
	if (typeof value !== 'string') {
		throw new TypeError(`${what} must be a name or an index (got ${describe(value)})`);
	}
	const [name] = rt.string(value);
	try {
		const index = find(rig, name);
		if (index < 0) {
			throw new SpringError(`${what}: no ${what} named "${value}"`, 'INVALID_ARGUMENT');
		}
		return index;
	} finally {
		wasm.free(name);
	}
}

/** A 2D skeletal rig: clips, IK, then spring chains, stepped on a fixed clock (spring_rig). */
export class Rig extends Owned {
	/**
	 * Reads a rig file: its text, or the parsed object. Throws a SpringError whose message names the
	 * JSON path and the reason, as the library's reader words it ("rig: $.bones[3].parent: ...").
	 */
	static fromJSON(json, name = 'rig') {
		const text = typeof json === 'string' ? json : JSON.stringify(record(json, 'rig file (its text or parsed object)'));
		if (typeof name !== 'string') {
			throw new TypeError(`rig file name must be a string (got ${describe(name)})`);
		}
		const [textPtr, length] = rt.string(text);
		const [namePtr] = rt.string(name);
		const info = alloc(wasm.js_rig_file_info_size());
		const error = alloc(wasm.js_rig_file_error_size());
		const out = scratch;
		try {
			u32(out, 1)[0] = 0;
			const r = wasm.js_rig_load(textPtr, length, namePtr, out, info, error);
			if (r !== 0) {
				throw new SpringError(cString(wasm.js_rig_file_error_message(error)), resultName(r));
			}
			return new Rig(u32(out, 1)[0], info);
		} finally {
			[textPtr, namePtr, info, error].forEach((p) => wasm.free(p));
		}
	}

	constructor(rig, info) {
		const n = wasm.spring_rig_bone_count(rig);
		const [pose, free] = withBuffer(rt, rig, wasm.spring_rig_destroy, 4 * 5 * Math.max(1, n));
		super(rig, free);
		this._pose = pose;
		/** Bones, parents first: {name, parent (index, -1 for a root bone), length}. */
		this.bones = Array.from({ length: n }, (_, b) => ({ name: cString(wasm.spring_rig_bone_name(rig, b)),
			parent: wasm.spring_rig_bone_parent(rig, b), length: shortest32(wasm.spring_rig_bone_length(rig, b)) }));
		/** Clips: {name, duration (seconds)}. */
		this.clips = Array.from({ length: wasm.spring_rig_clip_count(rig) }, (_, c) => ({
			name: cString(wasm.spring_rig_clip_name(rig, c)), duration: shortest32(wasm.spring_rig_clip_duration(rig, c)) }));
		wasm.js_rig_file_info(info, scratch);
		const [step, maxSteps, x, y, angle, , ikCount, chainCount] = f32(scratch, 8);
		/** The physics step (seconds) and the cap on steps per update. */
		this.step = shortest32(step);
		this.maxSteps = maxSteps;
		/** The file's initial root placement {x, y, angle}. */
		this.root = { x: shortest32(x), y: shortest32(y), angle: shortest32(angle) };
		/** IK constraints: {name, type ('two-bone' or 'ccd'), firstBone, lastBone, targetBone (-1: set by the program)}. */
		this.iks = Array.from({ length: ikCount }, (_, k) => {
			const ikName = cString(wasm.js_rig_file_ik(info, k, scratch));
			const [type, firstBone, lastBone, targetBone] = i32(scratch, 4);
			return { name: ikName, type: IK_TYPES[type], firstBone, lastBone, targetBone };
		});
		/** Spring chains: {name, type ('angle' or 'tip'), firstBone, lastBone, boneCount, colliderCount}. */
		this.chains = Array.from({ length: chainCount }, (_, k) => {
			const chainName = cString(wasm.js_rig_file_chain(info, k, scratch));
			const [type, firstBone, lastBone, boneCount, colliderCount] = i32(scratch, 5);
			return { name: chainName, type: CHAIN_TYPES[type], firstBone, lastBone, boneCount, colliderCount };
		});
	}
	/** Advances by frameDt seconds (clips, IK and chains at the rig's fixed step). */
	update(frameDt) {
		const r = this._live('update');
		if (typeof frameDt !== 'number') {
			finite(frameDt, 'frameDt'); // throws
		}
		if (frameDt > LONG_STEP_SECONDS && !wasm.spring_rig_is_resting(r)) {
			warnLongStep(this, frameDt, 'Rig.update');
		}
		heapF32()[args >> 2] = frameDt;
		check(wasm.js_rig_update(r, args), 'update');
		return this;
	}
	/** Where the whole skeleton is this frame: {x, y, angle}; the chains feel the move. */
	setRoot(root) {
		root2Into(root, heapF32(), args >> 2);
		check(wasm.js_rig_set_root(this._live('setRoot'), args), 'setRoot');
		return this;
	}
	/** Moves the skeleton to `root` without the chains seeing motion. */
	teleport(root) {
		root2Into(root, heapF32(), args >> 2);
		check(wasm.js_rig_teleport(this._live('teleport'), args), 'teleport');
		return this;
	}
	/**
	 * Acts on the clip events of the last update that the library defines: a "teleport" event moves
	 * the rig's root by its x, y and teleports the rig there (the chains keep their motion). Once per
	 * update (a second call does nothing); all or nothing: a teleport that would carry a chain past
	 * its coordinate range throws a SpringError (code OUT_OF_RANGE) naming the clip, the event and the
	 * limit, and changes nothing.
	 */
	applyEvents() {
		const r = wasm.js_rig_apply_events(this._live('applyEvents'));
		if (r !== 0) {
			throw new SpringError(`applyEvents: ${cString(wasm.js_rig_events_error())}`, resultName(r));
		}
		return this;
	}
	/** Puts every chain at rest on the current pose. */
	reset() {
		check(wasm.spring_rig_reset(this._live('reset')), 'reset');
		return this;
	}
	/** Plays a clip (name or index; -1 or null: the setup pose) from `time` seconds. */
	play(clip, time = 0) {
		const r = this._live('play');
		const index = clip === null ? -1 : indexOf(r, clip, wasm.spring_rig_find_clip, 'clip');
		check(wasm.spring_rig_play(r, index, finite(time, 'time')), 'play');
		return this;
	}
	/** Sets the target [x, y] of an IK constraint (name or index) whose target the program gives. */
	setIkTarget(ik, target) {
		const r = this._live('setIkTarget');
		let x;
		let y;
		if (Array.isArray(target)) {
			x = target[0];
			y = target[1];
		} else {
			x = record(target, 'target ([x, y] or {x, y})', false, IK_TARGET_KEYS).x;
			y = target.y;
		}
		if (typeof x !== 'number' || typeof y !== 'number') {
			finite(x, 'target.x'); // one of them throws
			finite(y, 'target.y');
		}
		const index = indexOf(r, ik, wasm.spring_rig_find_ik, 'ik');
		const F = heapF32();
		F[args >> 2] = x;
		F[(args >> 2) + 1] = y;
		check(wasm.js_rig_set_ik_target(r, index, args), 'setIkTarget');
		return this;
	}
	clearIkTarget(ik) {
		const r = this._live('clearIkTarget');
		check(wasm.spring_rig_clear_ik_target(r, indexOf(r, ik, wasm.spring_rig_find_ik, 'ik')), 'clearIkTarget');
		return this;
	}
	/** Blend of an IK constraint, [0, 1]. */
	setIkMix(ik, mix) {
		const r = this._live('setIkMix');
		check(wasm.spring_rig_set_ik_mix(r, indexOf(r, ik, wasm.spring_rig_find_ik, 'ik'), finite(mix, 'mix')), 'setIkMix');
		return this;
	}
	/** Blend of a spring chain (name or index), [0, 1]. */
	setChainMix(chain, mix) {
		const r = this._live('setChainMix');
		check(wasm.spring_rig_set_chain_mix(r, this._chain(chain), finite(mix, 'mix')), 'setChainMix');
		return this;
	}
	setTimeScale(scale) {
		check(wasm.spring_rig_set_time_scale(this._live('setTimeScale'), finite(scale, 'scale')), 'setTimeScale');
		return this;
	}
	setPaused(paused) {
		check(wasm.spring_rig_set_paused(this._live('setPaused'), bool(paused, 'paused') ? 1 : 0), 'setPaused');
		return this;
	}
	_chain(chain) {
		if (typeof chain === 'number') {
			return integer(chain, 'chain');
		}
		if (typeof chain !== 'string') {
			throw new TypeError(`chain must be a name or an index (got ${describe(chain)})`);
		}
		const index = this.chains.findIndex((c) => c.name === chain);
		if (index < 0) {
			throw new SpringError(`chain: no chain named "${chain}"`, 'INVALID_ARGUMENT');
		}
		return index;
	}
	_transforms(get, what, out) {
		const n = this.bones.length;
		if (out !== undefined && !Array.isArray(out)) {
			throw new TypeError(`${what}: out must be a pose returned before (got ${describe(out)})`);
		}
		check(get(this._live(what), this._pose, n), what);
		const F = heapF32();
		const t = this._pose >> 2;
		let list = out;
		if (list === undefined || list.length !== n) {
			list = Array.from({ length: n }, () => ({ x: 0, y: 0, angle: 0, scaleX: 1, scaleY: 1 }));
		}
		for (let b = 0; b < n; b++) {
			let o = list[b];
			if (o === null || typeof o !== 'object') {
				o = list[b] = { x: 0, y: 0, angle: 0, scaleX: 1, scaleY: 1 };
			}
			o.x = F[t + 5 * b];
			o.y = F[t + 5 * b + 1];
			o.angle = F[t + 5 * b + 2];
			o.scaleX = F[t + 5 * b + 3];
			o.scaleY = F[t + 5 * b + 4];
		}
		return list;
	}
	/**
	 * World transform of every bone, interpolated for rendering: [{x, y, angle, scaleX, scaleY}];
	 * into `out` when given (a pose returned before, refilled: nothing allocated), else new.
	 */
	pose(out) {
		return this._transforms(wasm.spring_rig_get_world, 'pose', out);
	}
	/** Local transforms (relative to each parent), as pose(). */
	localPose(out) {
		return this._transforms(wasm.spring_rig_get_local, 'localPose', out);
	}
	/** True when every chain came to exact rest. */
	get isResting() {
		return wasm.spring_rig_is_resting(this._live('isResting')) !== 0;
	}
	chainIsResting(chain) {
		return wasm.spring_rig_chain_is_resting(this._live('chainIsResting'), this._chain(chain)) !== 0;
	}
	/** Clip time of the last step, seconds. */
	get time() {
		return wasm.spring_rig_time(this._live('time'));
	}
}
