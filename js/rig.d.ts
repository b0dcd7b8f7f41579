// SPDX-License-Identifier: MIT
// Type declarations of libspring/rig (written by hand; checked with tsc --noEmit).
/// <reference lib="esnext.disposable" />
import type { Disposable, Root2D } from './index.js';

export interface RigTransform {
	x: number;
	y: number;
	angle: number;
	scaleX: number;
	scaleY: number;
}

/** A 2D skeletal rig (spring_rig): clips, IK, then spring chains on a fixed clock. */
export declare class Rig implements Disposable {
	/** Reads a rig file's text or parsed object; throws a SpringError naming the JSON path and the reason. */
	static fromJSON(json: string | object, name?: string): Rig;
	readonly bones: { name: string; parent: number; length: number }[];
	readonly clips: { name: string; duration: number }[];
	readonly iks: { name: string; type: 'two-bone' | 'ccd'; firstBone: number; lastBone: number; targetBone: number }[];
	readonly chains: {
		name: string;
		type: 'angle' | 'tip';
		firstBone: number;
		lastBone: number;
		boneCount: number;
		colliderCount: number;
	}[];
	readonly step: number;
	readonly maxSteps: number;
	readonly root: { x: number; y: number; angle: number };
	update(frameDt: number): this;
	setRoot(root: Root2D): this;
	teleport(root: Root2D): this;
	/**
	 * Acts on the last update's clip events the library defines ("teleport": the root moves by its
	 * x, y). Once per update; throws a SpringError naming the clip, the event and the limit, the rig
	 * unchanged, when a teleport would carry a chain past its coordinate range.
	 */
	applyEvents(): this;
	reset(): this;
	play(clip: string | number | null, time?: number): this;
	setIkTarget(ik: string | number, target: readonly [number, number] | { x: number; y: number }): this;
	clearIkTarget(ik: string | number): this;
	setIkMix(ik: string | number, mix: number): this;
	setChainMix(chain: string | number, mix: number): this;
	setTimeScale(scale: number): this;
	setPaused(paused: boolean): this;
	/** World transforms: `out` (a pose returned before) refilled, or a new array. */
	pose(out?: RigTransform[]): RigTransform[];
	localPose(out?: RigTransform[]): RigTransform[];
	readonly isResting: boolean;
	chainIsResting(chain: string | number): boolean;
	readonly time: number;
	dispose(): void;
	[Symbol.dispose](): void;
}
