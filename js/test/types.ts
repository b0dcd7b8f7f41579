// SPDX-License-Identifier: MIT
// Compiled (not run) by `tsc --noEmit` (make test-web): the declarations describe the API as the
// tests and the README use it.
import { Chain2D, LONG_STEP_SECONDS, SpringError, SpringMotion, TipChain, cssLinear, loadRig, loadVrm, presetNames,
	quatFromAxisAngle, springParams } from '../index.js';
import type { PresetName } from '../index.js';
import type { Rig } from '../rig.js';
import { TRANSFORM_FLOATS, Vrm } from '../vrm.js';
import type { VrmCrowd, VrmMotion, VrmPose } from '../vrm.js';
import { useLibspring } from '../three-vrm.js';
import type { LibspringSpringBones } from '../three-vrm.js';

const p = springParams({ duration: 0.5, bounce: 0.3 });
const k: number = p.stiffness + p.dampingRatio + p.settleTime({ epsilon: 0.01 });
const one = new SpringMotion({ value: 0, target: 100, params: p });
const x: number = one.sample(0.016).value;
const many = new SpringMotion({ value: [0, 1], params: { frequency: 2, dampingRatio: 0.5 } });
const xy: number[] = many.setTarget([3, 4]).update(0.1).value;
const css: string = cssLinear({ halfLife: 0.2 }, { resolution: 5 }).css;
const chain = new Chain2D({ segments: [{ length: 20, restAngle: 0.1 }], gravity: [0, -9.8], integrator: 'exact' });
const tip = chain.update({ x: 1, y: 2, angle: 0 }, 1 / 60).pose().joints[1];
const tail = new TipChain({ bones: [{ tip: [20, 0, 0] }], colliders: [{ type: 'sphere', a: [0, 0, 0], radius: 3 }] });
tail.update({ position: [0, 0, 0], rotation: quatFromAxisAngle([0, 0, 1], 0.3) }, 1 / 60);
async function rig(text: string): Promise<number> {
	const r: Rig = await loadRig(text);
	return r.play('walk').update(1 / 60).applyEvents().pose()[0].angle;
}
try {
	springParams({ frequency: 2, dampingRatio: -1 });
} catch (e) {
	if (e instanceof SpringError && e.code === 'BAD_DEFINITION') {
		console.log(e.message);
	}
}
export { k, x, xy, css, tip, rig };
[one, many, chain, tail].forEach((o) => o.dispose());

// A motion of numbers, not of the literals it started with; an array motion takes arrays.
const retargeted = new SpringMotion({ value: 0, target: 1 }).setTarget(5).jump(2, 0.5);
const arrays = new SpringMotion({ value: [0, 0] as const }).setTarget([1, 2]);
// Every form of the rig format's springs (Compose's stiffness and damping ratio, Motion's duration).
const forms = [
	springParams({ stiffness: 800, dampingRatio: 0.6 }),
	springParams({ stiffness: 800, dampingRatio: 0.6, mass: 2 }),
	springParams({ motionDuration: 0.5, bounce: 0.3 }),
	springParams({ stiffness: 100, damping: 10 }),
	springParams({ settling: 1, dampingRatio: 0.8, epsilon: 0.01 }),
];
// `using` frees the motion at the end of the block (TypeScript 5.2).
function scoped(): number {
	using m = new SpringMotion({ value: 0, target: 1 });
	return m.update(0.1).value;
}
export { retargeted, arrays, forms, scoped };

// Other libraries' objects as they are written there.
const pasted = [
	springParams({ mass: 1, tension: 170, friction: 26 }),
	springParams({ frequency: 0.5, damping: 0.7 }),
	springParams({ type: 'spring', stiffness: 500, damping: 25, mass: 1, velocity: 3 }),
	springParams({ type: 'spring', visualDuration: 0.5, bounce: 0.3 }),
	springParams({ type: 'spring', duration: 0.8 }),
];
export { pasted };

// Presets and reduced motion; onRest, finished; out parameters for the per-frame calls.
const named = [springParams({ preset: 'bouncy' }), springParams({ preset: 'expressive-default-spatial', reducedMotion: true }),
	springParams({ duration: 0.5, bounce: 0.3, reducedMotion: true }), springParams({ preset: 'smooth' }).reducedMotion(),
	springParams({ type: 'spring', visualDuration: 0.3, reducedMotion: true })];
const firstPreset: PresetName = presetNames[0];
const rests = new SpringMotion({ value: 0, target: 1, onRest: (m) => m.setTarget(0) });
rests.onRest = null;
const done: Promise<boolean> = rests.finished;
const frame = rests.sample(0);
const again: number = rests.sample(0.016, frame).value;
const pair = new SpringMotion({ value: [0, 0] });
const pairFrame = pair.update(0.016);
const pairAgain: number[] = pair.update(0.016, pairFrame).value;
const chainPose = chain.pose();
const tipPose = tail.pose(tail.pose());
const limit: number = LONG_STEP_SECONDS;
export { named, firstPreset, done, again, pairAgain, chainPose, tipPose, limit };

// VRM models: bytes, text or parsed glTF in; transforms and poses as typed arrays.
async function avatar(bytes: ArrayBuffer, motionJson: string): Promise<number> {
	using vrm: Vrm = await loadVrm(bytes, { name: 'avatar.vrm', rate: 120, length: 'measured' });
	using motion: VrmMotion = vrm.loadMotion(motionJson);
	const transforms: Float32Array = motion.sample(0);
	vrm.reset(transforms).update(motion.sample(1 / 60, transforms), 1 / 60).teleport(vrm.restTransforms);
	const pose: VrmPose = vrm.steppedPose(vrm.steppedPose());
	const head: number = vrm.boneNodes[0];
	const names: readonly string[] = vrm.nodeNames;
	const format: '1.0' | '0.x' = vrm.format;
	vrm.restore(vrm.snapshot()).update([0, 0, 0, 0, 0, 0, 1], 0);
	return pose.rotations[0] + vrm.rotations[0] + vrm.tails[0] + vrm.restLengths[0] + head + names.length + format.length
		+ (vrm.isResting ? 1 : 0) + vrm.transformLength + TRANSFORM_FLOATS + Vrm.load({ asset: {} }).boneCount;
}
export { avatar };

// Crowds: one model, many instances, typed arrays over all of them.
async function crowd(bytes: ArrayBuffer): Promise<number> {
	using vrm: Vrm = await loadVrm(bytes);
	using many: VrmCrowd = vrm.crowd(100);
	const transforms: Float32Array = many.restTransforms.slice();
	many.reset(transforms).update(transforms, 1 / 60).teleport(3, transforms.subarray(0, many.instanceLength));
	const pose: VrmPose = many.steppedPose(many.steppedPose());
	const resting: boolean = many.isResting(0);
	return pose.rotations[0] + many.rotations[0] + many.tails[0] + many.count + many.transformLength + many.boneNodes[0]
		+ many.restLengths[0] + many.nodeNames.length + many.boneCount + many.nodeCount + (resting ? 1 : 0);
}
export { crowd };

// three-vrm avatars (typed structurally: any VRM object passes).
function drive(avatar: { scene: object; springBoneManager: object }): LibspringSpringBones {
	const springs = useLibspring(avatar, { rate: 60, length: 'measured', interpolate: false, root: avatar.scene });
	const first: number = springs.update(1 / 60).reset().teleport().vrm.rotations[0] + (springs.isResting ? 1 : 0);
	springs.dispose();
	return useLibspring(avatar.springBoneManager, first > 2 ? {} : undefined);
}
export { drive };
