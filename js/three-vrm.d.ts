// SPDX-License-Identifier: MIT
// Type declarations of libspring/three-vrm (written by hand; checked with tsc --noEmit). The
// avatar is typed structurally (three-vrm's VRM or VRMSpringBoneManager pass; neither three nor
// @pixiv/three-vrm is needed to compile against these declarations).
/// <reference lib="esnext.disposable" />
import type { Vrm } from './vrm.js';

/** Options of useLibspring. */
export interface UseLibspringOptions {
	/** The springs' stepping rate, Hz (default 60, the rate VRM springs are authored at). */
	rate?: number;
	/** Bone length: 'measured' (three-vrm's rule; the default here) or 'rest' (the specification's). */
	length?: 'rest' | 'measured';
	/** The model root, a three.js object (default: vrm.scene, or the joints' topmost ancestor). */
	root?: object;
	/** false: the pose of the last step (frames that are steps); default true, interpolated between the last two. */
	interpolate?: boolean;
}

/** A three-vrm avatar's springs stepped by libspring (useLibspring's result). */
export interface LibspringSpringBones {
	/** The libspring model: its rotations, tails, snapshots. */
	readonly vrm: Vrm;
	/** One frame of `dt` seconds under the avatar's current pose (what the manager's update now calls). */
	update(dt: number): this;
	/** Every spring at rest under the current pose (what the manager's reset now calls). */
	reset(): this;
	/** The avatar jumped: the springs move with the root without seeing it. */
	teleport(): this;
	/** True when the last step moved no tail by more than 1e-6 of its bone's length. */
	readonly isResting: boolean;
	/** Gives the manager its own update and reset back and frees the libspring model. */
	dispose(): void;
}

/**
 * Drives a three-vrm avatar's springs with libspring: after `useLibspring(vrm)` the avatar's own
 * `vrm.update(delta)` (or `springBoneManager.update(delta)`) steps libspring. `vrm`: a three-vrm
 * `VRM` or its `VRMSpringBoneManager`.
 */
export declare function useLibspring(vrm: object, options?: UseLibspringOptions): LibspringSpringBones;
