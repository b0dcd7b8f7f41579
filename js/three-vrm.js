// SPDX-License-Identifier: MIT
// 'libspring/three-vrm': a three-vrm avatar's spring bones driven by libspring instead of
// three-vrm's own per-frame update. The avatar as three-vrm loaded it (its node tree, joints and
// their settings, colliders, centres) is described to the library's VRM reader as a
// VRMC_springBone 1.0 document; every frame the nodes' local transforms go in and the joints'
// rotations come out. It reads only the three.js objects' fields (position, quaternion, scale,
// parent, children, matrixWorld): neither three nor @pixiv/three-vrm is imported.
import { SpringError, describe, record } from './runtime.js';
import { TRANSFORM_FLOATS, Vrm } from './vrm.js';

const OPTION_KEYS = ['rate', 'length', 'root', 'interpolate'];

// The spring-bone manager of a VRM (vrm.springBoneManager) or the manager itself.
function managerOf(target) {
	const manager = target?.springBoneManager ?? target;
	if (manager === null || typeof manager !== 'object' || !(manager.joints instanceof Set)) {
		throw new TypeError(`useLibspring: give a three-vrm VRM or its springBoneManager (got ${describe(target)})`);
	}
	return manager;
}

const isCollider = (o) => o.shape !== undefined && o.colliderMatrix !== undefined;
const xyz = (v) => [v.x, v.y, v.z];

// VRMC_springBone 1.0 (three-vrm's joints of a 1.0 avatar): springs, chains of joints, each
// joint's child the next joint's bone, the last child the spring's tail; colliders of every
// shape as extended colliders.
function springBone1(joints, byBone, nodeOf) {
	const colliders = [];
	const colliderIndex = new Map();
	const groups = [];
	const groupIndex = new Map();
	const groupOf = (g) => {
		if (!groupIndex.has(g)) {
			groupIndex.set(g, groups.length);
			groups.push({ colliders: g.colliders.map((c) => {
				if (!colliderIndex.has(c)) {
					colliderIndex.set(c, colliders.length);
					const s = c.shape;
					const inside = s.inside === true;
					const shape = s.type === 'plane' ? { plane: { offset: xyz(s.offset), normal: xyz(s.normal) } }
						: s.type === 'capsule' ? { capsule: { offset: xyz(s.offset), tail: xyz(s.tail), radius: s.radius, inside } }
							: { sphere: { offset: xyz(s.offset), radius: s.radius, inside } };
					colliders.push({ node: nodeOf(c.parent, 'a collider\'s node'), shape: {},
						extensions: { VRMC_springBone_extended_collider: { specVersion: '1.0', shape } } });
				}
				return colliderIndex.get(c);
			}) });
		}
		return groupIndex.get(g);
	};
	const inside = new Set(joints.map((j) => j.child).filter((c) => byBone.has(c)));
	const springs = [];
	for (const first of joints) {
		if (inside.has(first.bone)) {
			continue;
		}
		const list = [];
		let j = first;
		for (;;) {
			const s = j.settings;
			list.push({ node: nodeOf(j.bone, 'a joint'), hitRadius: s.hitRadius, stiffness: s.stiffness,
				gravityPower: s.gravityPower, gravityDir: xyz(s.gravityDir), dragForce: s.dragForce });
			const next = byBone.get(j.child);
			if (next === undefined) {
				break;
			}
			j = next;
		}
		list.push({ node: nodeOf(j.child, 'a joint\'s child') });
		const spring = { joints: list, colliderGroups: first.colliderGroups.map(groupOf) };
		if (first.center) {
			spring.center = nodeOf(first.center, 'a spring\'s centre');
		}
		springs.push(spring);
	}
	return { specVersion: '1.0', colliders, colliderGroups: groups, springs };
}

// VRM 0.x secondaryAnimation (three-vrm's joints of a 0.x avatar: a joint without a child is a
// leaf with the 7 cm tail, which only this form describes): a bone group per root joint, with its
// settings, and a collider group per three-vrm collider group (spheres on one node; offsets
// written with z negated, as 0.x files hold them).
function secondaryAnimation(joints, byBone, nodeOf) {
	const colliderGroups = [];
	const groupIndex = new Map();
	const groupOf = (g) => {
		if (!groupIndex.has(g)) {
			const node = g.colliders[0]?.parent;
			for (const c of g.colliders) {
				if (c.parent !== node || c.shape.type !== 'sphere' || c.shape.inside) {
					throw new SpringError('useLibspring: a VRM 0.x avatar\'s collider group holds more than outside spheres on one '
						+ 'node', 'BAD_DEFINITION');
				}
			}
			groupIndex.set(g, colliderGroups.length);
			colliderGroups.push({ node: node ? nodeOf(node, 'a collider\'s node') : 0, colliders: g.colliders.map((c) => ({
				offset: { x: c.shape.offset.x, y: c.shape.offset.y, z: -c.shape.offset.z }, radius: c.shape.radius })) });
		}
		return groupIndex.get(g);
	};
	const boneGroups = joints.filter((j) => !byBone.has(j.bone.parent)).map((j) => {
		const s = j.settings;
		return { bones: [nodeOf(j.bone, 'a joint')], stiffiness: s.stiffness, gravityPower: s.gravityPower,
			gravityDir: { x: s.gravityDir.x, y: s.gravityDir.y, z: s.gravityDir.z }, dragForce: s.dragForce,
			hitRadius: s.hitRadius, center: j.center ? nodeOf(j.center, 'a spring\'s centre') : -1,
			colliderGroups: j.colliderGroups.map(groupOf) };
	});
	return { boneGroups, colliderGroups };
}

// The glTF document of the avatar as it is now (the joints at their initial rotations): nodes (the
// root's descendants, colliders left out), and the springs as chains of joints.
function describeAvatar(manager, root) {
	const nodes = [];
	const index = new Map();
	const visit = (o) => {
		index.set(o, nodes.length);
		nodes.push(o);
		for (const child of o.children) {
			if (!isCollider(child)) {
				visit(child);
			}
		}
	};
	root.children.filter((c) => !isCollider(c)).forEach(visit);
	const gltfNodes = nodes.map((o) => ({
		translation: xyz(o.position), rotation: [o.quaternion.x, o.quaternion.y, o.quaternion.z, o.quaternion.w],
		scale: xyz(o.scale), children: [],
	}));
	nodes.forEach((o, i) => {
		if (o.parent !== root) {
			gltfNodes[index.get(o.parent)].children.push(i);
		}
	});
	const nodeOf = (o, what) => {
		const i = index.get(o);
		if (i === undefined) {
			throw new SpringError(`useLibspring: ${what} "${o.name}" is not under the model root`, 'BAD_DEFINITION');
		}
		return i;
	};
	const joints = [...manager.joints];
	const byBone = new Map(joints.map((j) => [j.bone, j]));
	const extensions = joints.some((j) => !j.child) ? { VRM: { secondaryAnimation: secondaryAnimation(joints, byBone, nodeOf) } }
		: { VRMC_springBone: springBone1(joints, byBone, nodeOf) };
	gltfNodes.forEach((n, i) => {
		n.name = i < nodes.length ? (nodes[i].name || `#${i}`) : `#${i}`;
		if (n.children.length === 0) {
			delete n.children;
		}
	});
	const gltf = {
		asset: { version: '2.0' },
		extensionsUsed: extensions.VRM ? ['VRM'] : ['VRMC_springBone', 'VRMC_springBone_extended_collider'],
		scenes: [{ nodes: nodes.flatMap((o, i) => (o.parent === root ? [i] : [])) }],
		scene: 0,
		nodes: gltfNodes,
		extensions,
	};
	return { gltf, nodes };
}

/**
 * A three-vrm avatar's springs stepped by libspring: `update(dt)` (what the manager's update now
 * does), `reset()`, `dispose()` (gives the manager its own update back). `vrm` is the libspring
 * model (its rotations and tails).
 */
class LibspringSpringBones {
	constructor(manager, root, options) {
		this._manager = manager;
		this._root = root;
		this._interpolate = options.interpolate !== false;
		manager.reset(); // the joints at their initial rotations: the rest pose
		root.updateWorldMatrix(true, true);
		const { gltf, nodes } = describeAvatar(manager, root);
		this._nodes = nodes;
		this.vrm = Vrm.load(gltf, { name: 'three-vrm avatar', rate: options.rate, length: options.length ?? 'measured' });
		this._transforms = this.vrm.restTransforms.slice();
		this._pose = this.vrm.steppedPose();
		this._bones = Array.from(this.vrm.boneNodes, (n) => nodes[n]);
		// the objects matrixWorld is refreshed from: each spring's first bone
		const heads = new Set(this._bones);
		this._chainRoots = this._bones.filter((b) => !heads.has(b.parent));
		// scratch for the root's world transform (the root's own vectors' kinds: no three import)
		this._p = root.position.clone();
		this._q = root.quaternion.clone();
		this._s = root.scale.clone();
		this._original = { update: manager.update, reset: manager.reset };
		manager.update = (dt) => this.update(dt);
		manager.reset = () => this.reset();
		this._read();
		this.vrm.reset(this._transforms);
	}

	// The root's world transform and every node's local one into the transforms array.
	_read() {
		const t = this._transforms;
		const root = this._root;
		root.updateWorldMatrix(true, false);
		root.matrixWorld.decompose(this._p, this._q, this._s);
		t[0] = this._p.x;
		t[1] = this._p.y;
		t[2] = this._p.z;
		t[3] = this._q.x;
		t[4] = this._q.y;
		t[5] = this._q.z;
		t[6] = this._q.w;
		const nodes = this._nodes;
		for (let i = 0; i < nodes.length; i++) {
			const o = nodes[i];
			const b = (i + 1) * TRANSFORM_FLOATS;
			t[b] = o.position.x;
			t[b + 1] = o.position.y;
			t[b + 2] = o.position.z;
			t[b + 3] = o.quaternion.x;
			t[b + 4] = o.quaternion.y;
			t[b + 5] = o.quaternion.z;
			t[b + 6] = o.quaternion.w;
		}
	}

	// The joints' rotations onto the bones, their world matrices refreshed.
	_write() {
		const r = this._interpolate ? this.vrm.rotations : this.vrm.steppedPose(this._pose).rotations;
		const bones = this._bones;
		for (let b = 0; b < bones.length; b++) {
			const bone = bones[b];
			bone.quaternion.set(r[4 * b], r[4 * b + 1], r[4 * b + 2], r[4 * b + 3]);
			bone.updateMatrix();
		}
		for (let k = 0; k < this._chainRoots.length; k++) {
			this._chainRoots[k].updateWorldMatrix(false, true);
		}
	}

	/** One frame of `dt` seconds under the avatar's current pose (the nodes' local transforms and the root's place). */
	update(dt) {
		this._read();
		this.vrm.update(this._transforms, dt);
		this._write();
		return this;
	}

	/** Every spring at rest under the current pose. */
	reset() {
		this._read();
		this.vrm.reset(this._transforms);
		this._write();
		return this;
	}

	/** The avatar jumped: the springs move with the root without seeing it. */
	teleport() {
		this._read();
		this.vrm.teleport(this._transforms);
		this._write();
		return this;
	}

	/** True when the last step moved no tail by more than 1e-6 of its bone's length. */
	get isResting() {
		return this.vrm.isResting;
	}

	/** Gives the manager its own update and reset back and frees the libspring model. */
	dispose() {
		if (this._original) {
			this._manager.update = this._original.update;
			this._manager.reset = this._original.reset;
			this._original = null;
			this.vrm.dispose();
		}
	}
}

/**
 * Drives a three-vrm avatar's springs with libspring: `useLibspring(vrm)` and the avatar's own
 * `vrm.update(dt)` (or `springBoneManager.update(dt)`) steps libspring from then on. options: rate
 * (Hz, default 60), length ('measured', three-vrm's bone length and the default here, or
 * 'rest'), root (the model root object: default vrm.scene, or the topmost ancestor of the joints),
 * interpolate (false: the pose of the last step, for frames that are steps).
 */
export function useLibspring(vrm, options = undefined) {
	const o = record(options, 'options', true, OPTION_KEYS);
	const manager = managerOf(vrm);
	let root = o.root ?? (vrm !== manager ? vrm.scene : undefined);
	if (root === undefined) {
		const [first] = manager.joints;
		root = first?.bone;
		while (root?.parent) {
			root = root.parent;
		}
	}
	if (!root || !Array.isArray(root.children)) {
		throw new TypeError(`useLibspring: options.root must be a three.js object (got ${describe(root)})`);
	}
	return new LibspringSpringBones(manager, root, o);
}
