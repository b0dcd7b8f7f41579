// SPDX-License-Identifier: MIT
// Loading a spring-bone model into three-vrm under Node, and driving it with a motion
// (tests/vrm/README.md: the motion format and how three-vrm is driven). Shared by gen.mjs (the
// conformance goldens) and bench/peers/peers.mjs (the three-vrm rows of `make bench`). The three.js
// and three-vrm classes are the caller's, from its own pinned packages:
//   lib = { THREE, GLTFLoader, VRMSpringBoneLoaderPlugin }
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

// Reads a .gltf (external .bin buffers) or .glb/.vrm and returns a GLB ArrayBuffer with one BIN
// chunk, no images, textures, samplers or materials (three's file loader and image decoders need
// browser APIs; the springs need none of them). Node indices are unchanged. Also returns the JSON
// as written in the file (for node names and joint order). With `nodesOnly`, the meshes, skins,
// animations and their data are dropped too, so that three's scene holds one object per glTF node
// and nothing else.
function loadAsGlb(path, { nodesOnly = false } = {}) {
	const raw = readFileSync(path);
	let json, bins;
	if (raw.readUInt32LE(0) === 0x46546c67) { // "glTF"
		let off = 12;
		const jl = raw.readUInt32LE(off);
		json = JSON.parse(raw.subarray(off + 8, off + 8 + jl).toString('utf8'));
		off += 8 + jl;
		const bl = off + 8 <= raw.length ? raw.readUInt32LE(off) : 0;
		bins = bl ? [raw.subarray(off + 8, off + 8 + bl)] : [];
	} else {
		json = JSON.parse(raw.toString('utf8'));
		bins = (json.buffers ?? []).map((b) => {
			if (b.uri.startsWith('data:')) throw new Error('data: URIs not handled');
			return readFileSync(join(dirname(path), decodeURIComponent(b.uri)));
		});
	}
	const original = JSON.parse(JSON.stringify(json));
	if (nodesOnly) {
		for (const node of json.nodes ?? []) { delete node.mesh; delete node.skin; delete node.camera; }
		for (const key of ['meshes', 'skins', 'animations', 'accessors', 'bufferViews', 'cameras']) delete json[key];
		bins = [];
	}
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
	if (total) json.buffers = [{ byteLength: total }];
	else delete json.buffers;
	delete json.images; delete json.textures; delete json.samplers; delete json.materials;
	for (const mesh of json.meshes ?? []) for (const p of mesh.primitives) delete p.material;
	let jtext = Buffer.from(JSON.stringify(json), 'utf8');
	const jpad = Math.ceil(jtext.length / 4) * 4;
	jtext = Buffer.concat([jtext, Buffer.alloc(jpad - jtext.length, 0x20)]);
	const binChunk = total ? 8 + total : 0;
	const glb = Buffer.alloc(12 + 8 + jpad + binChunk);
	glb.writeUInt32LE(0x46546c67, 0); glb.writeUInt32LE(2, 4); glb.writeUInt32LE(glb.length, 8);
	glb.writeUInt32LE(jpad, 12); glb.writeUInt32LE(0x4e4f534a, 16); jtext.copy(glb, 20);
	if (total) { glb.writeUInt32LE(total, 20 + jpad); glb.writeUInt32LE(0x004e4942, 24 + jpad); bin.copy(glb, 28 + jpad); }
	return { glb: glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.length), json: original };
}

// Parses a GLB from loadAsGlb with three's GLTFLoader and three-vrm's spring-bone plugin (whose
// setInitState() runs in the plugin, at the file's rest pose). Returns the glTF, its spring-bone
// manager and the three object of every glTF node index.
async function parseModel(lib, glb, what) {
	const loader = new lib.GLTFLoader();
	loader.register((parser) => new lib.VRMSpringBoneLoaderPlugin(parser));
	const gltf = await new Promise((resolve, reject) => loader.parse(glb, '', resolve, reject));
	const manager = gltf.userData.vrmSpringBoneManager;
	if (!manager) throw new Error(`${what}: no spring bones`);
	const nodes = await gltf.parser.getDependencies('node'); // three object per glTF node index
	return { gltf, manager, nodes };
}

async function loadModel(lib, path, options) {
	const { glb, json } = loadAsGlb(path, options);
	return { json, ...(await parseModel(lib, glb, path)) };
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

// A loaded model under a motion: `root` (the motion's "$root", a THREE.Group holding the glTF
// scene, identity at rest), the model's spring joints in the manager's order, and the motion's
// tracks resolved to three objects, each with its rest translation and rotation. `sample(t)` gives
// every track's local [x, y, z] and [qx, qy, qz, qw] at t (a track without translation or rotation
// keys keeps the rest value); `pose(t)` applies them and brings every world matrix up to date.
function attachMotion(lib, model, file, motion, motionName) {
	const { gltf, json, manager, nodes } = model;
	const names = nodeNames(json);
	const root = new lib.THREE.Group();
	root.name = '$root';
	root.add(gltf.scene);
	const joints = [...manager.joints];
	const jointNodes = new Set();
	for (const j of joints) {
		jointNodes.add(j.bone);
		if (j.child) jointNodes.add(j.child);
	}
	const tracks = motion.tracks.map((tr) => {
		let obj;
		if (tr.node === '$root') obj = root;
		else {
			const i = names.indexOf(tr.node);
			if (i < 0) throw new Error(`${motionName}: no node named ${JSON.stringify(tr.node)} in ${file} (non-unique names are #INDEX)`);
			obj = nodes[i];
		}
		if (jointNodes.has(obj)) throw new Error(`${motionName}: ${tr.node} is a spring joint of ${file}`);
		return { obj, tr, restT: obj.position.toArray(), restR: obj.quaternion.toArray() };
	});
	const sample = (t) => tracks.map(({ tr, restT, restR }) => ({
		position: tr.translation ? sampleTranslation(tr.translation, t) : restT,
		quaternion: tr.rotation ? sampleRotation(tr.rotation, t) : restR,
	}));
	const pose = (t) => {
		sample(t).forEach(({ position, quaternion }, k) => {
			tracks[k].obj.position.fromArray(position);
			tracks[k].obj.quaternion.fromArray(quaternion);
		});
		root.updateMatrixWorld(true);
	};
	return { root, names, joints, tracks, sample, pose };
}

export { attachMotion, loadAsGlb, loadModel, nodeNames, parseModel, readMotion };
