// SPDX-License-Identifier: MIT
// Writes the drive motions of the VRM conformance tests, tests/vrm/motions/*.json.
// The JSON files are the definition (the goldens and the C oracle read them); this script only
// records how they were made. Keys are sampled every KEY_DT seconds from the closed forms below and
// rounded to 7 decimals; between keys a motion is piecewise linear (translation) / slerp (rotation).
// Usage: node motions.mjs   (from tests/vrm/threevrm; needs no packages)
// The key helpers (keys, qaxis, qmul, smooth, motionText) are exported for the other motions made
// the same way (bench/models/synthetic-64.mjs).
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'motions');
const KEY_DT = 0.025; // 40 keys a second
const DEG = Math.PI / 180;

const r7 = (v) => {
	const r = Math.round(v * 1e7) / 1e7;
	return Object.is(r, -0) ? 0 : r;
};
const smooth = (u) => (u <= 0 ? 0 : u >= 1 ? 1 : u * u * (3 - 2 * u)); // smoothstep
const qaxis = (ax, ay, az, angle) => {
	const s = Math.sin(angle / 2);
	return [ax * s, ay * s, az * s, Math.cos(angle / 2)];
};
const qmul = (a, b) => [
	a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
	a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
	a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
	a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
];

// Samples f over [0, end] (end a multiple of KEY_DT) into keys [t, ...values].
function keys(end, f) {
	const n = Math.round(end / KEY_DT);
	const k = [];
	for (let i = 0; i <= n; i++) {
		const t = r7(i * KEY_DT);
		k.push([t, ...f(t).map(r7)]);
	}
	return k;
}

// A motion as its file's text: one JSON line per key keeps the files diff-friendly.
function motionText(motion) {
	const lines = ['{', `  "duration": ${motion.duration},`, '  "tracks": ['];
	motion.tracks.forEach((tr, i) => {
		lines.push('    {');
		lines.push(`      "node": ${JSON.stringify(tr.node)},`);
		const parts = [];
		for (const key of ['translation', 'rotation']) {
			if (!tr[key]) continue;
			parts.push(`      "${key}": [\n` + tr[key].map((k) => `        ${JSON.stringify(k)}`).join(',\n') + '\n      ]');
		}
		lines.push(parts.join(',\n'));
		lines.push(i + 1 < motion.tracks.length ? '    },' : '    }');
	});
	lines.push('  ]', '}', '');
	return lines.join('\n');
}

function write(name, motion) {
	writeFileSync(join(out, `${name}.json`), motionText(motion));
	console.log(`motions/${name}.json`);
}

function main() {
	// sway: $root slides side to side along x, 0.25 m at 0.75 Hz for 3 s (eased in over the first
	// half second), then holds still at x = 0 for the last second.
	write('sway', {
		duration: 4,
		tracks: [{
			node: '$root',
			translation: keys(3, (t) => [0.25 * smooth(t / 0.5) * Math.sin(2 * Math.PI * 0.75 * t), 0, 0]),
		}],
	});

	// turn: $root yaws 0 -> 90 degrees -> 0 about a vertical axis through (0, 0, 0.5) (so chains on
	// the model's own y axis, like the collider samples', also feel it), smooth, over 2 s; holds 1 s.
	{
		const pivot = 0.5;
		const yaw = (t) => 90 * DEG * (1 - Math.cos(Math.PI * t)) / 2; // 0 at 0, 90 at 1, 0 at 2
		write('turn', {
			duration: 3,
			tracks: [{
				node: '$root',
				// position = pivot + R_y(yaw) (origin - pivot), pivot = (0, 0, pivot)
				translation: keys(2, (t) => [-pivot * Math.sin(yaw(t)), 0, pivot - pivot * Math.cos(yaw(t))]),
				rotation: keys(2, (t) => qaxis(0, 1, 0, yaw(t))),
			}],
		});
	}

	// walk: $root walks forward (speed eased 0 -> 1.2 m/s over 0.5 s, back to 0 over the last 0.5 s
	// of 3 s) with a 2 Hz vertical bob of 3 cm and a 1 Hz lateral sway of 2 cm; holds for 1 s.
	// dir = +1 walks along +z (VRM 1.0 models face +z), -1 along -z (VRM 0.x models face -z).
	function walkRoot(dir) {
		const v = (t) => 1.2 * smooth(t / 0.5) * (1 - smooth((t - 2.5) / 0.5));
		// distance: integrate v exactly enough with a fine midpoint sum (the keys are the definition)
		const dist = (t) => {
			const n = Math.max(1, Math.round(t / 0.0005));
			let s = 0;
			for (let i = 0; i < n; i++) s += v((i + 0.5) * (t / n));
			return s * (t / n);
		};
		const env = (t) => smooth(t / 0.5) * (1 - smooth((t - 2.5) / 0.5));
		return (t) => [
			0.02 * env(t) * Math.sin(2 * Math.PI * 1 * t),
			0.03 * env(t) * (1 - Math.cos(2 * Math.PI * 2 * t)) / 2,
			dir * dist(t),
		];
	}
	write('walk', {
		duration: 4,
		tracks: [{ node: '$root', translation: keys(3, walkRoot(1)) }],
	});

	// godette-walk: the same walk toward -z (Godette is VRM 0.x, facing -z) plus a hips swing:
	// pelvis_Armature (humanoid hips, rest rotation identity) yaws +-8 degrees at 1 Hz and rolls
	// +-4 degrees at 2 Hz, and tummy_Armature (spine) counter-yaws +-5 degrees.
	{
		const env = (t) => smooth(t / 0.5) * (1 - smooth((t - 2.5) / 0.5));
		write('godette-walk', {
			duration: 4,
			tracks: [
				{ node: '$root', translation: keys(3, walkRoot(-1)) },
				{
					node: 'pelvis_Armature',
					rotation: keys(3, (t) => qmul(
						qaxis(0, 1, 0, 8 * DEG * env(t) * Math.sin(2 * Math.PI * 1 * t)),
						qaxis(0, 0, 1, 4 * DEG * env(t) * Math.sin(2 * Math.PI * 2 * t)))),
				},
				{
					node: 'tummy_Armature',
					rotation: keys(3, (t) => qaxis(0, 1, 0, -5 * DEG * env(t) * Math.sin(2 * Math.PI * 1 * t))),
				},
			],
		});
	}

	// shake: a fast $root shake, 4 Hz for 1.5 s (eased in and out over 0.25 s): yaw +-20 degrees
	// about the vertical axis through (0, 0, 0.25) and a +-4 cm side shake along x a quarter period
	// later; holds for 0.5 s.
	{
		const env = (t) => smooth(t / 0.25) * (1 - smooth((t - 1.25) / 0.25));
		const yaw = (t) => 20 * DEG * env(t) * Math.sin(2 * Math.PI * 4 * t);
		const pivot = 0.25;
		write('shake', {
			duration: 2,
			tracks: [{
				node: '$root',
				translation: keys(1.5, (t) => [
					-pivot * Math.sin(yaw(t)) + 0.04 * env(t) * Math.cos(2 * Math.PI * 4 * t),
					0,
					pivot - pivot * Math.cos(yaw(t)),
				]),
				rotation: keys(1.5, (t) => qaxis(0, 1, 0, yaw(t))),
			}],
		});
	}

	// godette-shake: Godette shakes her head ("no"): head_Armature yaws +-30 degrees at 4 Hz for
	// 1.5 s (eased in and out over 0.25 s) and nods +-10 degrees at 2 Hz; holds for 0.5 s. The hair
	// springs hang from the head and its colliders move with it.
	{
		const env = (t) => smooth(t / 0.25) * (1 - smooth((t - 1.25) / 0.25));
		write('godette-shake', {
			duration: 2,
			tracks: [{
				node: 'head_Armature',
				rotation: keys(1.5, (t) => qmul(
					qaxis(0, 1, 0, 30 * DEG * env(t) * Math.sin(2 * Math.PI * 4 * t)),
					qaxis(1, 0, 0, 10 * DEG * env(t) * Math.sin(2 * Math.PI * 2 * t)))),
			}],
		});
	}
}

export { DEG, keys, motionText, qaxis, qmul, smooth };
if (process.argv[1] === fileURLToPath(import.meta.url)) main();
