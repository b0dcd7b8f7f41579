// SPDX-License-Identifier: MIT
// Writes the benchmark's synthetic avatar, bench/models/synthetic-64.gltf, and its motion,
// bench/models/synthetic-64-shake.json (the files are the definition; this script records how
// they were made, and writes them byte for byte again).
//
// The avatar (VRM 1.0 VRMC_springBone, facing +z, metres, no meshes): a body of 9 nodes (hips,
// spine, chest, neck, head, upper and lower legs) and 8 springs of 8 joints, each joint with a
// tail (64 joints that step; a spring is 9 nodes, the last a tail only): 4 hair strands of 32 cm
// hanging from the head (2 at the back, 2 at the sides, over the shoulders) and 4 skirt strands
// of 40 cm hanging from the hips. 7 colliders on the body: 2 spheres (head, hips) and 5 capsules
// (neck, chest, shoulders, both thighs), in 3 collider groups: the hair collides with the head and
// the upper body, the skirt with the hips and thighs.
//
// The motion (2 s; the benchmark runs its first second): the model's root sways 6 cm side to side
// at 1.5 Hz, the hips yaw +-15 degrees with it, the head shakes +-30 degrees at 3 Hz and nods
// +-10 degrees at 1.5 Hz, the thighs swing +-25 degrees in turn at 1.5 Hz; eased in and out over
// 0.25 s, still after 1.5 s. The hair is thrown against the head and shoulders, the thighs kick
// into the skirt.
//
// Usage: node bench/models/synthetic-64.mjs   (needs no packages)
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { DEG, keys, motionText, qaxis, qmul, smooth } from '../../tests/vrm/threevrm/motions.mjs';

const here = dirname(fileURLToPath(import.meta.url));

// ---- the avatar -------------------------------------------------------------------------------

const nodes = [];
const node = (name, translation, parent) => {
	const i = nodes.length;
	nodes.push({ name, translation });
	if (parent !== undefined) (nodes[parent].children ??= []).push(i);
	return i;
};
const hips = node('Hips', [0, 0.95, 0]);
const spine = node('Spine', [0, 0.12, 0], hips);
const chest = node('Chest', [0, 0.15, 0], spine);
const neck = node('Neck', [0, 0.22, 0], chest);
const head = node('Head', [0, 0.08, 0], neck);
const thighL = node('UpperLeg_L', [0.09, -0.06, 0], hips);
node('LowerLeg_L', [0, -0.42, 0], thighL);
const thighR = node('UpperLeg_R', [-0.09, -0.06, 0], hips);
node('LowerLeg_R', [0, -0.42, 0], thighR);

// A strand: its first node on `parent` at `at`, then 8 segments straight down, the last node a
// tail only. Stiffness falls from the root to the tip, as authored hair usually does.
const JOINTS = 8;
const strand = (name, parent, at, segment, joint) => {
	const chain = [];
	let p = parent;
	for (let k = 0; k <= JOINTS; k++) {
		p = node(`${name}_${k}`, k === 0 ? at : [0, -segment, 0], p);
		chain.push(p);
	}
	return chain.map((n, k) => (k === JOINTS ? { node: n } : { node: n, ...joint(k) }));
};
const round = (v) => Math.round(v * 1e4) / 1e4;
const hair = (k) => ({ hitRadius: 0.01, stiffness: round(1.0 - 0.06 * k), gravityPower: 0.2, gravityDir: [0, -1, 0], dragForce: 0.4 });
const skirt = (k) => ({ hitRadius: 0.02, stiffness: round(1.5 - 0.1 * k), gravityPower: 0.1, gravityDir: [0, -1, 0], dragForce: 0.5 });

const sphere = (n, offset, radius) => ({ node: n, shape: { sphere: { offset, radius } } });
const capsule = (n, offset, tail, radius) => ({ node: n, shape: { capsule: { offset, radius, tail } } });
const colliders = [
	sphere(head, [0, 0.09, 0], 0.1),
	capsule(neck, [0, 0, 0], [0, 0.08, 0], 0.05),
	capsule(chest, [0, 0, 0], [0, 0.2, 0], 0.09),
	capsule(chest, [-0.17, 0.19, 0], [0.17, 0.19, 0], 0.05),
	sphere(hips, [0, 0, 0], 0.13),
	capsule(thighL, [0, 0, 0], [0, -0.42, 0], 0.07),
	capsule(thighR, [0, 0, 0], [0, -0.42, 0], 0.07),
];
const colliderGroups = [
	{ name: 'Head', colliders: [0, 1] },
	{ name: 'Upper body', colliders: [2, 3] },
	{ name: 'Hips and thighs', colliders: [4, 5, 6] },
];
const springs = [
	{ name: 'Hair back L', joints: strand('HairBack_L', head, [0.05, 0.04, -0.11], 0.04, hair), colliderGroups: [0, 1] },
	{ name: 'Hair back R', joints: strand('HairBack_R', head, [-0.05, 0.04, -0.11], 0.04, hair), colliderGroups: [0, 1] },
	{ name: 'Hair side L', joints: strand('HairSide_L', head, [0.1, 0.02, -0.07], 0.04, hair), colliderGroups: [0, 1] },
	{ name: 'Hair side R', joints: strand('HairSide_R', head, [-0.1, 0.02, -0.07], 0.04, hair), colliderGroups: [0, 1] },
	{ name: 'Skirt front L', joints: strand('SkirtFront_L', hips, [0.11, -0.04, 0.1], 0.05, skirt), colliderGroups: [2] },
	{ name: 'Skirt front R', joints: strand('SkirtFront_R', hips, [-0.11, -0.04, 0.1], 0.05, skirt), colliderGroups: [2] },
	{ name: 'Skirt back L', joints: strand('SkirtBack_L', hips, [0.11, -0.04, -0.1], 0.05, skirt), colliderGroups: [2] },
	{ name: 'Skirt back R', joints: strand('SkirtBack_R', hips, [-0.11, -0.04, -0.1], 0.05, skirt), colliderGroups: [2] },
];

const gltf = {
	asset: { version: '2.0', generator: 'libspring bench/models/synthetic-64.mjs' },
	extensionsUsed: ['VRMC_springBone'],
	scene: 0,
	scenes: [{ nodes: [hips] }],
	nodes,
	extensions: { VRMC_springBone: { specVersion: '1.0', colliders, colliderGroups, springs } },
};
// One line per node, collider, group and spring keeps the file diff-friendly.
const list = (items, indent) => items.map((x) => `${indent}${JSON.stringify(x)}`).join(',\n');
const text = [
	'{',
	`  "asset": ${JSON.stringify(gltf.asset)},`,
	`  "extensionsUsed": ${JSON.stringify(gltf.extensionsUsed)},`,
	`  "scene": 0,`,
	`  "scenes": ${JSON.stringify(gltf.scenes)},`,
	'  "nodes": [',
	list(nodes, '    '),
	'  ],',
	'  "extensions": {"VRMC_springBone": {',
	'    "specVersion": "1.0",',
	'    "colliders": [',
	list(colliders, '      '),
	'    ],',
	'    "colliderGroups": [',
	list(colliderGroups, '      '),
	'    ],',
	'    "springs": [',
	list(springs, '      '),
	'    ]',
	'  }}',
	'}',
	'',
].join('\n');
if (JSON.stringify(JSON.parse(text)) !== JSON.stringify(gltf)) throw new Error('synthetic-64: the text is not the avatar');
writeFileSync(join(here, 'synthetic-64.gltf'), text);

// ---- the motion -------------------------------------------------------------------------------

const END = 1.5;
const env = (t) => smooth(t / 0.25) * (1 - smooth((t - (END - 0.25)) / 0.25));
const wave = (amplitude, hz, t) => amplitude * env(t) * Math.sin(2 * Math.PI * hz * t);
const motion = {
	duration: 2,
	tracks: [
		{ node: '$root', translation: keys(END, (t) => [wave(0.06, 1.5, t), 0, 0]) },
		{ node: 'Hips', rotation: keys(END, (t) => qaxis(0, 1, 0, wave(15 * DEG, 1.5, t))) },
		{
			node: 'Head',
			rotation: keys(END, (t) => qmul(qaxis(0, 1, 0, wave(30 * DEG, 3, t)), qaxis(1, 0, 0, wave(10 * DEG, 1.5, t)))),
		},
		{ node: 'UpperLeg_L', rotation: keys(END, (t) => qaxis(1, 0, 0, wave(25 * DEG, 1.5, t))) },
		{ node: 'UpperLeg_R', rotation: keys(END, (t) => qaxis(1, 0, 0, wave(-25 * DEG, 1.5, t))) },
	],
};
writeFileSync(join(here, 'synthetic-64-shake.json'), motionText(motion));
console.log(`bench/models/synthetic-64.gltf: ${nodes.length} nodes, ${springs.length} springs, ` +
	`${springs.reduce((n, s) => n + s.joints.length - 1, 0)} joints with a tail, ${colliders.length} colliders`);
console.log('bench/models/synthetic-64-shake.json');
