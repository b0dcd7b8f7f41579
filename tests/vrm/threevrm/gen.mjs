// SPDX-License-Identifier: MIT
// Generates the three-vrm goldens of the VRM spring-bone conformance tests:
// tests/vrm/golden/<model>-<motion>-<fps>.csv from tests/vrm/models and tests/vrm/motions, with
// three.js's GLTFLoader and @pixiv/three-vrm-springbone's VRMSpringBoneLoaderPlugin (versions
// pinned in package.json / package-lock.json). The rules are in tests/vrm/README.md.
// Usage (from tests/vrm/threevrm): npm ci && node gen.mjs [--fps 24,30,60,120,240] [--out DIR]
import { readFileSync, writeFileSync, readdirSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { VRMSpringBoneLoaderPlugin } from '@pixiv/three-vrm-springbone';

const here = dirname(fileURLToPath(import.meta.url));
const vrmDir = join(here, '..');

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

// ---- model loading ----------------------------------------------------------------------------

// Reads a .gltf (external .bin buffers) or .glb/.vrm and returns a GLB ArrayBuffer with one BIN
// chunk, no images, textures, samplers or materials (three's file loader and image decoders need
// browser APIs; the springs need none of them). Node indices are unchanged. Also returns the JSON
// as written in the file (for node names and joint order).
function loadAsGlb(path) {
	const raw = readFileSync(path);
	let json, bins;
	if (raw.readUInt32LE(0) === 0x46546c67) { // "glTF"
		let off = 12;
		const jl = raw.readUInt32LE(off);
		json = JSON.parse(raw.subarray(off + 8, off + 8 + jl).toString('utf8'));
		off += 8 + jl;
		const bl = raw.readUInt32LE(off);
		bins = [raw.subarray(off + 8, off + 8 + bl)];
	} else {
		json = JSON.parse(raw.toString('utf8'));
		bins = json.buffers.map((b) => {
			if (b.uri.startsWith('data:')) throw new Error('data: URIs not handled');
			return readFileSync(join(dirname(path), decodeURIComponent(b.uri)));
		});
	}
	const original = JSON.parse(JSON.stringify(json));
	// merge all buffers into buffer 0, 8-byte aligned
	const starts = [];
	let total = 0;
	for (const b of bins) { starts.push(total); total += Math.ceil(b.length / 8) * 8; }
	const bin = Buffer.alloc(total);
	bins.forEach((b, i) => b.copy(bin, starts[i]));
	for (const bv of json.bufferViews ?? []) {
		bv.byteOffset = (bv.byteOffset ?? 0) + starts[bv.buffer];
		bv.buffer = 0;
	}
	json.buffers = [{ byteLength: total }];
	delete json.images; delete json.textures; delete json.samplers; delete json.materials;
	for (const mesh of json.meshes ?? []) for (const p of mesh.primitives) delete p.material;
	let jtext = Buffer.from(JSON.stringify(json), 'utf8');
	const jpad = Math.ceil(jtext.length / 4) * 4;
	jtext = Buffer.concat([jtext, Buffer.alloc(jpad - jtext.length, 0x20)]);
	const glb = Buffer.alloc(12 + 8 + jpad + 8 + total);
	glb.writeUInt32LE(0x46546c67, 0); glb.writeUInt32LE(2, 4); glb.writeUInt32LE(glb.length, 8);
	glb.writeUInt32LE(jpad, 12); glb.writeUInt32LE(0x4e4f534a, 16); jtext.copy(glb, 20);
	glb.writeUInt32LE(total, 20 + jpad); glb.writeUInt32LE(0x004e4942, 24 + jpad); bin.copy(glb, 28 + jpad);
	return { glb: glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.length), json: original };
}

async function loadModel(path) {
	const { glb, json } = loadAsGlb(path);
	const loader = new GLTFLoader();
	loader.register((parser) => new VRMSpringBoneLoaderPlugin(parser));
	const gltf = await new Promise((resolve, reject) => loader.parse(glb, '', resolve, reject));
	const manager = gltf.userData.vrmSpringBoneManager;
	if (!manager) throw new Error(`${path}: no spring bones`);
	const nodes = await gltf.parser.getDependencies('node'); // three object per glTF node index
	return { gltf, json, manager, nodes };
}

// Node naming: the glTF name as written in the file when unique, else #INDEX.
function nodeNames(json) {
	const count = new Map();
	for (const n of json.nodes) if (n.name !== undefined) count.set(n.name, (count.get(n.name) ?? 0) + 1);
	return json.nodes.map((n, i) => (n.name !== undefined && count.get(n.name) === 1 ? n.name : `#${i}`));
}

// ---- motions ----------------------------------------------------------------------------------

function readMotion(path) {
	const m = JSON.parse(readFileSync(path, 'utf8'));
	if (!(m.duration > 0) || !Array.isArray(m.tracks)) throw new Error(`${path}: bad motion`);
	for (const tr of m.tracks) {
		for (const [k, w] of [['translation', 4], ['rotation', 5]]) {
			if (tr[k] === undefined) continue;
			if (!tr[k].length) throw new Error(`${path}: empty ${k} track`);
			for (let i = 0; i < tr[k].length; i++) {
				if (tr[k][i].length !== w) throw new Error(`${path}: ${tr.node} ${k} key ${i} needs ${w} numbers`);
				if (i && !(tr[k][i][0] > tr[k][i - 1][0])) throw new Error(`${path}: ${tr.node} ${k} key times must increase`);
			}
			if (k === 'rotation') {
				tr[k] = tr[k].map(([t, x, y, z, w4]) => {
					const n = Math.hypot(x, y, z, w4);
					if (!(n > 0)) throw new Error(`${path}: zero quaternion`);
					return [t, x / n, y / n, z / n, w4 / n];
				});
			}
		}
	}
	return m;
}

// The key segment of t: clamped to the end keys, else the last key k with t_k <= t.
function segment(keys, t) {
	if (t <= keys[0][0]) return [keys[0], keys[0], 0];
	const last = keys[keys.length - 1];
	if (t >= last[0]) return [last, last, 0];
	let k = 0;
	while (keys[k + 1][0] <= t) k++;
	const a = keys[k], b = keys[k + 1];
	return [a, b, (t - a[0]) / (b[0] - a[0])];
}

function sampleTranslation(keys, t) {
	const [a, b, u] = segment(keys, t);
	return [a[1] + (b[1] - a[1]) * u, a[2] + (b[2] - a[2]) * u, a[3] + (b[3] - a[3]) * u];
}

// Shortest-arc slerp of normalised keys; result normalised.
function sampleRotation(keys, t) {
	const [a, b, u] = segment(keys, t);
	const qa = a.slice(1);
	let qb = b.slice(1);
	let d = qa[0] * qb[0] + qa[1] * qb[1] + qa[2] * qb[2] + qa[3] * qb[3];
	if (d < 0) { qb = qb.map((v) => -v); d = -d; }
	let wa, wb;
	if (d > 1 - 1e-12) { wa = 1 - u; wb = u; } // (nearly) equal keys: lerp
	else {
		const th = Math.acos(Math.min(1, d));
		const s = Math.sin(th);
		wa = Math.sin((1 - u) * th) / s;
		wb = Math.sin(u * th) / s;
	}
	const q = [0, 1, 2, 3].map((i) => wa * qa[i] + wb * qb[i]);
	const n = Math.hypot(...q);
	return q.map((v) => v / n);
}

// ---- one run ----------------------------------------------------------------------------------

async function run(model, motionName, motion, fpsList) {
	const { gltf, json, manager, nodes } = await loadModel(join(vrmDir, 'models', model.file));
	const names = nodeNames(json);
	const indexOf = new Map(nodes.map((o, i) => [o, i]));
	const root = new THREE.Group();
	root.name = '$root';
	root.add(gltf.scene);

	// joints in file order (the manager's insertion order: springs, then joints; VRM 0.x: bone
	// groups, root bones, depth-first pre-order, children[0] as the tail)
	const joints = [...manager.joints];
	const jointNodes = new Set();
	for (const j of joints) {
		jointNodes.add(j.bone);
		if (j.child) jointNodes.add(j.child);
	}

	// resolve the tracks
	const tracks = motion.tracks.map((tr) => {
		let obj;
		if (tr.node === '$root') obj = root;
		else {
			const i = names.indexOf(tr.node);
			if (i < 0) throw new Error(`${motionName}: no node named ${JSON.stringify(tr.node)} in ${model.file} (non-unique names are #INDEX)`);
			obj = nodes[i];
		}
		if (jointNodes.has(obj)) throw new Error(`${motionName}: ${tr.node} is a spring joint of ${model.file}`);
		return { obj, tr, restT: obj.position.clone(), restR: obj.quaternion.clone() };
	});
	const pose = (t) => {
		for (const { obj, tr, restT, restR } of tracks) {
			if (tr.translation) obj.position.fromArray(sampleTranslation(tr.translation, t));
			else obj.position.copy(restT);
			if (tr.rotation) obj.quaternion.fromArray(sampleRotation(tr.rotation, t));
			else obj.quaternion.copy(restR);
		}
		root.updateMatrixWorld(true);
	};

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

export { g9 };
if (process.argv[1] === fileURLToPath(import.meta.url)) main().catch((e) => { console.error(e); process.exit(1); });
