// SPDX-License-Identifier: MIT
// Generates the three-vrm goldens of the VRM spring-bone conformance tests:
// tests/vrm/golden/<model>-<motion>-<fps>.csv from tests/vrm/models and tests/vrm/motions, with
// three.js's GLTFLoader and @pixiv/three-vrm-springbone's VRMSpringBoneLoaderPlugin (versions
// pinned in package.json / package-lock.json). The rules are in tests/vrm/README.md.
// Usage (from tests/vrm/threevrm): npm ci && node gen.mjs [--fps 24,30,60,120,240] [--out DIR]
import { writeFileSync, readdirSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { VRMSpringBoneLoaderPlugin } from '@pixiv/three-vrm-springbone';
import { attachMotion, loadModel, readMotion } from './model.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const vrmDir = join(here, '..');
const lib = { THREE, GLTFLoader, VRMSpringBoneLoaderPlugin };

// Models: id (used in golden names and per-model motion names) and file.
const MODELS = [
	{ id: 'sphere-collider', file: 'sphere-collider.gltf' },
	{ id: 'inside-collider', file: 'inside-collider.gltf' },
	{ id: 'plane-collider', file: 'plane-collider.gltf' },
	{ id: 'godette', file: 'Godette_vrm_v4.vrm' },
];
// Generic motions, applied to every model unless tests/vrm/motions/<model id>-<motion>.json exists.
const MOTIONS = ['sway', 'turn', 'walk', 'shake'];
// The committed goldens: every model x motion at 60 fps; the frame-rate spread (24, 30, 120,
// 240 fps) only for these model-motion pairs, to keep the committed CSVs near 4 MB. --fps gives
// any other set (for every pair).
const GOLDEN_FPS = 60;
const SPREAD_FPS = [24, 30, 120, 240];
const SPREAD = new Set(['sphere-collider-sway', 'sphere-collider-shake', 'plane-collider-sway', 'plane-collider-shake']);

// ---- %.9g -------------------------------------------------------------------------------------

// C's printf("%.9g", x) for a finite double: the exact binary value rounded to 9 significant
// digits, half to even (glibc), fixed notation when -4 <= exponent < 9, else d.dddde[+-]XX;
// trailing zeros (and a trailing point) removed; -0 prints as "-0".
function g9(x) {
	if (!Number.isFinite(x)) throw new Error(`g9: not finite: ${x}`);
	const P = 9;
	const neg = x < 0 || Object.is(x, -0);
	const a = Math.abs(x);
	if (a === 0) return neg ? '-0' : '0';
	// a = m * 2^e exactly, m an integer
	const dv = new DataView(new ArrayBuffer(8));
	dv.setFloat64(0, a);
	const hi = dv.getUint32(0), lo = dv.getUint32(4);
	const bexp = (hi >>> 20) & 0x7ff;
	let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
	let e;
	if (bexp === 0) e = -1074;
	else { m |= 1n << 52n; e = bexp - 1075; }
	// exact decimal: a = digits * 10^-scale
	let digits, scale;
	if (e >= 0) { digits = m << BigInt(e); scale = 0; }
	else { digits = m * 5n ** BigInt(-e); scale = -e; }
	let s = digits.toString();
	// decimal exponent of the leading digit
	let X = s.length - 1 - scale;
	// round to P significant digits, half to even on the exact value
	if (s.length > P) {
		const head = BigInt(s.slice(0, P));
		const rest = s.slice(P);
		const half = '5' + '0'.repeat(rest.length - 1);
		let r = head;
		if (rest > half || (rest === half && (head & 1n) === 1n)) r = head + 1n;
		s = r.toString();
		if (s.length > P) { s = s.slice(0, P); X += 1; } // 999999999.5 -> 1000000000
	} else {
		s = s + '0'.repeat(P - s.length);
	}
	let out;
	if (X < -4 || X >= P) {
		let mant = s[0] + '.' + s.slice(1);
		mant = mant.replace(/0+$/, '').replace(/\.$/, '');
		const ex = Math.abs(X);
		out = `${mant}e${X < 0 ? '-' : '+'}${ex < 10 ? '0' : ''}${ex}`;
	} else if (X >= 0) {
		out = s.slice(0, X + 1) + '.' + s.slice(X + 1);
		out = out.replace(/0+$/, '').replace(/\.$/, '');
	} else {
		out = '0.' + '0'.repeat(-X - 1) + s;
		out = out.replace(/0+$/, '').replace(/\.$/, '');
	}
	return (neg ? '-' : '') + out;
}

// ---- one run ----------------------------------------------------------------------------------

async function run(model, motionName, motion, fpsList) {
	const loaded = await loadModel(lib, join(vrmDir, 'models', model.file));
	const indexOf = new Map(loaded.nodes.map((o, i) => [o, i]));
	// joints in file order (the manager's insertion order: springs, then joints; VRM 0.x: bone
	// groups, root bones, depth-first pre-order, children[0] as the tail)
	const { root, names, joints, pose } = attachMotion(lib, loaded, model.file, motion, motionName);
	const manager = loaded.manager;

	const results = {};
	for (const fps of fpsList) {
		// rest state under the t = 0 pose: joints at their initial local rotation, tails at rest,
		// zero velocity (VRMSpringBoneManager.reset)
		pose(0);
		manager.reset();
		root.updateMatrixWorld(true);
		const rows = ['fps,frame,time,node,qx,qy,qz,qw,tx,ty,tz'];
		const n = Math.round(motion.duration * fps);
		const dt = 1 / fps;
		const tail = new THREE.Vector3();
		for (let i = 1; i <= n; i++) {
			const t = i / fps;
			pose(t);
			manager.update(dt);
			for (const j of joints) {
				const q = j.bone.quaternion;
				tail.copy(j._currentTail).applyMatrix4(j._getMatrixCenterToWorld());
				rows.push([fps, i, g9(t), names[indexOf.get(j.bone)],
					g9(q.x), g9(q.y), g9(q.z), g9(q.w), g9(tail.x), g9(tail.y), g9(tail.z)].join(','));
			}
		}
		results[fps] = { csv: rows.join('\n') + '\n', joints: joints.length, frames: n };
	}
	return results;
}

// ---- main -------------------------------------------------------------------------------------

function selfTest() {
	const cases = [[0, '0'], [-0, '-0'], [1, '1'], [0.1, '0.1'], [1 / 3, '0.333333333'],
		[123456789, '123456789'], [1234567890, '1.23456789e+09'], [0.0001, '0.0001'], [0.00001, '1e-05'],
		[12345678.25, '12345678.2'], [12345678.75, '12345678.8'], [999999999.5, '1e+09'], [-2.5e-7, '-2.5e-07'],
		[1e100, '1e+100'], [5e-324, '4.94065646e-324'], [0.30000000000000004, '0.3'], [2 / 3, '0.666666667']];
	for (const [x, want] of cases) {
		const got = g9(x);
		if (got !== want) throw new Error(`g9(${x}) = ${got}, want ${want}`);
	}
}

async function main() {
	const args = process.argv.slice(2);
	let fpsOverride = null;
	let outDir = join(vrmDir, 'golden');
	for (let i = 0; i < args.length; i++) {
		if (args[i] === '--fps') fpsOverride = args[++i].split(',').map(Number);
		else if (args[i] === '--out') outDir = args[++i];
		else throw new Error(`usage: node gen.mjs [--fps 24,30,60] [--out DIR]`);
	}
	selfTest();
	mkdirSync(outDir, { recursive: true });
	const motionFiles = new Set(readdirSync(join(vrmDir, 'motions')));
	let bytes = 0;
	for (const model of MODELS) {
		for (const motionName of MOTIONS) {
			const own = `${model.id}-${motionName}.json`;
			const file = motionFiles.has(own) ? own : `${motionName}.json`;
			const motion = readMotion(join(vrmDir, 'motions', file));
			const fpsList = fpsOverride ??
				[...(SPREAD.has(`${model.id}-${motionName}`) ? SPREAD_FPS.slice(0, 2) : []), GOLDEN_FPS,
					...(SPREAD.has(`${model.id}-${motionName}`) ? SPREAD_FPS.slice(2) : [])];
			const results = await run(model, file, motion, fpsList);
			for (const fps of fpsList) {
				const name = `${model.id}-${motionName}-${fps}.csv`;
				writeFileSync(join(outDir, name), results[fps].csv);
				bytes += results[fps].csv.length;
				console.log(`${name}: motions/${file}, ${results[fps].joints} joints x ${results[fps].frames} frames, ${results[fps].csv.length} bytes`);
			}
		}
	}
	console.log(`total ${bytes} bytes`);
}

export { g9, lib };
if (process.argv[1] === fileURLToPath(import.meta.url)) main().catch((e) => { console.error(e); process.exit(1); });
