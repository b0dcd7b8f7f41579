// SPDX-License-Identifier: MIT
// The tuner's spring in each platform's own terms: only formatting, every number is one of the
// library's queries (through the npm package). Where a platform's form cannot hold the spring
// exactly (Compose and SwiftUI's duration form assume mass 1), the mass-1 equivalent is used:
// the same motion, since only the ratios k/m and c/m matter.
import { springParams } from '../../js/index.js';

const n = (v, digits = 4) => Number(v.toPrecision(digits)).toString();

export function snippets(params) {
  // the mass-1 spring with the same motion (Compose, react-spring and Motion's physical form)
  const unit = springParams({ frequency: params.frequency, dampingRatio: params.dampingRatio });
  return [
    { id: 'swiftui', title: 'SwiftUI',
      text: `.animation(.spring(duration: ${n(params.duration)}, bounce: ${n(params.bounce)}), value: value)\n` +
        `// or: .interpolatingSpring(mass: ${n(params.mass)}, stiffness: ${n(params.stiffness)}, damping: ${n(params.damping)})` },
    { id: 'compose', title: 'Jetpack Compose',
      text: `spring(dampingRatio = ${n(params.dampingRatio)}f, stiffness = ${n(unit.stiffness)}f)` },
    { id: 'flutter', title: 'Flutter',
      text: `SpringDescription(mass: ${n(params.mass)}, stiffness: ${n(params.stiffness)}, damping: ${n(params.damping)})` },
    { id: 'motion', title: 'Motion',
      text: `transition={{ type: "spring", stiffness: ${n(params.stiffness)}, damping: ${n(params.damping)}, mass: ${n(params.mass)} }}\n` +
        `// or: { type: "spring", visualDuration: ${n(params.visualDuration)}, bounce: ${n(params.bounce)} }` },
    { id: 'react-spring', title: 'react-spring',
      text: `config: { tension: ${n(params.stiffness)}, friction: ${n(params.damping)}, mass: ${n(params.mass)} }` },
  ];
}
