// SPDX-License-Identifier: MIT
// The peers of libspring's benchmark, each driven through its own code on the same workloads as
// bench/ (see bench/w1.c, bench/w2.c and bench/vrm.c for the definitions), timed the same way (repetitions
// interleaved, medians), with checksums of the outputs so that the work is real.
//
//   node peers.mjs [--reps N] [--libspring build/bench.csv] [--csv out.csv] [--only TEXT] [--markdown] [--tiny]
//
// With --libspring, libspring's rows from the same `make bench` run are read from the C suite's
// CSV and the ratios libspring / peer are computed and printed here, and the targets against the
// peers judged. --only keeps the peers of one workload (W1, W2, VRM) or those whose name contains
// TEXT; --tiny runs every kept peer once at a tiny size.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";

import { Spring as WobbleSpring } from "wobble";
import { spring as motionSpring } from "motion";
import { spring as popmotionSpring, velocityPerSecond } from "popmotion";
import rebound from "rebound";
import * as spine from "@esotericsoftware/spine-core";
import * as THREE from "three";
import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";
import { VRMSpringBoneJoint, VRMSpringBoneLoaderPlugin, VRMSpringBoneManager } from "@pixiv/three-vrm";

import { attachMotion, loadAsGlb, parseModel, readMotion } from "../../tests/vrm/threevrm/model.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
	const i = args.indexOf(name);
	return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const tiny = args.includes("--tiny");
const only = option("--only", null); // a workload (W1, W2, VRM) or part of a peer's name
const markdown = args.includes("--markdown");
// One table row: padded columns, or a Markdown row.
const row = (cells, widths) =>
	markdown ? `| ${cells.join(" | ")} |` : cells.map((c, i) => String(c).padEnd(widths[i] ?? 0)).join(" ");
const header = (cells, widths) =>
	markdown ? `${row(cells, widths)}\n|${cells.map(() => " --- |").join("")}` : row(cells, widths);
const reps = tiny ? 1 : Number(option("--reps", "5"));

// ------------------------------------------------------------------------------------------
// W1: 10,000 springs, k 170, c 26, m 1, 1,200 steps of 1/120 s from rest at 0, retargeted every
// 100 steps keeping position and velocity. Checksum: the sum of every position and velocity
// (units, units/s) at the end, the same sum as the C suite's checksum column.

const W1 = { count: tiny ? 37 : 10000, steps: tiny ? 250 : 1200, k: 170, c: 26, m: 1 };
const STEP = 1 / 120;
const target = (i, epoch) => (((i * 7919 + epoch * 104729) % 2001) - 1000) * 0.01;

// wobble: its own requestAnimationFrame loop, with the frame clock (Date.now and
// requestAnimationFrame) supplied by the harness: every step runs the callbacks wobble scheduled.
function w1Wobble() {
	let now = 0;
	let queue = [];
	const realNow = Date.now;
	globalThis.requestAnimationFrame = (cb) => {
		queue.push(cb);
		return queue.length;
	};
	globalThis.cancelAnimationFrame = () => {};
	Date.now = () => now;
	try {
		const springs = [];
		for (let i = 0; i < W1.count; i++) {
			springs.push(new WobbleSpring({ fromValue: 0, toValue: target(i, 0), stiffness: W1.k, damping: W1.c, mass: W1.m }));
			springs[i].start();
		}
		for (let step = 0; step < W1.steps; step++) {
			if (step > 0 && step % 100 === 0) {
				for (let i = 0; i < W1.count; i++) {
					springs[i].updateConfig({ toValue: target(i, step / 100) }).start();
				}
			}
			now += 1000 * STEP;
			const run = queue;
			queue = [];
			for (const cb of run) cb(now);
		}
		let sum = 0;
		for (const s of springs) sum += s.currentValue + 1000 * s.currentVelocity;
		return sum;
	} finally {
		Date.now = realNow;
	}
}

// Motion: its spring generator (what its animations run), sampled every step; retargeted in
// place with its own velocity, as its follow animations do.
function w1Motion() {
	const gens = [];
	const value = new Float64Array(W1.count);
	let t = 0;
	for (let i = 0; i < W1.count; i++) {
		gens.push(motionSpring({ keyframes: [0, target(i, 0)], stiffness: W1.k, damping: W1.c, mass: W1.m, velocity: 0 }));
	}
	for (let step = 0; step < W1.steps; step++) {
		if (step > 0 && step % 100 === 0) {
			for (let i = 0; i < W1.count; i++) {
				gens[i].retarget([value[i], target(i, step / 100)], gens[i].velocity(t));
			}
			t = 0;
		}
		t += 1000 * STEP;
		for (let i = 0; i < W1.count; i++) value[i] = gens[i].next(t).value;
	}
	let sum = 0;
	for (let i = 0; i < W1.count; i++) sum += value[i] + gens[i].velocity(t);
	return sum;
}

// Popmotion: its spring generator, sampled every step; a new one from the current value and the
// velocity popmotion's velocityPerSecond measures, at each retarget.
function w1Popmotion() {
	const gens = [];
	const value = new Float64Array(W1.count), previous = new Float64Array(W1.count);
	let t = 0;
	const make = (i, from, velocity, epoch) =>
		popmotionSpring({ from, to: target(i, epoch), stiffness: W1.k, damping: W1.c, mass: W1.m, velocity });
	for (let i = 0; i < W1.count; i++) gens.push(make(i, 0, 0, 0));
	for (let step = 0; step < W1.steps; step++) {
		if (step > 0 && step % 100 === 0) {
			for (let i = 0; i < W1.count; i++) {
				gens[i] = make(i, value[i], velocityPerSecond(value[i] - previous[i], 1000 * STEP), step / 100);
			}
			t = 0;
		}
		t += 1000 * STEP;
		for (let i = 0; i < W1.count; i++) {
			previous[i] = value[i];
			value[i] = gens[i].next(t).value;
		}
	}
	let sum = 0;
	for (let i = 0; i < W1.count; i++) sum += value[i] + velocityPerSecond(value[i] - previous[i], 1000 * STEP);
	return sum;
}

// Rebound: a SpringSystem on its stepping looper (its RK4 solver at its own 1 ms sub-step).
function w1Rebound() {
	const looper = new rebound.SteppingSimulationLooper();
	const system = new rebound.SpringSystem(looper);
	const config = new rebound.SpringConfig(W1.k, W1.c);
	const springs = [];
	for (let i = 0; i < W1.count; i++) {
		const s = system.createSpringWithConfig(config);
		s.setCurrentValue(0);
		s.setEndValue(target(i, 0));
		springs.push(s);
	}
	looper.step(0);
	for (let step = 0; step < W1.steps; step++) {
		if (step > 0 && step % 100 === 0) {
			for (let i = 0; i < W1.count; i++) springs[i].setEndValue(target(i, step / 100));
		}
		looper.step(1000 * STEP);
	}
	let sum = 0;
	for (const s of springs) sum += s.getCurrentValue() + s.getVelocity();
	return sum;
}

// ------------------------------------------------------------------------------------------
// W2: 100 chains of 8 bones (20 units each: the first hanging back at 3 rad from the root, the
// others bending 0.1 rad), 600 frames at 60 fps, physics at 1/120 s. Chain c's root at
// t = frame / 60 + 0.037 c: x = 40 sin(2 pi 0.5 t), y = 20 sin(2 pi t), turned 30 degrees
// sin(2 pi 0.7 t). Every chain's pose is read back every frame. Checksum: the sum of the bones'
// world positions at the end.

const W2 = { chains: tiny ? 5 : 100, frames: tiny ? 30 : 600, bones: 8, length: 20 };
const FRAME = 1 / 60;
function w2Root(c, frame) {
	const t = frame / 60 + 0.037 * c;
	return {
		x: 2 * W2.length * Math.sin(2 * Math.PI * 0.5 * t),
		y: W2.length * Math.sin(2 * Math.PI * t),
		angle: (Math.PI / 6) * Math.sin(2 * Math.PI * 0.7 * t),
	};
}
const restAngle = (i) => (i === 0 ? 3 : 0.1);

// Spine: one physics constraint (rotation) per bone of an 8-bone chain, built in code as
// SkeletonJson builds it, its defaults (inertia 0.5, strength 100, damping 0.85, mass 1) at a
// 1/120 s step; the root bone is posed every frame, then Skeleton.update and
// updateWorldTransform(Physics.update), as its runtimes do.
function spineSkeletonData() {
	const data = new spine.SkeletonData();
	const root = new spine.BoneData(0, "root", null);
	root.setupPose.scaleX = root.setupPose.scaleY = 1;
	data.bones.push(root);
	let parent = root;
	for (let i = 0; i < W2.bones; i++) {
		const bone = new spine.BoneData(data.bones.length, `bone${i}`, parent);
		bone.length = W2.length;
		bone.setupPose.x = i === 0 ? 0 : W2.length;
		bone.setupPose.rotation = (restAngle(i) * 180) / Math.PI;
		bone.setupPose.scaleX = bone.setupPose.scaleY = 1;
		data.bones.push(bone);
		parent = bone;
		const physics = new spine.PhysicsConstraintData(`physics${i}`);
		physics.bone = bone;
		physics.rotate = 1;
		physics.limit = 5000;
		physics.step = STEP;
		Object.assign(physics.setupPose, { inertia: 0.5, strength: 100, damping: 0.85, massInverse: 1, wind: 0, gravity: 0, mix: 1 });
		data.constraints.push(physics);
	}
	return data;
}

function w2Spine() {
	const data = spineSkeletonData();
	const skeletons = [];
	for (let c = 0; c < W2.chains; c++) {
		const s = new spine.Skeleton(data);
		const r = w2Root(c, 0);
		const root = s.bones[0].pose;
		root.x = r.x;
		root.y = r.y;
		root.rotation = (r.angle * 180) / Math.PI;
		s.updateWorldTransform(spine.Physics.reset);
		skeletons.push(s);
	}
	let sum = 0;
	for (let f = 1; f <= W2.frames; f++) {
		sum = 0;
		for (let c = 0; c < W2.chains; c++) {
			const s = skeletons[c];
			const r = w2Root(c, f);
			const root = s.bones[0].pose;
			root.x = r.x;
			root.y = r.y;
			root.rotation = (r.angle * 180) / Math.PI;
			s.update(FRAME);
			s.updateWorldTransform(spine.Physics.update);
			for (let b = 1; b <= W2.bones; b++) {
				const p = s.bones[b].appliedPose;
				sum += p.worldX + p.worldY;
			}
		}
	}
	return sum;
}

// three-vrm: a VRMSpringBoneManager with one joint per bone of an 8-joint chain of Object3Ds
// (plus the tip), stiffness 1, drag 0.4, no gravity; updated twice a frame with 1/120 s (its
// spring bones step once per update call), every bone's world tip read back every frame.
function w2ThreeVrm() {
	const scene = new THREE.Scene();
	const chains = [];
	for (let c = 0; c < W2.chains; c++) {
		const root = new THREE.Object3D();
		scene.add(root);
		const nodes = [];
		let parent = root;
		for (let i = 0; i <= W2.bones; i++) {
			const node = new THREE.Object3D();
			node.position.set(i === 0 ? 0 : W2.length, 0, 0);
			if (i < W2.bones) node.rotation.z = restAngle(i);
			parent.add(node);
			nodes.push(node);
			parent = node;
		}
		const r = w2Root(c, 0);
		root.position.set(r.x, r.y, 0);
		root.rotation.z = r.angle;
		chains.push({ root, nodes });
	}
	scene.updateMatrixWorld(true);
	const manager = new VRMSpringBoneManager();
	for (const { nodes } of chains) {
		for (let i = 0; i < W2.bones; i++) {
			manager.addJoint(
				new VRMSpringBoneJoint(nodes[i], nodes[i + 1], { hitRadius: 0, stiffness: 1, gravityPower: 0, dragForce: 0.4 }),
			);
		}
	}
	manager.setInitState();
	const position = new THREE.Vector3();
	let sum = 0;
	for (let f = 1; f <= W2.frames; f++) {
		for (let c = 0; c < W2.chains; c++) {
			const r = w2Root(c, f);
			chains[c].root.position.set(r.x, r.y, 0);
			chains[c].root.rotation.z = r.angle;
		}
		scene.updateMatrixWorld(false);
		manager.update(STEP);
		manager.update(STEP);
		sum = 0;
		for (const { nodes } of chains) {
			for (let i = 0; i < W2.bones; i++) {
				// Bone i's tip: its child's local position through bone i's world matrix (the
				// spring bones update their bones' world matrices, not the last child's).
				position.copy(nodes[i + 1].position).applyMatrix4(nodes[i].matrixWorld);
				sum += position.x + position.y;
			}
		}
	}
	return sum;
}

// ------------------------------------------------------------------------------------------
// VRM: the C suite's VRM rows (bench/vrm.c) in three-vrm: the same models and motions, 1,000
// avatars (3 with --tiny), 60 frames at 1/60 s, avatar a's root 0.01 (a % 100) m further along x.
// Each avatar is its own GLTFLoader.parse of the file with VRMSpringBoneLoaderPlugin (loaded as
// tests/vrm/threevrm/gen.mjs loads the conformance models, with the meshes and skins left out too,
// so that three's scene is the file's node tree, as libspring's skeleton is) and its own
// VRMSpringBoneManager. Untimed on both sides: loading, the motion sampled once for every frame
// (every track's local translation and rotation), and the reset before each repetition (the frame
// 0 pose, manager.reset(), as gen.mjs starts). Timed, per frame and avatar:
//   libspring: spring_skeleton_update (the root and the sampled local transforms of every node:
//              it brings the world transforms its springs depend on up to date and steps the
//              springs at 60 Hz), then spring_skeleton_get_pose (the bones' local rotations into
//              an array); its crowd rows (spring_skeleton_crowd: the thousand avatars stepped
//              side by side) write every avatar's root and local transforms into the crowd's
//              input, run one spring_skeleton_crowd_update and read each avatar's pose; the
//              targets are judged on the crowd rows;
//   three-vrm: the sampled local translation and rotation set on each tracked node (the others
//              stay at rest), then springBoneManager.update(1/60) (which first brings up to date
//              the world matrices of the joints' non-joint ancestors and the collider nodes, then
//              steps each joint and updates the world matrices below it), then every joint's local
//              rotation copied into an array. The world-matrix update is three-vrm's own, the
//              least it needs (gen.mjs's order, a whole-scene updateMatrixWorld before the update
//              as a renderer does, costs three-vrm more: the ratios are against the cheaper).
// Rate: joint-frames per second (joints with a tail x frames), as libspring's rows. Checksum: the
// sum of the joints' local rotations (x, y, z, w) after the last frame, the same sum as the C
// suite's checksum column for its rows (close, not equal: libspring keeps each bone's rest length
// and interpolates the pose it gives between its 60 Hz steps, three-vrm re-measures the lengths
// every frame).

const VRM = { count: tiny ? 3 : 1000, frames: 60 };
const source = fileURLToPath(new URL("../../", import.meta.url));
const vrmLib = { THREE, GLTFLoader, VRMSpringBoneLoaderPlugin };
const VRM_MODELS = [
	{ name: "Godette", model: "tests/vrm/models/Godette_vrm_v4.vrm", motion: "tests/vrm/motions/godette-shake.json",
		row: "vrm: Godette x 1,000 (spring_skeleton_crowd)", prefix: "vrm: Godette" },
	{ name: "synthetic 64-joint", model: "bench/models/synthetic-64.gltf", motion: "bench/models/synthetic-64-shake.json",
		row: "vrm: synthetic 64-joint x 1,000 (spring_skeleton_crowd)", prefix: "vrm: synthetic 64-joint" },
];

async function vrmScenario(spec) {
	const { glb, json } = loadAsGlb(source + spec.model, { nodesOnly: true });
	const motion = readMotion(source + spec.motion);
	const avatars = [];
	let sample = null;
	for (let a = 0; a < VRM.count; a++) {
		const model = { json, ...(await parseModel(vrmLib, glb, spec.model)) };
		const driven = attachMotion(vrmLib, model, spec.model, motion, spec.motion);
		sample ??= driven.sample;
		avatars.push({ manager: model.manager, root: driven.root, offset: 0.01 * (a % 100),
			objects: driven.tracks.map((t) => t.obj), bones: driven.joints.map((j) => j.bone) });
	}
	const tracks = avatars[0].objects.length, joints = avatars[0].bones.length;
	// poses[(f * tracks + k) * 7 ..]: track k's x, y, z, qx, qy, qz, qw at frame f
	const poses = new Float64Array((VRM.frames + 1) * tracks * 7);
	for (let f = 0; f <= VRM.frames; f++) {
		sample(f / 60).forEach(({ position, quaternion }, k) => poses.set([...position, ...quaternion], (f * tracks + k) * 7));
	}
	const rotations = new Float64Array(VRM.count * joints * 4);
	const pose = (avatar, f) => {
		const { root, objects, offset } = avatar;
		root.position.x = offset; // when the motion has no "$root" track
		for (let k = 0, o = f * tracks * 7; k < tracks; k++, o += 7) {
			const obj = objects[k];
			obj.position.set(poses[o] + (obj === root ? offset : 0), poses[o + 1], poses[o + 2]);
			obj.quaternion.set(poses[o + 3], poses[o + 4], poses[o + 5], poses[o + 6]);
		}
	};
	return {
		work: VRM.count * VRM.frames * joints,
		reset() {
			for (const avatar of avatars) {
				pose(avatar, 0);
				avatar.root.updateMatrixWorld(true);
				avatar.manager.reset();
				avatar.root.updateMatrixWorld(true);
			}
		},
		run() {
			for (let f = 1; f <= VRM.frames; f++) {
				for (let a = 0; a < avatars.length; a++) {
					const avatar = avatars[a];
					pose(avatar, f);
					avatar.manager.update(1 / 60);
					const bones = avatar.bones;
					for (let j = 0, o = a * joints * 4; j < joints; j++, o += 4) {
						const q = bones[j].quaternion;
						rotations[o] = q.x;
						rotations[o + 1] = q.y;
						rotations[o + 2] = q.z;
						rotations[o + 3] = q.w;
					}
				}
			}
			let sum = 0;
			for (const v of rotations) sum += v;
			return sum;
		},
	};
}

// ------------------------------------------------------------------------------------------

const peers = [
	{ name: "wobble", workload: "W1", unit: "spring-step", work: W1.count * W1.steps, run: w1Wobble },
	{ name: "motion", workload: "W1", unit: "spring-step", work: W1.count * W1.steps, run: w1Motion },
	{ name: "popmotion", workload: "W1", unit: "spring-step", work: W1.count * W1.steps, run: w1Popmotion },
	{ name: "rebound", workload: "W1", unit: "spring-step", work: W1.count * W1.steps, run: w1Rebound },
	{ name: "spine-core physics", workload: "W2", unit: "bone-frame", work: W2.chains * W2.frames * W2.bones, run: w2Spine },
	{ name: "three-vrm spring bones", workload: "W2", unit: "bone-frame", work: W2.chains * W2.frames * W2.bones, run: w2ThreeVrm },
	...VRM_MODELS.map((spec) => ({ name: `three-vrm ${spec.name}`, workload: "VRM", unit: "joint-frame", spec,
		prepare: () => vrmScenario(spec) })),
].filter((p) => !only || p.workload === only || p.name.includes(only));
if (!peers.length) {
	console.error(`peers: no peer matches --only ${only}`);
	process.exit(2);
}
// The VRM peers load their avatars first (untimed).
const loadStart = performance.now();
for (const p of peers) if (p.prepare) Object.assign(p, await p.prepare());
if (!tiny && peers.some((p) => p.prepare)) {
	console.error(`peers: the VRM avatars loaded in ${((performance.now() - loadStart) / 1000).toFixed(1)} s`);
}
const versions = JSON.parse(readFileSync(new URL("./package.json", import.meta.url))).dependencies;
const versionOf = (name) => ({ wobble: "wobble", motion: "motion", popmotion: "popmotion", rebound: "rebound",
	"spine-core physics": "@esotericsoftware/spine-core" })[name] ?? "@pixiv/three-vrm";

const median = (v) => {
	const s = [...v].sort((a, b) => a - b);
	return s.length % 2 ? s[(s.length - 1) / 2] : 0.5 * (s[s.length / 2 - 1] + s[s.length / 2]);
};
const formatRate = (rate, unit) =>
	rate >= 1e9 ? `${(rate / 1e9).toFixed(2)} G ${unit}s/s` : rate >= 1e6 ? `${(rate / 1e6).toFixed(1)} M ${unit}s/s` : `${(rate / 1e3).toFixed(0)} k ${unit}s/s`;

for (const p of peers) p.times = [];
for (let r = 0; r < reps; r++) {
	for (const p of peers) {
		p.reset?.();
		const t0 = performance.now();
		p.checksum = p.run();
		p.times.push((performance.now() - t0) / 1000);
		if (!Number.isFinite(p.checksum)) {
			console.error(`peers: ${p.name} produced a non-finite checksum`);
			process.exit(1);
		}
	}
	if (!tiny) console.error(`peers: repetition ${r + 1} of ${reps} done`);
}

console.log(`\nPeers under node ${process.version} (medians of ${reps})`);
const peerWidths = [52, 8, 26, 0];
console.log(header(["peer", "workload", "median rate", "checksum"], peerWidths));
for (const p of peers) {
	p.rate = p.work / median(p.times);
	const label = `${p.name} ${versions[versionOf(p.name)]}`;
	console.log(row([label, p.workload, formatRate(p.rate, p.unit), p.checksum.toPrecision(9)], peerWidths));
}
const out = option("--csv", null);
if (out) {
	const lines = ["peer,version,workload,median_ms,rate_per_s,unit,checksum"];
	for (const p of peers) {
		lines.push(`"${p.name}",${versions[versionOf(p.name)]},${p.workload},${(1e3 * median(p.times)).toFixed(4)},${p.rate.toPrecision(6)},${p.unit},${p.checksum.toPrecision(9)}`);
	}
	writeFileSync(out, lines.join("\n") + "\n");
}

// libspring / peer, from the C suite's CSV of the same run.
const libCsv = option("--libspring", null);
if (libCsv) {
	const rows = readFileSync(libCsv, "utf8").trim().split("\n").slice(1).map((line) => {
		const cells = line.match(/("[^"]*"|[^,]+)/g).map((c) => c.replace(/^"|"$/g, ""));
		return { name: cells[0], count: Number(cells[1]), steps: Number(cells[2]), threads: Number(cells[3]), ms: Number(cells[4]),
			rate: Number(cells[5]), checksum: Number(cells[9]) };
	});
	const verdict = (ok) => (ok ? "met" : markdown ? "**not met**" : "NOT MET");
	const judge = (ok, text) => console.log(`${markdown ? "- " : "target "}${verdict(ok)}: ${text}`);
	for (const workload of ["W1", "W2", "VRM"]) {
		const theirs = peers.filter((p) => p.workload === workload);
		if (!theirs.length) continue;
		const names = {
			W1: ["W1 spring_stepper_step (per spring)", "W1 spring_step_exact (per spring)", "W1 spring_stepper_step_many", "W1 spring_batch"],
			W2: ["W2 spring_chain2d (per chain)", "W2 spring_chain (per chain)", "W2 spring_chain2d_group", "W2 spring_chain_group"],
			// every VRM row, against the three-vrm rows of its model
			VRM: rows.filter((r) => VRM_MODELS.some((spec) => r.name.startsWith(spec.prefix))).map((r) => r.name),
		}[workload];
		const mine = names.map((n) => rows.find((r) => r.name === n)).filter((r) => r);
		const unit = workload === "VRM" ? " per joint-frame" : "";
		console.log(`\n${workload}: libspring rate / peer rate${unit} (same run)`);
		const widths = [46, ...theirs.map((p) => Math.max(22, p.name.length + 2))];
		console.log(header(["libspring row", ...theirs.map((p) => p.name)], widths));
		for (const m of mine) {
			const spec = VRM_MODELS.find((v) => m.name.startsWith(v.prefix));
			console.log(row([m.name, ...theirs.map((p) => (!spec || p.spec === spec ? `${(m.rate / p.rate).toFixed(1)}x` : "-"))], widths));
		}
		const ref = rows.find((r) => r.name === "W1 spring_stepper_step (per spring)");
		// The performance targets against the peers (absent rows are skipped).
		const goals = {
			W1: [["W1 spring_stepper_step_many", "wobble", 200], ["W1 spring_stepper_step_many", "motion", 200],
				["W1 spring_batch", "wobble", 200], ["W1 spring_batch", "motion", 200]],
			W2: [["W2 spring_chain2d_group", "spine-core physics", 10], ["W2 spring_chain_group", "spine-core physics", 10]],
			VRM: VRM_MODELS.map((spec) => [spec.row, `three-vrm ${spec.name}`, 50]),
		}[workload];
		console.log("");
		for (const [goal, peer, minimum] of goals) {
			const m = rows.find((r) => r.name === goal), p = peers.find((q) => q.name === peer);
			if (m && p) judge(m.rate / p.rate >= minimum, `${goal} >= ${minimum}x ${peer}${unit}: ${(m.rate / p.rate).toFixed(1)}x`);
		}
		if (workload === "VRM") {
			// A frame of 1,000 Godettes on one core (the row's median time over its frames, scaled to
			// 1,000 avatars when the row ran fewer).
			const godette = rows.find((r) => r.name === VRM_MODELS[0].row);
			if (godette) {
				const frameMs = ((godette.ms / godette.steps) * 1000) / godette.count;
				judge(frameMs < 1, `a frame of 1,000 Godettes on one core (${godette.name}) < 1 ms: ${frameMs.toFixed(2)} ms`);
			}
			console.log(`checksum (sum of the joints' local rotations after the last frame): ` +
				[...mine.map((m) => `${m.name} ${m.checksum.toPrecision(9)}`), ...theirs.map((p) => `${p.name} ${p.checksum.toPrecision(9)}`)].join("; "));
		}
		if (workload === "W1" && ref) {
			console.log(`checksum (sum of positions and velocities): libspring ${ref.checksum.toPrecision(9)}; ` +
				theirs.map((p) => `${p.name} ${p.checksum.toPrecision(9)}`).join("; "));
		}
	}
}
