// SPDX-License-Identifier: MIT
// Uses the installed package as any project would: `npm install ../libspring-<version>.tgz`, then
// `node index.js`. Prints a spring's numbers, a retargeted motion, a CSS easing and a swinging tail.
import { Chain2D, SpringMotion, cssLinear, springParams, version } from 'libspring';

const spring = springParams({ duration: 0.5, bounce: 0.3 });
console.log(`libspring ${version}: stiffness ${spring.stiffness.toFixed(1)}, damping ${spring.damping.toFixed(1)}, ` +
	`settles in ${spring.settleTime().toFixed(3)} s`);

// A ball sent to x = 300, redirected to x = 100 a quarter of a second later: no speed cliff.
const ball = new SpringMotion({ value: 0, target: 300, params: spring });
let state = ball.sample(0);
for (let frame = 1; frame <= 60; frame++) {
	if (frame === 15) {
		ball.setTarget(100);
	}
	state = ball.sample(frame / 60);
}
console.log(`ball after 1 s: x ${state.value.toFixed(2)}, at rest ${state.isResting}`);
ball.dispose();

console.log(`css: ${cssLinear(spring).duration}`);

const tail = new Chain2D({ segments: Array.from({ length: 6 }, () => ({ length: 20, restAngle: 0.2 })), gravity: [0, -300] });
for (let frame = 1; frame <= 120; frame++) {
	tail.update({ x: 50 * Math.sin(frame / 20), y: 0, angle: 0 }, 1 / 60);
}
const tip = tail.pose().joints.at(-1);
console.log(`tail tip: ${tip.x.toFixed(1)}, ${tip.y.toFixed(1)}`);
tail.dispose();
