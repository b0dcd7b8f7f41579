// SPDX-License-Identifier: MIT
// Type declarations of the libspring package (written by hand; checked with tsc --noEmit, and
// against the examples of the READMEs and a file of calls that must not compile: test/declarations.test.js).
// Units: seconds, units, units per second; angles in radians.
/// <reference lib="esnext.disposable" />

/** The package's version: the C library's project version. */
export declare const version: string;

/** The library's result codes, as SpringError.code. */
export type SpringErrorCode =
	| 'INVALID_ARGUMENT'
	| 'NOT_FINITE'
	| 'OUT_OF_RANGE'
	| 'UNSTABLE'
	| 'NO_SOLUTION'
	| 'OUT_OF_MEMORY'
	| 'BAD_DEFINITION'
	| 'BUFFER_TOO_SMALL';

/** An error of the library: the message is the library's, the code its result code. */
export declare class SpringError extends Error {
	readonly name: 'SpringError';
	readonly code: SpringErrorCode;
}

/** The library's presets (spring_preset_name): SwiftUI's and the Material 3 Expressive tokens. */
export type PresetName =
	| 'smooth'
	| 'snappy'
	| 'bouncy'
	| 'standard-fast-spatial'
	| 'standard-default-spatial'
	| 'standard-slow-spatial'
	| 'standard-fast-effects'
	| 'standard-default-effects'
	| 'standard-slow-effects'
	| 'expressive-fast-spatial'
	| 'expressive-default-spatial'
	| 'expressive-slow-spatial'
	| 'expressive-fast-effects'
	| 'expressive-default-effects'
	| 'expressive-slow-effects';

/** The preset names, in the library's order. */
export declare const presetNames: readonly PresetName[];

/** `reducedMotion: true` beside any spring gives its reduced-motion form (SpringParams.reducedMotion). */
export interface ReducedMotionOption {
	reducedMotion?: boolean;
}

/**
 * Every parameterisation the library converts from (the rig format's keys, in camelCase), one
 * form at a time: a key of another form is an error ({duration, frequency} mixes two); or a
 * preset, alone.
 */
export type SpringSpec = ReducedMotionOption & OneOf<
	| { stiffness: number; damping: number; mass?: number }
	| { stiffness: number; dampingRatio: number; mass?: number }
	| { frequency: number; dampingRatio: number }
	| { duration: number; bounce?: number }
	| { motionDuration: number; bounce?: number }
	| { response: number; dampingFraction: number }
	| { settling: number; dampingRatio: number; epsilon?: number }
	| { visualDuration: number; bounce?: number }
	| { halfLife: number }
	| { tension: number; friction: number }
	| { origamiTension: number; origamiFriction: number }
	| { perFrameStiffness: number; perFrameDamping: number; fps: number }
	| { preset: PresetName }
>;
type KeysOfUnion<T> = T extends unknown ? keyof T : never;
/** Each member of the union with every other member's keys forbidden. */
type OneOf<T, All extends PropertyKey = KeysOfUnion<T>> = T extends unknown
	? T & { [K in Exclude<All, keyof T>]?: never }
	: never;

/**
 * A Motion (motion.dev, framer-motion) spring transition as it is written there: physics keys win
 * over time keys; `duration` is Motion's (seconds, done within 0.1 % then); velocity, restDelta and
 * restSpeed belong to the motion and are passed over.
 */
export interface MotionSpringTransition extends ReducedMotionOption {
	type: 'spring';
	stiffness?: number;
	damping?: number;
	mass?: number;
	duration?: number;
	visualDuration?: number;
	bounce?: number;
	velocity?: number;
	restDelta?: number;
	restSpeed?: number;
}

/** A react-spring config: {mass, tension, friction}, or {frequency, damping} (frequency: the period, s). */
export type ReactSpringConfig = ReducedMotionOption &
	({ mass: number; tension: number; friction: number } | { frequency: number; damping: number });

/** A spring as objects take it: a SpringParams, a spec for springParams, or another library's object. */
export type SpringLike = SpringParams | SpringSpec | MotionSpringTransition | ReactSpringConfig;

/** A move for the settling queries: `distance` units (default 1), starting at `velocity` (default 0), settled within `epsilon` units (default 0.001). */
export interface SettleOptions {
	distance?: number;
	velocity?: number;
	epsilon?: number;
}

/** A valid spring, immutable: k (N/m), c (N*s/m), m (kg), with the library's queries. */
export declare class SpringParams {
	readonly stiffness: number;
	readonly damping: number;
	readonly mass: number;
	/** zeta = c / (2 sqrt(k m)) */
	readonly dampingRatio: number;
	/** omega_n, rad/s */
	readonly naturalFrequency: number;
	/** hertz */
	readonly frequency: number;
	/** 2 pi / omega_n, seconds (SwiftUI duration, response) */
	readonly duration: number;
	/** SwiftUI bounce */
	readonly bounce: number;
	/** Motion's visualDuration, seconds */
	readonly visualDuration: number;
	/** fraction of the move overshot from rest (0 when zeta >= 1) */
	readonly overshoot: number;
	/** seconds for the gap to halve from rest */
	readonly halfLife: number;
	/** Origami (Rebound) slider values */
	readonly origami: { tension: number; friction: number };
	/** Exact settling time, seconds (Infinity when undamped). */
	settleTime(move?: SettleOptions): number;
	/** SwiftUI's settlingDuration estimate, seconds. */
	settlingDuration(move?: SettleOptions): number;
	/** The closed form `time` seconds after starting at `from` (0) with `velocity` (0), pulled toward `to` (1). */
	evaluate(time: number, start?: { from?: number; velocity?: number; to?: number }): { value: number; velocity: number };
	/** The reduced-motion form (the CLI's --reduced-motion): critically damped, settling in at most half the time. */
	reducedMotion(): SpringParams;
	toJSON(): { stiffness: number; damping: number; mass: number };
}

/** A spring from any parameterisation; throws a SpringError with the library's reason. */
export declare function springParams(spec: SpringLike): SpringParams;

/** The default spring of chains (2 Hz, damping ratio 0.3). */
export declare function defaultParams(): SpringParams;

/** The normalised 0 -> 1 progress curve of a move (see spring_motion_sample_progress). */
export declare function springProgress(
	params: SpringLike | undefined,
	options?: { interval?: number; maxDuration?: number; initialVelocity?: number; restDelta?: number },
): { values: Float32Array; truncated: boolean; duration: number };

/** Anything that holds wasm memory. */
export interface Disposable {
	/** Frees the wasm memory now (a FinalizationRegistry also frees it once the object is garbage). */
	dispose(): void;
	/** The same, for `using` (TypeScript 5.2): freed at the end of the block. */
	[Symbol.dispose](): void;
}

/** One value or 1 to 4 channels. */
export type Channels = number | readonly number[];

export interface SpringMotionOptions<V extends Channels> {
	/** Initial value: a number (one channel; the state then holds numbers) or 1 to 4 numbers. */
	value?: V;
	/** Target (default: the value, at rest). */
	target?: V;
	/** Initial velocity, units/s (default 0). */
	velocity?: V;
	/** The spring (default: SwiftUI's default, duration 0.5, bounce 0). */
	params?: SpringLike;
	/** Rest thresholds per channel (units, units/s); 0 or left out: derived from the move. */
	restDelta?: V;
	restSpeed?: V;
	/** Stop each channel exactly on its target when it gets there (default false). */
	clampOvershoot?: boolean;
	/** Called with the motion each time it comes to rest after moving. */
	onRest?: ((motion: SpringMotion<V>) => void) | null;
}

type StateOf<V> = V extends number ? number : number[];

export interface MotionState<V extends Channels> {
	value: StateOf<V>;
	velocity: StateOf<V>;
	isResting: boolean;
}

/**
 * An interruptible value driven by a spring: retargets keep velocity, exact at any frame times.
 * `SpringMotion<number>` holds one channel as numbers, `SpringMotion<readonly number[]>` 1 to 4
 * channels as arrays: `new SpringMotion({value: 0})` is the first, `{value: [0, 0]}` the second.
 */
export interface SpringMotion<V extends Channels = number> extends Disposable {
	readonly channels: number;
	/** New target(s); position and velocity are kept. */
	setTarget(target: V): this;
	/** Teleport to `value` with `velocity` (default 0), keeping the target. */
	jump(value: V, velocity?: V): this;
	/** New spring (nothing: the default); position and velocity kept. */
	setParams(params?: SpringLike): this;
	/**
	 * Advances by dt seconds (>= 0; a step over LONG_STEP_SECONDS while moving warns once) and
	 * returns the state: `out` (a state returned before) refilled, or a new object.
	 */
	update(dt: number, out?: MotionState<V>): MotionState<V>;
	/** The state at `time` seconds (e.g. requestAnimationFrame's timestamp / 1000); the first call sets the clock. */
	sample(time: number, out?: MotionState<V>): MotionState<V>;
	/** Called with the motion each time it comes to rest after moving. */
	onRest: ((motion: SpringMotion<V>) => void) | null;
	/**
	 * Resolves with true when the motion comes to rest (at once when at rest now; a retarget before
	 * then extends the wait to the new target), with false when it is disposed first.
	 */
	readonly finished: Promise<boolean>;
	readonly state: MotionState<V>;
	readonly value: StateOf<V>;
	readonly velocity: StateOf<V>;
	readonly isResting: boolean;
	readonly params: SpringParams;
	/** Seconds after which it rests for good (0 at rest, Infinity when undamped). */
	timeToSettle(): number;
	dispose(): void;
}

/**
 * SpringMotion's constructor: a number (or nothing) for one channel, an array for 1 to 4. (One
 * signature per kind, so that `{value: 0, target: 1}` is a motion of numbers, not of 0 | 1.)
 */
export interface SpringMotionConstructor {
	new (options?: SpringMotionOptions<number>): SpringMotion<number>;
	new (options: SpringMotionOptions<readonly number[]>): SpringMotion<readonly number[]>;
	readonly prototype: SpringMotion<Channels>;
}
export declare const SpringMotion: SpringMotionConstructor;

/**
 * The longest step (seconds) a moving motion, chain or rig takes without a console warning (once
 * per object) that times may be milliseconds.
 */
export declare const LONG_STEP_SECONDS: number;

export interface CssLinear {
	/** "linear(0, 0.0074, ..., 1)" */
	easing: string;
	/** "820ms" */
	duration: string;
	durationMs: number;
	/** ms between stops */
	resolution: number;
	stops: number;
	/** true when maxDuration cut the curve before rest */
	truncated: boolean;
	/** largest distance of the linear() curve from the spring, fraction of the move */
	deviation: number;
	/** the two declarations as `spring css` prints them */
	css: string;
}

/** The CSS linear() easing and duration of the spring, exactly as the CLI's `spring css`. */
export declare function cssLinear(params?: SpringLike, options?: { maxDuration?: number; resolution?: number }): CssLinear;

export type Vec2 = readonly [number, number] | { x: number; y: number };
export type Vec3 = readonly [number, number, number] | { x: number; y: number; z: number };
export type Quat = readonly [number, number, number, number] | { x: number; y: number; z: number; w: number };
export type Integrator = 'exact' | 'semi-implicit';

/** A 2D root: position and angle (radians). */
export interface Root2D {
	x?: number;
	y?: number;
	angle?: number;
}

export interface Chain2DSegment {
	/** units, [1e-6, 1e6] */
	length: number;
	/** rest angle relative to the parent segment (the root for the first), radians, within +-1e6 */
	restAngle?: number;
	/** left out: the chain's (or the gradient) */
	params?: SpringLike;
	/** max swing away from the target angle, radians, (0, pi]; 0: unlimited */
	limit?: number;
	/** fraction of the pivot's acceleration felt, [0, 100]; 0: the chain's */
	inertia?: number;
	noInertia?: boolean;
}

/** spring_chain2d_desc; every field but segments may be left out (zero: the default). */
export interface Chain2DDesc {
	segments: readonly Chain2DSegment[];
	params?: SpringLike;
	tipParams?: SpringLike;
	gravity?: Vec2;
	wind?: Vec2;
	step?: number;
	maxSteps?: number;
	integrator?: Integrator;
	root?: Root2D;
	inertia?: number;
	noInertia?: boolean;
	maxRootSpeed?: number;
	maxRootAngularSpeed?: number;
	/** radians, >= 0: rest threshold on each segment's distance from its rest (0: from the lengths) */
	restDelta?: number;
	restAngularSpeed?: number;
}

export interface Chain2DPose {
	/** segmentCount + 1 joints: the start of each segment with its world angle, then the tip */
	joints: { x: number; y: number; angle: number; scaleX: number; scaleY: number }[];
	/** each segment's angle relative to its parent */
	localAngles: number[];
}

/** A 2D chain of angle springs (spring_chain2d). */
export declare class Chain2D implements Disposable {
	constructor(desc: Chain2DDesc);
	readonly segmentCount: number;
	update(root: Root2D, frameDt: number): this;
	/** The pose: `out` (a pose returned before) refilled, or a new one. */
	pose(out?: Chain2DPose): Chain2DPose;
	teleport(root: Root2D): this;
	reset(root: Root2D): this;
	translate(delta: Vec2): this;
	rotate(angle: number, pivot: Vec2): this;
	/** local angle offsets (radians, each within +-1e6, added to the rest angles) for the next update; null clears them */
	setAnimation(offsets: readonly number[] | null): this;
	setParams(segment: number, params?: SpringLike): this;
	setLimit(segment: number, limit: number): this;
	setForces(gravity: Vec2, wind: Vec2): this;
	setInertia(segment: number, inertia: number): this;
	setRootLimits(maxRootSpeed: number, maxRootAngularSpeed: number): this;
	readonly isResting: boolean;
	dispose(): void;
	[Symbol.dispose](): void;
}

/** A 3D transform; a zero or missing rotation is the identity. */
export interface Transform3 {
	position?: Vec3;
	rotation?: Quat;
}

export interface TipChainBone extends Transform3 {
	/** the tip in the bone's own space (non-zero; its length is the bone's) */
	tip: Vec3;
	params?: SpringLike;
	tipRadius?: number;
	/** radians, (0, pi); 0: unlimited */
	coneLimit?: number;
}

export interface Collider {
	type?: 'sphere' | 'capsule' | 'plane';
	a?: Vec3;
	b?: Vec3;
	radius?: number;
}

/** spring_chain_desc; every field but bones may be left out. */
export interface TipChainDesc {
	/** root to tip; position and rotation are the rest transform relative to the parent */
	bones: readonly TipChainBone[];
	params?: SpringLike;
	tipParams?: SpringLike;
	gravity?: Vec3;
	wind?: Vec3;
	colliders?: readonly Collider[];
	maxColliders?: number;
	mode2d?: boolean;
	projection?: 'remove-velocity' | 'keep-velocity';
	step?: number;
	maxSteps?: number;
	integrator?: Integrator;
	root?: Transform3;
	maxRootSpeed?: number;
	maxRootAngularSpeed?: number;
	restDistance?: number;
	restSpeed?: number;
}

export interface TipChainPose {
	bones: { position: number[]; rotation: number[] }[];
	tips: number[][];
}

/** A chain of tip springs (spring_chain), 3D or 2D. */
export declare class TipChain implements Disposable {
	constructor(desc: TipChainDesc);
	readonly boneCount: number;
	update(root: Transform3, frameDt: number): this;
	/** The pose: `out` (a pose returned before) refilled, or a new one. */
	pose(out?: TipChainPose): TipChainPose;
	teleport(root: Transform3): this;
	reset(root: Transform3): this;
	translate(delta: Vec3): this;
	rotate(rotation: Quat, pivot: Vec3): this;
	setAnimation(locals: readonly Transform3[] | null): this;
	setParams(bone: number, params?: SpringLike): this;
	setConeLimit(bone: number, coneLimit: number): this;
	setForces(gravity: Vec3, wind: Vec3): this;
	/** The chain's colliders (null or nothing: none). */
	setColliders(colliders?: readonly Collider[] | null): this;
	setRootLimits(maxRootSpeed: number, maxRootAngularSpeed: number): this;
	readonly isResting: boolean;
	dispose(): void;
	[Symbol.dispose](): void;
}

/** The unit quaternion [x, y, z, w] of a rotation by `angle` radians about `axis`. */
export declare function quatFromAxisAngle(axis: Vec3, angle: number): [number, number, number, number];
/** The library's deterministic sine (bit-identical everywhere). */
export declare function detSin(x: number): number;
/** The library's deterministic cosine. */
export declare function detCos(x: number): number;

/** Bytes of WebAssembly memory the core module holds (it grows, never shrinks): for leak checks. */
export declare function wasmMemoryBytes(): number;
/**
 * How many objects (motions, chains, rigs) hold wasm memory now: made and neither disposed nor
 * freed by the garbage collector's safety net (which warns once when it frees one).
 */
export declare function liveObjectCount(): number;

/** A rig from a rig file's text or parsed object; loads the rig module on first use. */
export declare function loadRig(json: string | object, name?: string): Promise<import('./rig.js').Rig>;

/**
 * A VRM avatar's spring bones from a .vrm, .glb or .gltf file (its bytes, glTF JSON text or parsed
 * glTF object); loads the VRM module on first use. Throws a SpringError naming the JSON path and
 * the reason.
 */
export declare function loadVrm(
	source: ArrayBuffer | ArrayBufferView | string | object,
	options?: import('./vrm.js').VrmOptions,
): Promise<import('./vrm.js').Vrm>;
