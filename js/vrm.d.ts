// SPDX-License-Identifier: MIT
// Type declarations of libspring/vrm (written by hand; checked with tsc --noEmit).
/// <reference lib="esnext.disposable" />
import type { Disposable } from './index.js';

/** Floats per transform in a transforms array: translation x, y, z, then rotation x, y, z, w. */
export declare const TRANSFORM_FLOATS: 7;

export interface VrmOptions {
	/** What error messages call the model (default "<memory>"). */
	name?: string;
	/** The springs' stepping rate, Hz (default: the authoring rate, 60). */
	rate?: number;
	/** Bone length: 'rest' (constant, the specification's; default) or 'measured' (three-vrm's). */
	length?: 'rest' | 'measured';
}

/** Bones' head-node local rotations (4 numbers each) and world tails (3 each). */
export interface VrmPose {
	rotations: Float32Array;
	tails: Float32Array;
}

/**
 * A VRM avatar's spring bones (VRMC_springBone 1.0 or VRM 0.x secondaryAnimation), stepped by the
 * library's spring skeleton at their authoring rate. A transforms array is (1 + nodeCount) x 7
 * numbers: the model root, then each node's local translation x, y, z and rotation x, y, z, w.
 */
export declare class Vrm implements Disposable {
	/** Reads a model; throws a SpringError naming the JSON path and the reason. */
	static load(source: ArrayBuffer | ArrayBufferView | string | object, options?: VrmOptions): Vrm;
	readonly format: '1.0' | '0.x';
	readonly nodeCount: number;
	readonly nodeNames: readonly string[];
	readonly boneCount: number;
	readonly springCount: number;
	readonly colliderCount: number;
	/** The head node of each bone, in output order. */
	readonly boneNodes: Int32Array;
	readonly restLengths: Float32Array;
	/** (1 + nodeCount) x 7. */
	readonly transformLength: number;
	/** The rest pose as a transforms array (the model root at identity). */
	readonly restTransforms: Float32Array;
	/** Each bone's head-node local rotation (x, y, z, w), refilled by every call that moves the springs. */
	readonly rotations: Float32Array;
	/** Each bone's tail in world space (x, y, z). */
	readonly tails: Float32Array;
	update(transforms: ArrayLike<number>, frameDt: number): this;
	reset(transforms?: ArrayLike<number>): this;
	teleport(transforms: ArrayLike<number>): this;
	/** The pose at the last step itself: `out` (a pose returned before) refilled, or a new one. */
	steppedPose(out?: VrmPose): VrmPose;
	readonly isResting: boolean;
	snapshot(): Uint8Array;
	restore(snapshot: Uint8Array): this;
	/** A drive motion for this model (the library's VRM motion JSON, its text or parsed object). */
	loadMotion(json: string | object, name?: string): VrmMotion;
	/**
	 * `count` instances of this model (1 to 65,536) stepped side by side, each bit for bit what a
	 * Vrm of its own would be; an object of its own (dispose it).
	 */
	crowd(count: number): VrmCrowd;
	dispose(): void;
	[Symbol.dispose](): void;
}

/**
 * Many instances of one model (Vrm.crowd), one clock for all. The arrays hold the instances one
 * after the other: transforms count x (1 + nodeCount) x 7 in, rotations count x boneCount x 4 and
 * tails count x boneCount x 3 out.
 */
export declare class VrmCrowd implements Disposable {
	readonly count: number;
	readonly nodeCount: number;
	readonly nodeNames: readonly string[];
	readonly boneCount: number;
	readonly boneNodes: Int32Array;
	readonly restLengths: Float32Array;
	/** One instance's numbers: (1 + nodeCount) x 7. */
	readonly instanceLength: number;
	/** count x (1 + nodeCount) x 7. */
	readonly transformLength: number;
	/** Every instance in the rest pose. */
	readonly restTransforms: Float32Array;
	/** Every instance's bones' head-node local rotations, instance after instance. */
	readonly rotations: Float32Array;
	/** Every instance's bones' world tails, instance after instance. */
	readonly tails: Float32Array;
	update(transforms: ArrayLike<number>, frameDt: number): this;
	reset(transforms?: ArrayLike<number>): this;
	/** Instance `instance` jumped to `transforms` (one instance's, instanceLength numbers). */
	teleport(instance: number, transforms: ArrayLike<number>): this;
	steppedPose(out?: VrmPose): VrmPose;
	isResting(instance: number): boolean;
	dispose(): void;
	[Symbol.dispose](): void;
}

/** Keyed node transforms over time: sample() gives a Vrm's update() input. */
export declare class VrmMotion implements Disposable {
	readonly duration: number;
	readonly transformLength: number;
	sample(time: number, out?: Float32Array): Float32Array;
	dispose(): void;
	[Symbol.dispose](): void;
}
