// SPDX-License-Identifier: MIT
// What the playground's avatar section takes from three.js and three-vrm, bundled by
// web/build-three.mjs into one script (esbuild, pinned in web/three/package-lock.json).
export {
	AmbientLight, Box3, BufferGeometry, Color, DirectionalLight, GridHelper, Group, PerspectiveCamera, Scene, SRGBColorSpace,
	Vector3, WebGLRenderer,
} from 'three';
export { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
export { VRMLoaderPlugin, VRMUtils } from '@pixiv/three-vrm';
