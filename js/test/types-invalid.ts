// SPDX-License-Identifier: MIT
// Calls that must not compile (test/declarations.test.js compiles this file alone): each line marked
// `// error TSnnnn` must give exactly that error, and no other line any error.
import { Chain2D, SpringMotion, loadVrm, springParams } from '../index.js';
import { useLibspring } from '../three-vrm.js';

springParams({ duration: 0.5, frequency: 2 }); // error TS2345
springParams({ stiffness: 100 }); // error TS2345
springParams({ duration: '0.5' }); // error TS2322
springParams({ halfLife: 0.2, bounce: 0.1 }); // error TS2345
const one = new SpringMotion({ value: 0, target: 1 });
one.setTarget([1, 2]); // error TS2345
one.sample('0.016'); // error TS2345
const two = new SpringMotion({ value: [0, 0] });
two.setTarget(5); // error TS2345
new Chain2D({ segments: [{ length: 10, restangle: 1 }] }); // error TS2561
springParams({ type: 'tween', duration: 0.3 }); // error TS2345
springParams({ mass: 1, tension: 170 }); // error TS2345
springParams({ preset: 'bouncey' }); // error TS2820
springParams({ preset: 'bouncy', duration: 0.5 }); // error TS2345
springParams({ duration: 0.5, reducedMotion: 1 }); // error TS2322
new SpringMotion({ value: 0, onRest: 3 }); // error TS2769
new SpringMotion({ value: 0, taget: 1 }); // error TS2769
one.update(0.016, two.state); // error TS2345
const finished: Promise<number> = one.finished; // error TS2322
const vrm = await loadVrm(new Uint8Array(0), { length: 'constant' }); // error TS2322
vrm.update(vrm.restTransforms); // error TS2554
vrm.update(vrm.restTransforms, '1/60'); // error TS2345
vrm.rotations = new Float32Array(4); // error TS2540
vrm.steppedPose(new Float32Array(4)); // error TS2345
vrm.crowd(); // error TS2554
vrm.crowd(10).teleport(vrm.restTransforms); // error TS2554
vrm.crowd(10).isResting(); // error TS2554
vrm.crowd(10).count = 3; // error TS2540
useLibspring({}, { interpolate: 'no' }); // error TS2322
useLibspring({}).update(); // error TS2554
